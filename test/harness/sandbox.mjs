// The sandbox service as a separate process (the built CLI, `dist/sandbox.js`), the way a user runs
// it: it prints one JSON line `{"baseUrl","organizationId","token","adminSecret"}` when it is ready.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './paths.mjs';
import { startDetached } from './processes.mjs';

export const sandboxCli = path.join(repoRoot, 'dist', 'sandbox.js');

/**
 * Starts the sandbox CLI (build first) on 127.0.0.1 and a free port with `args` (for example
 * `['--memory', '--seed', 'demo']`); resolves with its connection and `stop()` once it is ready.
 * `port` 0 (the default) lets the system choose.
 */
export async function startSandboxProcess(args, { timeoutMs = 30_000, log, port = 0 } = {}) {
  if (!fs.existsSync(sandboxCli)) throw new Error(`${sandboxCli} is missing: run \`npm run build\` first.`);
  let stdout = '';
  let output = '';
  let onLine;
  const ready = new Promise((resolve) => (onLine = resolve));
  const proc = startDetached(process.execPath, [sandboxCli, '--port', String(port), ...args], {
    cwd: repoRoot,
    onOutput: (text) => {
      output = (output + text).slice(-10_000);
      log?.(text);
    },
  });
  proc.child.stdout.on('data', (chunk) => {
    stdout += chunk.toString();
    const connection = firstConnectionLine(stdout);
    if (connection) onLine(connection);
  });
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs, 'timeout')));
  const outcome = await Promise.race([ready, proc.exited.then(() => 'exited'), timeout]);
  // A pending timer would keep a test runner alive after its tests finished.
  clearTimeout(timer);
  if (typeof outcome === 'string') {
    await proc.stop();
    throw new Error(`The sandbox did not become ready (${outcome}):\n${output.slice(-3000)}`);
  }
  return { ...outcome, pid: proc.child.pid, stop: proc.stop };
}

function firstConnectionLine(text) {
  for (const line of text.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    try {
      const value = JSON.parse(line);
      if (typeof value.baseUrl === 'string' && typeof value.token === 'string') {
        // The admin secret opens its fault endpoint to tests (never part of a connection).
        return { baseUrl: value.baseUrl, organizationId: value.organizationId, token: value.token, adminSecret: value.adminSecret };
      }
    } catch {
      // A partial line: wait for the rest.
    }
  }
  return undefined;
}

/** Writes the connection file that AGENT_WORKBENCH_CONNECT points at (owner-only: it holds a token). */
export function writeConnectionFile(file, { baseUrl, organizationId, token }) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ baseUrl, organizationId, token }, null, 2)}\n`, { mode: 0o600 });
  // writeFileSync keeps the mode of an existing file; make sure it is 0600 either way.
  fs.chmodSync(file, 0o600);
  return file;
}
