import * as assert from 'node:assert/strict';
import * as nodeHttp from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ServiceClient } from '../../../src/core/client';
import { serveHttp } from '../../../src/core/mcp/mcpHttp';
import { createMcpServer } from '../../../src/core/mcp/mcpServer';
import { DEMO_LOOP_AGENT_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf } from '../trial/trialHelpers';
import { limits } from './toolHelpers';

const TOKEN = 'server-token-of-the-test';
const AUTH = { Authorization: `Bearer ${TOKEN}` };

type Http = Awaited<ReturnType<typeof serveHttp>>;

function post(url: string, body: unknown, headers: Record<string, string> = AUTH): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
}

/** A POST through a keep-alive agent (one socket, reused when the server lets it): the status, headers and body. */
function agentPost(agent: nodeHttp.Agent, url: string, body: string | Buffer): Promise<{ status: number; headers: nodeHttp.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = nodeHttp.request(url, { method: 'POST', agent, headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...AUTH, 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } };

describe('MCP over HTTP: the token, the sessions, one request a POST (in process, the sandbox behind it)', function () {
  this.timeout(60_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let now: number;
  let http: Http;
  let logs: string[];
  before(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
  });
  after(async () => {
    await client.close();
    await t.close();
  });
  beforeEach(async () => {
    now = 0;
    logs = [];
    const makeServer = () => createMcpServer({ context: () => ({ client, root: undefined, user: 'tester' }), limits: () => limits(), readOnly: false, version: '0', log: () => undefined });
    http = await serveHttp({ port: 0, token: TOKEN, makeServer, log: (line) => logs.push(line), maxSessions: 3, idleMs: 10 * 60_000, now: () => now });
  });
  afterEach(() => http.close());

  async function connect(): Promise<{ mcp: Client; transport: StreamableHTTPClientTransport }> {
    const transport = new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: AUTH } });
    const mcp = new Client({ name: 'test', version: '1' });
    await mcp.connect(transport);
    return { mcp, transport };
  }

  it('answers every request without its token with 401 and a Bearer challenge: no header, another scheme, a wrong token, any method, with a session or not', async () => {
    const { mcp, transport } = await connect();
    try {
      const session = { 'Mcp-Session-Id': transport.sessionId!, 'Mcp-Protocol-Version': '2025-06-18' };
      const asks: [string, RequestInit][] = [
        ['no header', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(initialize) }],
        ['another scheme', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Basic ${TOKEN}` }, body: JSON.stringify(initialize) }],
        ['a wrong token', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer wrong' }, body: JSON.stringify(initialize) }],
        ['a wrong token on a session', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer wrong', ...session }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) }],
        ['a GET of the stream', { method: 'GET', headers: { Accept: 'text/event-stream', ...session } }],
        ['a DELETE of the session', { method: 'DELETE', headers: { Authorization: 'Bearer wrong', ...session } }],
      ];
      for (const [what, init] of asks) {
        const refused = await fetch(http.url, init);
        assert.equal(refused.status, 401, what);
        const challenge = refused.headers.get('www-authenticate') ?? '';
        assert.match(challenge, /^Bearer realm="agent-workbench mcp"/, what);
        assert.equal(/error="invalid_token"/.test(challenge), /wrong token|DELETE/.test(what), `${what}: invalid_token only when a bearer token was sent`);
      }
      assert.equal(http.openSessions(), 1, 'the session is untouched');
    } finally {
      await mcp.close();
    }
  });

  it('refuses a request over 4 MB with 413 and Connection: close, and the next request on the same keep-alive agent succeeds', async () => {
    const agent = new nodeHttp.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = JSON.stringify({ ...initialize, params: { ...initialize.params, padding: 'x'.repeat(5 * 1024 * 1024) } });
      const refused = await agentPost(agent, http.url, big);
      assert.equal(refused.status, 413);
      assert.equal(refused.headers.connection, 'close');
      assert.match(refused.text, /larger than 4 MB/);
      const next = await agentPost(agent, http.url, JSON.stringify(initialize));
      assert.equal(next.status, 200, next.text);
    } finally {
      agent.destroy();
    }
  });

  it('refuses a JSON-RPC batch with a JSON-RPC error, running none of its calls', async () => {
    const { mcp, transport } = await connect();
    try {
      const before = (await client.jobs.list(DEMO_LOOP_AGENT_ID, { page_size: 1 })).count;
      const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'find_agents', arguments: {} } });
      const answer = await post(http.url, [call(1), call(2), call(3)], { ...AUTH, 'Mcp-Session-Id': transport.sessionId!, 'Mcp-Protocol-Version': '2025-06-18' });
      assert.equal(answer.status, 400);
      const body = (await answer.json()) as { error: { code: number; message: string } };
      assert.equal(body.error.code, -32600);
      assert.match(body.error.message, /one request per POST/);
      assert.equal((await client.jobs.list(DEMO_LOOP_AGENT_ID, { page_size: 1 })).count, before);
    } finally {
      await mcp.close();
    }
  });

  it('opens at most the set number of sessions, and says so to the next initialize', async () => {
    const clients = await Promise.all([1, 2, 3].map(() => connect()));
    try {
      assert.equal(http.openSessions(), 3);
      const refused = await post(http.url, initialize);
      assert.equal(refused.status, 503);
      assert.match(((await refused.json()) as { error: { message: string } }).error.message, /^Too many open sessions \(3\): close one .* or wait until one has been idle for 10 minutes\.$/);
    } finally {
      await Promise.all(clients.map((c) => c.mcp.close()));
    }
  });

  it('closes a session its client left without DELETE once it has been idle for 10 minutes, and forgets it', async () => {
    const { mcp, transport } = await connect();
    const sessionId = transport.sessionId!;
    await mcp.listTools();
    await mcp.close();
    // The server hears of the closed stream a moment later.
    for (let i = 0; i < 50 && http.sessionsInUse() > 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(http.openSessions(), 1);
    assert.equal(http.sessionsInUse(), 0);
    now += 9 * 60_000;
    await http.closeIdle();
    assert.equal(http.openSessions(), 1, 'not idle long enough');
    now += 60_000 + 1;
    await http.closeIdle();
    assert.equal(http.openSessions(), 0);
    assert.ok(logs.some((l) => /session closed \(idle for 10 minutes; 0 open\)/.test(l)), logs.join('\n'));
    const gone = await post(http.url, { jsonrpc: '2.0', id: 9, method: 'tools/list' }, { ...AUTH, 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-06-18' });
    assert.equal(gone.status, 404);
    assert.match(await gone.text(), /No such session .*start a new one with initialize/);
  });

  it('keeps a session while its client holds a request or stream open, however long', async () => {
    const { mcp } = await connect();
    try {
      await mcp.listTools();
      for (let i = 0; i < 50 && http.sessionsInUse() === 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(http.sessionsInUse(), 1, 'the client holds its stream');
      now += 60 * 60_000;
      await http.closeIdle();
      assert.equal(http.openSessions(), 1);
    } finally {
      await mcp.close();
    }
  });

  it('makes room for a new session by closing idle ones, however many bare initialize requests came', async () => {
    for (let i = 0; i < 3; i++) {
      const opened = await post(http.url, initialize);
      assert.equal(opened.status, 200);
      await opened.text();
    }
    assert.equal((await post(http.url, initialize)).status, 503);
    now += 10 * 60_000 + 1;
    const fourth = await post(http.url, initialize);
    assert.equal(fourth.status, 200);
    await fourth.text();
    assert.equal(http.openSessions(), 1);
  });

  it('closes a session a client ends with DELETE', async () => {
    const { mcp, transport } = await connect();
    assert.equal(http.openSessions(), 1);
    await transport.terminateSession();
    assert.equal(http.openSessions(), 0);
    await mcp.close();
  });
});
