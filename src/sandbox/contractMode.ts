import type { IncomingMessage } from 'node:http';
import { pathToFileURL } from 'node:url';
import { receivedJson } from './http/body';
import type { Reply } from './http/router';

/** The environment variable that turns the checking mode on: the path of the checker module. */
export const CONTRACT_CHECK_ENV = 'AGENT_WORKBENCH_CONTRACT_CHECK';
/** Where each process writes its counts, for the integration and e2e harnesses to add up. */
export const CONTRACT_REPORT_ENV = 'AGENT_WORKBENCH_CONTRACT_CHECK_DIR';

interface Violation {
  operation: string;
  direction: string;
  pointer: string;
  rule: string;
}

interface CheckerModule {
  loadContract(): unknown;
  checkExchange(contract: unknown, request: object, response?: { status: number; body: unknown }): Violation[];
  describeViolation(violation: Violation): string;
  writeReport(dir: string): void;
}

/** Checks one answer (and the request it answers); a broken answer becomes a marked 500. */
export type ContractMode = (req: IncomingMessage, path: string, reply: Reply) => Reply;

/**
 * The sandbox's checking mode, for the test suites: off unless the environment names the checker
 * module (test/contract/checker.mjs, which the shipped extension does not carry). It stays in every
 * build because the e2e suite drives the build users get. Every request the project's client sends
 * and every answer the sandbox gives is checked against the project's contract. A violation is logged, recorded by the checker
 * (the suites fail on it) and answered as a 500 whose body names it, so the test that caused it fails.
 */
export async function loadContractMode(log: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<ContractMode | undefined> {
  const modulePath = env[CONTRACT_CHECK_ENV];
  if (!modulePath) return undefined;
  const checker = (await import(pathToFileURL(modulePath).href)) as CheckerModule;
  const contract = checker.loadContract();
  const reportDir = env[CONTRACT_REPORT_ENV];
  if (reportDir) scheduleReports(() => checker.writeReport(reportDir));
  return (req, path, reply) => {
    const request = {
      method: req.method ?? 'GET', path, contentType: req.headers['content-type'], body: receivedJson(req),
      hasBody: Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined,
      // Only the project's client must keep the request contract: tests send bad requests on purpose.
      fromClient: /^agent-workbench/.test(req.headers['user-agent'] ?? ''),
    };
    const found = checker.checkExchange(contract, request, { status: reply.status, body: asJson(reply.body) });
    if (found.length === 0) return reply;
    const lines = found.map((v) => checker.describeViolation(v));
    for (const line of lines) log(`sandbox: CONTRACT VIOLATION ${line}`);
    return { status: 500, body: { detail: `The sandbox's checking mode found a contract violation: ${lines[0]}`, contract_violations: lines } };
  };
}

/** The body as the client will read it (dates and undefined fields as JSON turns them). */
function asJson(body: unknown): unknown {
  return body === undefined ? undefined : JSON.parse(JSON.stringify(body)) as unknown;
}

function scheduleReports(write: () => void): void {
  const timer = setInterval(write, 1000);
  timer.unref();
  process.on('exit', write);
}
