import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceClient } from '../../../src/core/client';
import { createMcpServer, type McpOptions } from '../../../src/core/mcp/mcpServer';
import { DEMO_LOOP_AGENT_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf } from '../trial/trialHelpers';
import { limits } from './toolHelpers';

function text(result: unknown): string {
  return ((result as CallToolResult).content[0] as { text: string }).text;
}

describe('The MCP server’s tools as a client meets them (a real MCP client in process, the sandbox behind it)', function () {
  this.timeout(60_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let open: Client[];
  before(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
  });
  after(async () => {
    await client.close();
    await t.close();
  });
  beforeEach(() => {
    open = [];
  });
  afterEach(() => Promise.all(open.map((c) => c.close())));

  /** A client connected in process to a new session of a server over the sandbox. */
  async function connect(o: Partial<McpOptions> = {}): Promise<Client> {
    const server = createMcpServer({ context: () => ({ client, root: undefined, user: 'tester' }), limits: () => limits(), readOnly: false, version: '0', log: () => undefined, ...o });
    const mcp = new Client({ name: 'test', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    await mcp.connect(a);
    open.push(mcp);
    return mcp;
  }

  it('refuses a misnamed filter, naming the fields list_jobs takes, rather than listing every job', async () => {
    const mcp = await connect();
    const answer = await mcp.callTool({ name: 'list_jobs', arguments: { agent_id: DEMO_LOOP_AGENT_ID, state: 'FAILURE' } });
    assert.equal(answer.isError, true);
    assert.equal(text(answer), 'Input refused: unknown field `state`: list_jobs takes only agent_id, status, version_name, created_from, created_to, metadata, similar_to, limit. Nothing was started.');
  });

  it('answers a call of a tool it does not have with the JSON-RPC error the specification names', async () => {
    const mcp = await connect();
    await assert.rejects(mcp.callTool({ name: 'list_agents', arguments: {} }), { code: -32602, message: /Unknown tool: list_agents$/ });
  });
});
