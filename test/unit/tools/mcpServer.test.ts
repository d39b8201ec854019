import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceClient } from '../../../src/core/client';
import { testCaseLine } from '../../../src/core/comparison/testSet';
import { findLeftovers } from '../../../src/core/trial/trialEnd';
import { trialMarker, trialName } from '../../../src/core/trial/trialMarker';
import { newTrial, serializeTrial } from '../../../src/core/trial/trialRecord';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf, seedClientOf, editedDemoPolicy, LOOP_CASE } from '../trial/trialHelpers';

const MAIN = path.resolve(__dirname, '../../../src/cli/main.ts');
const TSX = ['--import', 'tsx'];

function text(result: unknown): string {
  return ((result as CallToolResult).content[0] as { text: string }).text;
}

/** The confirmation id a first call answered with its plan. */
function confirmationId(result: unknown): string {
  const id = ((result as CallToolResult).structuredContent as { confirmation_id?: string }).confirmation_id;
  assert.ok(id, text(result));
  return id;
}

describe('agent-workbench mcp (a real MCP client against the server, the sandbox behind it)', function () {
  this.timeout(90_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let root: string;
  let env: Record<string, string>;
  before(async () => {
    t = await startTestSandbox({ jobStepMs: 400 });
    client = clientOf(t);
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'aw-mcp-')));
    env = { ...(process.env as Record<string, string>), AGENT_WORKBENCH_BASE_URL: t.baseUrl, AGENT_WORKBENCH_TOKEN: t.token, AGENT_WORKBENCH_ORGANIZATION_ID: t.orgId };
  });
  after(async () => {
    await client.close();
    await t.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  const jobCount = async (): Promise<number> => (await client.jobs.list(DEMO_LOOP_AGENT_ID, { page_size: 1 })).count;

  async function stdioClient(args: string[] = []): Promise<{ mcp: Client; stderr: string[] }> {
    const stderr: string[] = [];
    const transport = new StdioClientTransport({ command: process.execPath, args: [...TSX, MAIN, 'mcp', '--root', root, '--poll-ms', '100', ...args], env, stderr: 'pipe' });
    transport.stderr?.on('data', (d: Buffer) => stderr.push(d.toString()));
    const mcp = new Client({ name: 'test', version: '1' });
    await mcp.connect(transport);
    return { mcp, stderr };
  }

  it('lists the tools with annotations over stdio and answers a read, logging to stderr only', async () => {
    const { mcp, stderr } = await stdioClient();
    try {
      const { tools } = await mcp.listTools();
      const find = tools.find((x) => x.name === 'find_agents')!;
      assert.equal(find.annotations?.readOnlyHint, true);
      assert.equal(tools.find((x) => x.name === 'cancel_jobs')?.annotations?.destructiveHint, true);
      assert.equal(find.inputSchema.type, 'object');
      const found = await mcp.callTool({ name: 'find_agents', arguments: { search: 'Support Call' } });
      assert.match(text(found), new RegExp(DEMO_LOOP_AGENT_ID));
      assert.ok((found.structuredContent as { agents: unknown[] }).agents.length > 0);
      const bad = await mcp.callTool({ name: 'describe_agent', arguments: {} });
      assert.equal(bad.isError, true);
      assert.match(text(bad), /`agent_id`/);
      assert.match(stderr.join(''), /serving the tools over stdio/);
      assert.ok(!stderr.join('').includes(t.token), 'the token is in no log line');
    } finally {
      await mcp.close();
    }
  });

  it('starts without connection settings, lists its tools, and answers every call with what to set', async () => {
    const { AGENT_WORKBENCH_BASE_URL: _u, AGENT_WORKBENCH_TOKEN: _t, AGENT_WORKBENCH_ORGANIZATION_ID: _o, ...bare } = env;
    const stderr: string[] = [];
    const transport = new StdioClientTransport({ command: process.execPath, args: [...TSX, MAIN, 'mcp', '--root', root], env: bare, stderr: 'pipe' });
    transport.stderr?.on('data', (d: Buffer) => stderr.push(d.toString()));
    const mcp = new Client({ name: 'unset', version: '1' });
    await mcp.connect(transport);
    try {
      assert.ok((await mcp.listTools()).tools.some((x) => x.name === 'find_agents'));
      for (const name of ['find_agents', 'run_agent']) {
        const answer = await mcp.callTool({ name, arguments: {} });
        assert.equal(answer.isError, true);
        assert.match(text(answer), /^Agent Workbench has no connection: AGENT_WORKBENCH_BASE_URL and AGENT_WORKBENCH_TOKEN must be set in the environment the MCP client starts agent-workbench mcp with .* Nothing was started\.$/);
      }
      assert.match(stderr.join(''), /no connection: .*Serving anyway/);
    } finally {
      await mcp.close();
    }
  });

  it('offers only the reads with --read-only', async () => {
    const { mcp } = await stdioClient(['--read-only']);
    try {
      const { tools } = await mcp.listTools();
      assert.ok(tools.length > 0 && tools.every((x) => x.annotations?.readOnlyHint === true));
      await assert.rejects(mcp.callTool({ name: 'run_agent', arguments: {} }), { code: -32602, message: /Unknown tool: run_agent \(this server is read-only/ });
    } finally {
      await mcp.close();
    }
  });

  it('answers a paid call with its estimate and a confirmation id first, and runs it on a second call with that id only', async () => {
    const { mcp } = await stdioClient();
    try {
      const inputs = [{ transcript: 'Agent: hi.', language: 'en' }];
      const before = await jobCount();
      assert.match(text(await mcp.callTool({ name: 'run_agent', arguments: { agent_id: DEMO_LOOP_AGENT_ID, inputs, confirm: true } })), /^Input refused: unknown field `confirm`/);
      assert.equal(await jobCount(), before, 'confirm: true starts nothing');
      const plan = await mcp.callTool({ name: 'run_agent', arguments: { agent_id: DEMO_LOOP_AGENT_ID, inputs } });
      const run = await mcp.callTool({ name: 'run_agent', arguments: { agent_id: DEMO_LOOP_AGENT_ID, inputs, confirmation_id: confirmationId(plan) } });
      assert.equal((run.structuredContent as { job_ids: string[] }).job_ids.length, 1);
    } finally {
      await mcp.close();
    }
  });

  it("refuses to publish a file that claims to be another user's trial: Bob's marked copy and its job stay, and nothing is published", async () => {
    const seed = seedClientOf(t);
    const bob = { trialId: 'bob-trial-0001', user: 'bob' };
    const copy = await seed.agents.duplicate(DEMO_LOOP_AGENT_ID);
    await seed.agents.patch(copy.base_agent.id, { name: trialName('Support Call QA', 'bob', new Date()), description: trialMarker(bob) });
    await seed.agents.run(copy.base_agent.id, { inputs: { transcript: 'hello', language: 'en' } });
    const record = newTrial({ ...bob, policyId: DEMO_LOOP_POLICY_ID, policyName: 'Customer Call Quality Standard', baseVersionId: (await seed.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id ?? null, content: { note: 'Always mark every call Compliant' } });
    record.entities = [{ kind: 'agent', name: copy.base_agent.name, id: copy.base_agent.id, sourceAgentId: DEMO_LOOP_AGENT_ID }];
    record.state = 'ready';
    await fs.writeFile(path.join(root, 'bob.trial.json'), serializeTrial(record));
    const versions = (await seed.policies.listVersions(DEMO_LOOP_POLICY_ID, { page_size: 1 })).count;
    const { mcp } = await stdioClient();
    try {
      const answer = await mcp.callTool({ name: 'publish_policy_edit', arguments: { trial_file: 'bob.trial.json' } });
      assert.equal(answer.isError, true);
      assert.match(text(answer), /bob's, not yours: nothing it names is touched/);
    } finally {
      await mcp.close();
    }
    assert.equal((await client.agents.get(copy.base_agent.id)).id, copy.base_agent.id, "Bob's copy stays");
    assert.equal((await client.jobs.list(copy.base_agent.id, { page_size: 1 })).count, 1, 'with its job');
    assert.equal((await client.policies.listVersions(DEMO_LOOP_POLICY_ID, { page_size: 1 })).count, versions, 'nothing is published');
    // Bob, not this test, removes his copy (the other tests count trial copies left in the organization).
    await seed.agents.delete(copy.base_agent.id);
    await seed.close();
  });

  it('asks through elicitation when the client supports it, and starts nothing when the user declines', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [...TSX, MAIN, 'mcp', '--root', root], env, stderr: 'pipe' });
    const mcp = new Client({ name: 'asking', version: '1' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    mcp.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'decline' };
    });
    await mcp.connect(transport);
    try {
      const before = await jobCount();
      const args = { agent_id: DEMO_LOOP_AGENT_ID, inputs: [{ transcript: 'x', language: 'en' }] };
      const answer = await mcp.callTool({ name: 'run_agent', arguments: args });
      assert.match(asked[0] ?? '', /Run an agent: Run .*1 job/);
      assert.match(text(answer), /declined: nothing was started/);
      assert.match(text(await mcp.callTool({ name: 'run_agent', arguments: args })), /^Refused: the user declined this run_agent call/);
      assert.equal(await jobCount(), before);
    } finally {
      await mcp.close();
    }
  });

  it('serves Streamable HTTP on 127.0.0.1 with a token of its own, refusing a foreign Origin, and reports progress of a trial it can cancel midway', async () => {
    const server: ChildProcess = spawn(process.execPath, [...TSX, MAIN, 'mcp', '--port', '0', '--token-env', 'MCP_TOKEN', '--root', root, '--poll-ms', '100'], { env: { ...env, MCP_TOKEN: 'local-secret' }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        server.stdout!.once('data', (d: Buffer) => resolve((JSON.parse(d.toString().split('\n')[0]!) as { url: string }).url));
        server.once('exit', () => reject(new Error('the server ended')));
      });
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const foreign = await fetch(url, { method: 'POST', headers: { Origin: 'http://evil.example', Authorization: 'Bearer local-secret', 'Content-Type': 'application/json' }, body: '{}' });
      assert.equal(foreign.status, 403);
      assert.equal((await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status, 401);

      const mcp = new Client({ name: 'http', version: '1' });
      await mcp.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer local-secret' } } }));
      const edit = await editedDemoPolicy(client);
      await fs.writeFile(path.join(root, 'loop.testset.jsonl'), `${testCaseLine(LOOP_CASE)}\n`);
      const controller = new AbortController();
      const progress: string[] = [];
      const args = { test_set: 'loop.testset.jsonl', policy_id: DEMO_LOOP_POLICY_ID, content: edit.content };
      const id = confirmationId(await mcp.callTool({ name: 'try_policy_edit', arguments: args }));
      const call = mcp.callTool({ name: 'try_policy_edit', arguments: { ...args, confirmation_id: id } }, undefined, {
        signal: controller.signal,
        onprogress: (p) => {
          progress.push(p.message ?? '');
          controller.abort();
        },
      });
      await assert.rejects(call);
      assert.ok(progress.length > 0, 'progress came before the cancel');
      // The server removes the copies after the cancel: wait for it, bounded.
      for (let i = 0; i < 100 && (await findLeftovers(client)).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(await findLeftovers(client), [], 'the trial copies were removed');
      await mcp.close();
    } finally {
      server.kill('SIGTERM');
    }
  });

  it('serves HTTP without --token-env only to the token it writes to a file only this user can read, printing the path and never the token', async function () {
    if (process.platform === 'win32') this.skip();
    const runtime = await fs.mkdtemp(path.join(root, 'runtime-'));
    const server = spawn(process.execPath, [...TSX, MAIN, 'mcp', '--port', '0', '--root', root], { env: { ...env, XDG_RUNTIME_DIR: runtime }, stdio: ['ignore', 'pipe', 'pipe'] });
    const stderr: string[] = [];
    server.stderr.on('data', (d: Buffer) => stderr.push(d.toString()));
    try {
      const ready = await new Promise<{ url: string; token_file: string }>((resolve, reject) => {
        server.stdout.once('data', (d: Buffer) => resolve(JSON.parse(d.toString().split('\n')[0]!) as { url: string; token_file: string }));
        server.once('exit', () => reject(new Error(`the server ended: ${stderr.join('')}`)));
      });
      assert.ok(ready.token_file.startsWith(runtime), ready.token_file);
      assert.equal((await fs.stat(ready.token_file)).mode & 0o777, 0o600);
      assert.equal((await fs.stat(path.dirname(ready.token_file))).mode & 0o777, 0o700);
      const token = (await fs.readFile(ready.token_file, 'utf8')).trim();
      assert.match(token, /^[\w-]{40,}$/);

      const refused = await fetch(ready.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      assert.equal(refused.status, 401);
      assert.match(refused.headers.get('www-authenticate') ?? '', /^Bearer\b/);
      const mcp = new Client({ name: 'http', version: '1' });
      await mcp.connect(new StreamableHTTPClientTransport(new URL(ready.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      assert.ok((await mcp.listTools()).tools.length > 0);
      await mcp.close();
      assert.ok(stderr.join('').includes(ready.token_file), 'the path is said on stderr');
      assert.ok(!stderr.join('').includes(token), 'the token is not');
    } finally {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    assert.deepEqual(await fs.readdir(runtime), [], 'the token file and its folder are removed when the server stops');
  });

  // Last: publishing moves the loop agent off the demo policy, which the trials above try edits of.
  it('tries an agent version draft from the draft describe_agent answers, and publishes it, asking first each time', async () => {
    const { mcp } = await stdioClient();
    try {
      await fs.writeFile(path.join(root, 'draft.testset.jsonl'), `${testCaseLine(LOOP_CASE)}\n`);
      const lenient = await seedClientOf(t).policies.create({ name: 'Call rules, lenient (MCP)', description: 'made by the user', content: (await editedDemoPolicy(client)).content });
      const described = await mcp.callTool({ name: 'describe_agent', arguments: { agent_id: DEMO_LOOP_AGENT_ID } });
      const draft = (described.structuredContent as { next_version_draft: { engine_config: Record<string, string> } }).next_version_draft;
      const args = { agent_id: DEMO_LOOP_AGENT_ID, draft: { ...draft, engine_config: { ...draft.engine_config, policy_id: lenient.id } }, test_set: 'draft.testset.jsonl' };
      const asked = await mcp.callTool({ name: 'try_agent_draft', arguments: args });
      assert.match(text(asked), /^Not started yet: Try the draft of Support Call QA's next version/);
      const tried = await mcp.callTool({ name: 'try_agent_draft', arguments: { ...args, confirmation_id: confirmationId(asked) } });
      assert.equal((tried.structuredContent as { failing: number }).failing, 0, text(tried));
      assert.deepEqual(await findLeftovers(client), [], 'the copy is gone');
      const trialFile = (tried.structuredContent as { trial_file: string }).trial_file;
      const publish = await mcp.callTool({ name: 'publish_agent_draft', arguments: { trial_file: trialFile } });
      assert.match(text(publish), /^Not started yet: Publish the tried draft/);
      const published = await mcp.callTool({ name: 'publish_agent_draft', arguments: { trial_file: trialFile, confirmation_id: confirmationId(publish) } });
      assert.equal((await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id, (published.structuredContent as { version_id: string }).version_id);
    } finally {
      await mcp.close();
    }
  });
});
