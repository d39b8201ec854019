import { spawn } from 'node:child_process';

export interface ChildRun {
  /** Exit code, or undefined when the child was still running at the deadline (it is then killed). */
  code: number | null | undefined;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs node with the given arguments and waits at most `deadlineMs` for it to exit by itself. */
export function runNode(args: readonly string[], deadlineMs: number, cwd = process.cwd()): Promise<ChildRun> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, deadlineMs);
    child.on('exit', (code) => {
      clearTimeout(deadline);
      resolve({ code: timedOut ? undefined : code, stdout, stderr, ms: performance.now() - started });
    });
  });
}
