import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceClient } from '../../../src/core/client';
import { LocalMcpServer, type LocalServerAddress } from '../../../src/core/mcp/localServer';
import { DEMO_LOOP_AGENT_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf } from '../trial/trialHelpers';
import { limits } from './toolHelpers';

function text(result: unknown): string {
  return ((result as CallToolResult).content[0] as { text: string }).text;
}

async function connect(address: LocalServerAddress): Promise<Client> {
  const mcp = new Client({ name: 'editor', version: '1' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(address.url), { requestInit: { headers: address.headers } }));
  return mcp;
}

function initialize(url: string, headers: Record<string, string>): Promise<Response> {
  const body = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } };
  return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
}

describe('the MCP server a window offers to the editor (in the extension host, over the window\'s client)', function () {
  this.timeout(60_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let signedIn: boolean;
  let trusted: boolean;
  let logs: string[];
  let server: LocalMcpServer;

  before(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
  });
  after(async () => {
    await client.close();
    await t.close();
  });
  beforeEach(() => {
    signedIn = true;
    trusted = true;
    logs = [];
    server = new LocalMcpServer({
      context: () => {
        if (!signedIn) throw new Error('Agent Workbench is not connected: sign in first.');
        return { client, root: undefined, user: 'editor' };
      },
      limits: () => limits(10),
      readOnly: () => !trusted,
      version: '0.0.0-test',
      log: (line) => logs.push(line),
    });
  });
  afterEach(() => server.stop());

  it('listens on 127.0.0.1 and answers a read through the window\'s client to the bearer token it made', async () => {
    const address = await server.start();
    assert.match(address.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.match(address.headers.Authorization, /^Bearer [\w-]{40,}$/);
    const mcp = await connect(address);
    try {
      const { tools } = await mcp.listTools();
      assert.ok(tools.some((x) => x.name === 'run_agent'), 'a trusted workspace gets the paid tools too');
      const found = await mcp.callTool({ name: 'find_agents', arguments: { search: 'Support Call' } });
      assert.match(text(found), new RegExp(DEMO_LOOP_AGENT_ID));
    } finally {
      await mcp.close();
    }
    assert.ok(![...logs, address.url].some((line) => line.includes(t.token)), 'the service token is in no log line and not in the address');
  });

  it('refuses a request without its token, with another token, or with the service token', async () => {
    const { url } = await server.start();
    assert.equal((await initialize(url, {})).status, 401);
    assert.equal((await initialize(url, { Authorization: 'Bearer not-the-token' })).status, 401);
    assert.equal((await initialize(url, { Authorization: `Bearer ${t.token}` })).status, 401);
  });

  it('makes a new token for each server, so one window\'s token opens no other window\'s server', async () => {
    const other = new LocalMcpServer({ context: () => ({ client, root: undefined, user: 'other' }), limits: () => limits(10), readOnly: () => false, version: '0', log: () => undefined });
    try {
      const [mine, theirs] = await Promise.all([server.start(), other.start()]);
      assert.notEqual(mine.headers.Authorization, theirs.headers.Authorization);
      assert.equal((await initialize(theirs.url, mine.headers)).status, 401);
    } finally {
      await other.stop();
    }
  });

  it('offers only the reads to a session opened while the workspace is not trusted', async () => {
    trusted = false;
    const mcp = await connect(await server.start());
    try {
      const { tools } = await mcp.listTools();
      assert.ok(tools.length > 0 && tools.every((x) => x.annotations?.readOnlyHint === true));
      await assert.rejects(mcp.callTool({ name: 'run_agent', arguments: {} }), { code: -32602, message: /read-only/ });
    } finally {
      await mcp.close();
    }
  });

  it('answers a call made while the window is signed out with what is missing, starting nothing', async () => {
    const mcp = await connect(await server.start());
    try {
      signedIn = false;
      const answer = await mcp.callTool({ name: 'find_agents', arguments: {} });
      assert.equal(answer.isError, true);
      assert.match(text(answer), /not connected: sign in first\. Nothing was started\./);
    } finally {
      await mcp.close();
    }
  });

  it('starts once for callers that ask at the same time, and once stopped refuses connections and new starts', async () => {
    const [a, b] = await Promise.all([server.start(), server.start()]);
    assert.deepEqual(a, b);
    await server.stop();
    await assert.rejects(initialize(a.url, a.headers));
    await assert.rejects(server.start(), /stopped/);
  });
});
