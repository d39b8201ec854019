/**
 * `agent-workbench sandbox`: the local sandbox of the service, so that an agent or a CI job can try
 * everything with no account. It runs as its own process (the sandbox bundle beside this one), with the
 * same options and its ready line on stdout; stopping this command stops it.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const SANDBOX_USAGE = `Usage: agent-workbench sandbox [--port N] [--memory] [--data DIR] [--seed demo|empty|large] [--job-step-ms N] [...]

Starts a local server that behaves like the agent platform service, with demo data, on 127.0.0.1.
When ready it prints one JSON line: {"baseUrl":…,"organizationId":…,"token":…}; set
AGENT_WORKBENCH_BASE_URL, AGENT_WORKBENCH_ORGANIZATION_ID and AGENT_WORKBENCH_TOKEN from it for try and mcp.
Stop it with Ctrl+C. Its options, as the sandbox itself says them:`;

/** Where the sandbox bundle is: beside the command line's bundle (dist/). */
export function sandboxBundle(dir: string = __dirname): string | undefined {
  const file = path.join(dir, 'sandbox.js');
  return fs.existsSync(file) ? file : undefined;
}

/** Runs the sandbox in a child process with these arguments until it ends; answers its exit code. */
export function runSandbox(args: readonly string[], err: (line: string) => void): Promise<number> {
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
