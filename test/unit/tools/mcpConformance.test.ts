import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';

const MAIN = path.resolve(__dirname, '../../../src/cli/main.ts');
const EXPECTED_FAILURES = path.resolve(__dirname, 'conformance-expected-failures.yaml');
const TOKEN = 'conformance-token';

/** The conformance suite's command (a pinned dev dependency: it runs on the Node the project takes). */
function conformanceBin(): string {
  const pkg = require.resolve('@modelcontextprotocol/conformance/package.json');
  return path.join(path.dirname(pkg), (JSON.parse(readFileSync(pkg, 'utf8')) as { bin: { conformance: string } }).bin.conformance);
}

/** Ends a session of the server, as a client that is done with it does (DELETE with its id). */
function endSession(target: URL, id: string): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port: target.port, method: 'DELETE', path: target.pathname, headers: { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': id } }, (res) => res.resume().on('end', resolve));
    req.on('error', () => resolve());
    req.end();
  });
}

/**
 * The suite's client sends no token, and the server always takes one: a proxy in front adds it. A Host or
 * Origin naming the proxy is made to name the server (what a client of the server itself would send); any
 * other is passed as it is, so the server's own check of them is what the suite tests. The suite's client
 * never ends its sessions (no DELETE), and the server holds at most 16 until they idle out: the proxy ends
 * the sessions of the scenarios before when the next one begins (the suite runs them one after another).
 */
async function tokenProxy(target: URL): Promise<{ url: string; close(): Promise<void> }> {
  const sessions = new Set<string>();
  const proxy = http.createServer((req, res) => void forward(req, res));
  async function forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method === 'POST' && req.headers['mcp-session-id'] === undefined) {
      await Promise.all([...sessions].map((id) => endSession(target, id)));
      sessions.clear();
    }
    const own = `${(proxy.address() as AddressInfo).port}`;
    const headers = { ...req.headers, authorization: `Bearer ${TOKEN}` };
    for (const name of ['host', 'origin'] as const) {
      const value = headers[name];
      if (typeof value === 'string') headers[name] = value.replace(new RegExp(`^((?:http://)?(?:localhost|127\\.0\\.0\\.1|\\[::1\\])):${own}$`, 'i'), `$1:${target.port}`);
    }
    const sent = http.request({ host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      const id = answer.headers['mcp-session-id'];
      if (typeof id === 'string') sessions.add(id);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    sent.on('error', () => res.destroy());
    req.pipe(sent);
  }
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(proxy.address() as AddressInfo).port}/mcp`,
    close: () => {
      proxy.closeAllConnections();
      return new Promise((resolve) => proxy.close(() => resolve()));
    },
  };
}

function run(command: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('agent-workbench mcp --port against the MCP conformance suite (the sandbox behind it)', function () {
  this.timeout(180_000);
  let t: TestSandbox;
  let server: ChildProcess;
  let root: string;
  before(async () => {
    t = await startTestSandbox();
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'aw-conformance-')));
    const env = { ...process.env, AGENT_WORKBENCH_BASE_URL: t.baseUrl, AGENT_WORKBENCH_TOKEN: t.token, AGENT_WORKBENCH_ORGANIZATION_ID: t.orgId, MCP_TOKEN: TOKEN };
    server = spawn(process.execPath, ['--import', 'tsx', MAIN, 'mcp', '--port', '0', '--token-env', 'MCP_TOKEN', '--root', root], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  });
  after(async () => {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
    await t.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('passes every scenario but those that need the suite’s own test tools, resources and prompts, which it lists with their reasons', async () => {
    const url = await new Promise<string>((resolve, reject) => {
      server.stdout!.once('data', (d: Buffer) => resolve((JSON.parse(d.toString().split('\n')[0]!) as { url: string }).url));
      server.once('exit', () => reject(new Error('the server ended')));
    });
    const proxy = await tokenProxy(new URL(url));
    try {
      // The suite's own check: a scenario failing that is not in the file, or passing that is, fails the run.
      const outDir = path.join(root, 'results');
      const { code, out } = await run(conformanceBin(), ['server', '--url', proxy.url, '--expected-failures', EXPECTED_FAILURES, '-o', outDir]);
      assert.equal(code, 0, out.slice(-6000));
      assert.match(out, /Baseline check passed: all failures are expected/);
    } finally {
      await proxy.close();
    }
  });
});
