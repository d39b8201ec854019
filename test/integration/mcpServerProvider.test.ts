// The MCP server offered to VS Code's own MCP client, in code-server 1.100 (which enables API proposals
// for every extension, so the provider registers there): VS Code lists it and starts it through the
// provider, and a real MCP client connects to the definition VS Code is given — with its bearer token
// only — over the window's connection.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as vscode from 'vscode';
import { connect, startSandbox, waitFor, workbench, type TestSandbox } from './support/workbench';

const SUPPORT_CALL_QA = '5c0a11d3-7e2b-4f61-9a3c-2d8e4b6f1a01';
// VS Code names a server an extension's provider offers `<extension id>/<label>`.
const SERVER_ID = 'agent-workbench.agent-workbench/Agent Workbench';

function extensionLog(api: { logUri: vscode.Uri }): string {
  const file = path.join(api.logUri.fsPath, 'Agent Workbench.log');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

describe('The MCP server offered to VS Code', function () {
  this.timeout(90_000);
  let sandbox: TestSandbox;
  before(async () => {
    sandbox = await startSandbox();
    await connect(sandbox);
  });
  // VS Code's connection is left to end with the window: stopping it (workbench.mcp.stopServer) makes
  // VS Code 1.100's own HTTP transport reject a promise nobody awaits, which the runner reports.
  after(() => sandbox.stop());

  it('is offered with no port and no token until VS Code starts it', async () => {
    const provider = (await workbench()).mcpServer;
    assert.ok(provider, 'the provider registered (code-server enables the 1.100 proposal)');
    const [offered] = provider.provideMcpServerDefinitions();
    assert.equal(offered?.label, 'Agent Workbench');
    assert.deepEqual(offered?.headers, {});
  });

  it('is started by VS Code\'s own MCP client through the provider, which opens a session and lists the tools', async () => {
    const api = await workbench();
    await vscode.commands.executeCommand('workbench.mcp.startServer', SERVER_ID);
    await waitFor(() => api.mcpServer?.server, 'VS Code resolved the definition (the server started)');
    // Only VS Code's client knows the server yet: what the server logged is its session.
    const listed = await waitFor(() => /MCP: session opened[\s\S]*MCP: listed (\d+) tools\n/.exec(extensionLog(api)), 'VS Code\'s client listed the tools', 30_000);
    assert.equal(Number(listed[1]), vscode.lm.tools.filter((t) => t.name.startsWith('agentWorkbench_')).length, 'every tool of the catalogue (the workspace is trusted)');
  });

  it('answers an MCP client with the definition VS Code is given, over the window\'s connection, and refuses one without its token', async () => {
    const api = await workbench();
    const resolved = await api.mcpServer!.resolveMcpServerDefinition();
    assert.match(resolved.uri.toString(), /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.ok(!JSON.stringify(resolved).includes(sandbox.token), 'the service token is not in what VS Code is given');
    const refused = await fetch(resolved.uri.toString(), { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }) });
    assert.equal(refused.status, 401);
    const mcp = new Client({ name: 'integration', version: '1' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(resolved.uri.toString()), { requestInit: { headers: resolved.headers } }));
    try {
      const { tools } = await mcp.listTools();
      assert.ok(tools.some((t) => t.name === 'read_jobs') && tools.some((t) => t.name === 'run_agent'));
      const answer = (await mcp.callTool({ name: 'describe_agent', arguments: { agent_id: SUPPORT_CALL_QA } })) as CallToolResult;
      assert.match((answer.content[0] as { text: string }).text, /Support Call QA/);
    } finally {
      await mcp.close();
    }
    const log = extensionLog(api);
    assert.ok(!log.includes(sandbox.token), 'no log line holds the service token');
    assert.ok(!log.includes(resolved.headers.Authorization!.slice('Bearer '.length)), 'no log line holds the server\'s token');
  });

  it('runs an agent for an MCP client over the window\'s store: the job is watched in the status bar like any other', async () => {
    const api = await workbench();
    const resolved = await api.mcpServer!.resolveMcpServerDefinition();
    const mcp = new Client({ name: 'integration', version: '1' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(resolved.uri.toString()), { requestInit: { headers: resolved.headers } }));
    try {
      const input = { agent_id: SUPPORT_CALL_QA, inputs: [{ transcript: 'Agent: hello.', language: 'en' }] };
      // This client cannot be asked (no elicitation): the first call answers the estimate and a confirmation id, and starts nothing.
      const plan = (await mcp.callTool({ name: 'run_agent', arguments: input })) as CallToolResult;
      assert.match((plan.content[0] as { text: string }).text, /Not started yet/);
      const confirmationId = (plan.structuredContent as { confirmation_id: string }).confirmation_id;
      const started = (await mcp.callTool({ name: 'run_agent', arguments: { ...input, confirmation_id: confirmationId } })) as CallToolResult;
      const text = (started.content[0] as { text: string }).text;
      const jobId = /Started 1 job[^\n]*\n- (\S+)/.exec(text)?.[1];
      assert.ok(jobId, text);
      await waitFor(() => api.stores.require().watcher.jobs().some((j) => j.id === jobId && j.agentId === SUPPORT_CALL_QA), 'the job watched in the status bar');
    } finally {
      await mcp.close();
      await vscode.commands.executeCommand('agentWorkbench.jobs.stopWatchingAll');
    }
  });
});
