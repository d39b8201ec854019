/** Starting the sandbox as a real child process, the way users and the extension start it. */
import { type ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '../../..');
export const MAIN = 'src/sandbox/main.ts';
// `npx tsx src/sandbox/main.ts`, minus the wrappers: npm's exec does not pass SIGTERM on, and tsx's
// own relay kills its child outright when it does not confirm a signal within 30 ms (a busy machine).
// Node with tsx's loader runs the same code, and the signal reaches the sandbox itself.
export const TSX_NODE = [process.execPath, '--import', 'tsx'] as const;

export interface Started {
  child: ChildProcess;
  ready: { baseUrl: string; organizationId: string; token: string };
  stdout: () => string;
  exited: Promise<number | null>;
}

/** Starts a sandbox process and waits for its one JSON line on stdout. */
export function startCli(command: string, args: string[]): Promise<Started> {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line; stderr: ${stderr}`)), 30_000);
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      resolve({ child, ready: JSON.parse(stdout.slice(0, newline)), stdout: () => stdout, exited });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before ready: ${stderr}`)));
  });
}

