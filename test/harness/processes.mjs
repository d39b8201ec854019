// Child processes for the test harness: run a command to completion, start a long-lived server in
// its own process group, and stop exactly that group by PID (never by name).
import { spawn } from 'node:child_process';
import * as net from 'node:net';

/** Runs a command to completion; rejects with its output tail when it exits non-zero. */
export function run(command, args, { cwd, env, quiet = true } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: env ?? process.env,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    });
    let output = '';
    const keep = (chunk) => {
      // Only the tail matters for an error message; keep memory bounded for long builds.
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(output);
      else {
        const shown = [command, ...args].join(' ');
        reject(new Error(`\`${shown}\` failed (${signal ?? `exit ${code}`}) in ${cwd ?? process.cwd()}:\n${output.slice(-4000)}`));
      }
    });
  });
}

/**
 * Starts a long-lived process in its own process group (so it and its children can be stopped
 * together by PID) and returns it with a `stop()` that ends that group only.
 */
export function startDetached(command, args, { cwd, env, onOutput } = {}) {
  const child = spawn(command, args, { cwd, env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.on('data', (chunk) => onOutput?.(chunk.toString()));
  child.stderr.on('data', (chunk) => onOutput?.(chunk.toString()));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  // A harness that crashes must not leave servers behind: stop the group when this process exits.
  const onExit = () => killGroup(child.pid, 'SIGKILL');
  process.on('exit', onExit);
  let stopping;
  const stop = () => {
    stopping ??= (async () => {
      process.off('exit', onExit);
      if (child.exitCode === null && child.signalCode === null) killGroup(child.pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      // Children that ignored SIGTERM (an extension host, a pty) go with the group.
      killGroup(child.pid, 'SIGKILL');
    })();
    return stopping;
  };
  return { child, exited, stop };
}

/** Sends a signal to the process group led by `pid`; a group that is already gone is fine. */
export function killGroup(pid, signal) {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if (error.code !== 'ESRCH') throw error;
  }
}

/** Asks the OS for a free TCP port on 127.0.0.1. */
export function freePort() {
  return listenOnce(0);
}

/**
 * `preferred` when it is a port this user may take and nothing listens on it at 127.0.0.1, else a free
 * one: the demo keeps its ports between runs, since the workbench keys its state by origin.
 */
export async function preferredPort(preferred) {
  if (Number.isInteger(preferred) && preferred >= 1024 && preferred <= 65535) {
    const port = await listenOnce(preferred).catch(() => undefined);
    if (port !== undefined) return port;
  }
  return freePort();
}

function listenOnce(port) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address();
      server.close(() => resolve(bound));
    });
  });
}

/** Polls `url` until it answers with a status below 500, or rejects after `timeoutMs`. */
export async function waitForHttp(url, { timeoutMs = 60_000, exited } = {}) {
  const deadline = Date.now() + timeoutMs;
  let died = false;
  exited?.then(() => (died = true));
  let lastError;
  while (Date.now() < deadline && !died) {
    try {
      const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(5000) });
      await response.body?.cancel();
      if (response.status < 500) return;
      lastError = new Error(`HTTP ${response.status}`);
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const why = died ? 'the process exited' : `no answer within ${timeoutMs} ms`;
  throw new Error(`${url} did not come up: ${why} (${lastError?.message ?? 'no request made'})`);
}

/** Waits for `promise` at most `timeoutMs`; rejects with `message` when it takes longer. */
export async function withTimeout(promise, timeoutMs, message) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
