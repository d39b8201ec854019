import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceClient } from '../../../src/core/client';
import { newComparison, serializeComparison } from '../../../src/core/comparison/comparisonRecord';
import { newTrial, serializeTrial } from '../../../src/core/trial/trialRecord';
import { createMcpServer, type McpOptions } from '../../../src/core/mcp/mcpServer';
import { FAILURE_MESSAGES } from '../../../src/sandbox/jobs/lifecycle';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf } from '../trial/trialHelpers';
import { limits } from './toolHelpers';

/** Words that read as tool names: snake_case starting with a verb the tools start with, or another a model might guess. */
function toolLikeNames(text: string, verbs: ReadonlySet<string>): string[] {
  return [...text.matchAll(/\b([a-z]+)(?:_[a-z]+)+\b/g)].filter((m) => verbs.has(m[1]!)).map((m) => m[0]);
}

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

  /** A client connected in process to a new session of a server over the sandbox; `answer`: one that can be asked (elicitation). */
  async function connect(o: Partial<McpOptions> = {}, answer?: 'accept' | 'decline'): Promise<Client> {
    const server = createMcpServer({ context: () => ({ client, root: undefined, user: 'tester' }), limits: () => limits(), readOnly: false, version: '0', log: () => undefined, ...o });
    const mcp = new Client({ name: 'test', version: '1' }, answer ? { capabilities: { elicitation: {} } } : {});
    if (answer) mcp.setRequestHandler(ElicitRequestSchema, () => ({ action: answer }));
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
    await assert.rejects(mcp.callTool({ name: 'list_agents', arguments: {} }), { code: -32602, message: 'MCP error -32602: Unknown tool: list_agents' });
  });

  it('names only tools it has, in every description, field description, answer and its instructions', async () => {
    const mcp = await connect();
    const { tools } = await mcp.listTools();
    const names = new Set(tools.map((tool) => tool.name));
    const verbs = new Set([...tools.map((tool) => tool.name.split('_')[0]!), 'get', 'search', 'show', 'delete', 'update', 'make', 'start', 'write', 'open', 'remove', 'discard']);
    const sources = ['src/core/tools', 'src/core/mcp'].map((dir) => path.resolve(__dirname, '../../..', dir));
    const files = (await Promise.all(sources.map(async (dir) => (await fs.readdir(dir)).map((f) => path.join(dir, f))))).flat();
    const texts: [string, string][] = [
      ...tools.map((tool): [string, string] => [tool.name, JSON.stringify(tool)]),
      ['instructions', mcp.getInstructions() ?? ''],
      ...(await Promise.all(files.map(async (f): Promise<[string, string]> => [path.basename(f), await fs.readFile(f, 'utf8')]))),
    ];
    assert.ok(toolLikeNames('see list_agents', verbs).length === 1, 'the scan finds a tool-like name');
    for (const [where, said] of texts) {
      const unknown = toolLikeNames(said, verbs).filter((name) => !names.has(name));
      assert.deepEqual(unknown, [], `${where} names tools the server does not have`);
    }
  });

  it('gives a failed job’s reason as the service says it, beside its cost', async () => {
    const mcp = await connect();
    const listed = await mcp.callTool({ name: 'list_jobs', arguments: { agent_id: DEMO_LOOP_AGENT_ID, status: 'FAILURE', limit: 3 } });
    const ids = (listed.structuredContent as { jobs: { id: string }[] }).jobs.map((j) => j.id);
    assert.equal(ids.length, 3);
    const read = await mcp.callTool({ name: 'read_jobs', arguments: { job_ids: ids } });
    const jobs = (read.structuredContent as { jobs: { id: string; reason?: string }[] }).jobs;
    const statuses = await client.jobs.statuses(ids);
    for (const job of jobs) {
      const said = statuses.find((s) => s.id === job.id)?.error_message;
      assert.ok(said && FAILURE_MESSAGES.includes(said), job.id);
      assert.equal(job.reason, said);
      assert.match(text(read), new RegExp(`${job.id} · FAILURE · ${said.replace(/[.:]/g, '\\$&')} · cost `));
    }
  });

  it('names the policy an agent applies with its name and current version, not its id alone', async () => {
    const mcp = await connect();
    const described = await mcp.callTool({ name: 'describe_agent', arguments: { agent_id: DEMO_LOOP_AGENT_ID } });
    const policy = await client.policies.get(DEMO_LOOP_POLICY_ID);
    const version = await client.policies.getVersion(policy.id, policy.current_version_id!);
    assert.deepEqual((described.structuredContent as { policy: unknown }).policy, { id: policy.id, name: policy.name, current_version: { id: version.id, name: version.version_name } });
    assert.match(text(described), new RegExp(`applies policy ${policy.name} \\(${policy.id}\\), current version ${version.version_name!.replace(/[:]/g, '\\$&')} \\(${version.id}\\)`));
  });

  it('labels jobs as the Agents view does, by their first telling input line rather than the greeting they all open with', async () => {
    const mcp = await connect();
    const listed = await mcp.callTool({ name: 'list_jobs', arguments: { agent_id: DEMO_LOOP_AGENT_ID, limit: 10 } });
    const jobs = (listed.structuredContent as { jobs: { label: string | null }[] }).jobs;
    assert.ok(!text(listed).includes('Thanks for contacting'), text(listed));
    assert.ok(jobs.every((j) => j.label && !j.label.includes('Thanks for contacting')), JSON.stringify(jobs.map((j) => j.label)));
    assert.ok(new Set(jobs.map((j) => j.label)).size > 1, 'the labels tell the jobs apart');
  });

  it('lists an output schema for every tool, and answers every read, a plan and a decline with structured content the SDK client checks against it', async () => {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'aw-mcp-schemas-')));
    try {
      const comparison = newComparison({ title: 'demo', agentId: DEMO_LOOP_AGENT_ID, testSet: 'x.testset.jsonl', cases: [{ line: 1, tags: [], inputs: { a: '1' } }], targets: [{ id: 'a', label: 'A', kind: 'current' }, { id: 'b', label: 'B', kind: 'current' }] });
      await fs.writeFile(path.join(root, 'x.comparison.json'), serializeComparison(comparison));
      const trial = { ...newTrial({ trialId: 'trial-0001', user: 'tester', policyId: DEMO_LOOP_POLICY_ID, policyName: 'Rules', baseVersionId: null, content: {} }), state: 'discarded' as const, entities: [{ kind: 'policy' as const, name: 'Rules · trial', id: 'p-1', removed: true }] };
      await fs.writeFile(path.join(root, 'x.trial.json'), serializeTrial(trial));
      const mcp = await connect({ context: () => ({ client, root, user: 'tester' }) });
      const { tools } = await mcp.listTools();
      assert.deepEqual(tools.filter((tool) => tool.outputSchema?.type !== 'object').map((tool) => tool.name), [], 'every tool has an object output schema');

      const policy = await client.policies.get(DEMO_LOOP_POLICY_ID);
      const versions = await client.policies.listVersions(DEMO_LOOP_POLICY_ID);
      const datasetId = (await client.datasets.list()).results[0]!.id;
      const failed = (await client.jobs.list(DEMO_LOOP_AGENT_ID, { status_code: 4, page_size: 2 })).results.map((j) => j.id);
      const reads: [string, Record<string, unknown>][] = [
        ['find_agents', {}],
        ['describe_agent', { agent_id: DEMO_LOOP_AGENT_ID }],
        ['list_jobs', { agent_id: DEMO_LOOP_AGENT_ID, limit: 5 }],
        ['read_jobs', { job_ids: [...failed, (await client.jobs.list(DEMO_LOOP_AGENT_ID, { status_code: 3, page_size: 1 })).results[0]!.id, '00000000-0000-4000-8000-00000000dead'] }],
        ['read_policy', {}],
        ['read_policy', { policy_id: policy.id }],
        ['read_policy', { policy_id: policy.id, compare_to: versions.results.at(-1)!.id }],
        ['list_datasets', {}],
        ['list_datasets', { dataset_id: datasetId }],
        ['list_tables', {}],
        ['list_tables', { table_name: 'customers' }],
        ['query_tables', { sql: 'SELECT * FROM customers', max_rows: 2 }],
        ['read_result_file', { path: 'x.comparison.json' }],
        ['read_result_file', { path: 'x.trial.json' }],
      ];
      for (const [name, args] of reads) {
        // The SDK client checks the structured content against the listed schema, and throws when it does not match.
        const answer = await mcp.callTool({ name, arguments: args });
        assert.equal(answer.isError, false, `${name}: ${text(answer)}`);
        assert.ok(answer.structuredContent, name);
      }
      const plan = await mcp.callTool({ name: 'run_agent', arguments: { agent_id: DEMO_LOOP_AGENT_ID, inputs: [{ transcript: 'x', language: 'en' }] } });
      assert.equal((plan.structuredContent as { needs_confirmation?: boolean }).needs_confirmation, true);
      const cancel = await mcp.callTool({ name: 'cancel_jobs', arguments: { job_ids: failed } });
      assert.equal((cancel.structuredContent as { needs_confirmation?: boolean }).needs_confirmation, true);
      const refused = await mcp.callTool({ name: 'describe_agent', arguments: { agent_id: 'no-such-agent' } });
      assert.equal(refused.isError, true);
      assert.equal(refused.structuredContent, undefined, 'an error is said in text, with no data to check');

      const asking = await connect({}, 'decline');
      await asking.listTools();
      const declined = await asking.callTool({ name: 'run_agent', arguments: { agent_id: DEMO_LOOP_AGENT_ID, inputs: [{ transcript: 'x', language: 'en' }] } });
      assert.deepEqual(declined.structuredContent, { declined: true });
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });

  it('reports a comparison’s progress in jobs, each notification a count of final jobs greater than the last, out of the jobs it runs', async () => {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'aw-mcp-progress-')));
    try {
      const mcp = await connect({ context: () => ({ client, root, user: 'tester', pollMs: 20 }) });
      const jobs = (await client.jobs.list(DEMO_LOOP_AGENT_ID, { status_code: 3, page_size: 3 })).results.map((j) => j.id);
      const make = { agent_id: DEMO_LOOP_AGENT_ID, job_ids: jobs, path: 'p.testset.jsonl' };
      const idOf = (answer: unknown): string => (answer as CallToolResult & { structuredContent: { confirmation_id: string } }).structuredContent.confirmation_id;
      await mcp.callTool({ name: 'create_test_set', arguments: { ...make, confirmation_id: idOf(await mcp.callTool({ name: 'create_test_set', arguments: make })) } });
      const compare = { test_set: 'p.testset.jsonl', versions: [(await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id!] };
      const id = idOf(await mcp.callTool({ name: 'run_comparison', arguments: compare }));
      const progress: { progress: number; total?: number; message?: string }[] = [];
      const done = await mcp.callTool({ name: 'run_comparison', arguments: { ...compare, confirmation_id: id } }, undefined, { onprogress: (p) => void progress.push(p) });
      assert.equal(done.isError, false, text(done));
      assert.ok(progress.length > 0, 'progress was reported');
      for (const [n, p] of progress.entries()) {
        assert.ok(Number.isInteger(p.progress), `a whole number of jobs: ${JSON.stringify(progress)}`);
        assert.equal(p.total, 3, 'out of the jobs the comparison runs');
        assert.match(p.message ?? '', new RegExp(`: ${p.progress} of 3 jobs final$`), 'the message says the same count');
        if (n > 0) assert.ok(p.progress > progress[n - 1]!.progress, `each greater than the last: ${JSON.stringify(progress)}`);
      }
      assert.equal(progress.at(-1)!.progress, 3, 'the last says every job is final');
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
