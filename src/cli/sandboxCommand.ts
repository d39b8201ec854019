/**
 * `agent-workbench sandbox`: the local sandbox of the service, so that an agent or a CI job can try
 * everything with no account. It runs as its own process (the sandbox bundle beside this one), with the
 * same options and its ready line on stdout; stopping this command stops it.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { OPTIONS as SANDBOX_OPTIONS, parseCliArgs } from '../sandbox/cliArgs';
import { UsageError } from './usageError';

export const SANDBOX_USAGE = `Usage: agent-workbench sandbox [options]

Starts a local server that behaves like the agent platform service, with demo data, on 127.0.0.1.
When ready it prints one JSON line: {"baseUrl":…,"organizationId":…,"token":…}; set
AGENT_WORKBENCH_BASE_URL, AGENT_WORKBENCH_ORGANIZATION_ID and AGENT_WORKBENCH_TOKEN from it for try,
export-policy, clean-up and mcp. Logs go to stderr. Stop it with Ctrl+C.

${SANDBOX_OPTIONS}`;

/** Where the sandbox bundle is: beside the command line's bundle (dist/). */
export function sandboxBundle(dir: string = __dirname): string | undefined {
  const file = path.join(dir, 'sandbox.js');
  return fs.existsSync(file) ? file : undefined;
}

/**
 * Runs the sandbox in a child process with these arguments until it ends; answers its exit code. The
 * arguments are checked here first, so that a mistake is said in the command line's words (a
 * `UsageError`), and `--help` is this command's own.
 */
export function runSandbox(args: readonly string[], out: (line: string) => void, err: (line: string) => void): Promise<number> {
  let request: ReturnType<typeof parseCliArgs>;
  try {
    request = parseCliArgs(args, path.resolve('.sandbox-data'));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (request.help) {
    out(SANDBOX_USAGE);
    return Promise.resolve(0);
  }
  const bundle = sandboxBundle();
  if (!bundle) {
    err('agent-workbench sandbox: the sandbox is not built here (dist/sandbox.js is missing): run npm run build.');
    return Promise.resolve(2);
  }
  const child = spawn(process.execPath, [bundle, ...args], { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(code ?? (signal ? 1 : 0));
    });
    child.on('error', (error) => {
      err(`agent-workbench sandbox: ${error.message}`);
      resolve(2);
    });
  });
}
