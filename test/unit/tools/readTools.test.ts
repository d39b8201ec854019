import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { ServiceClient } from '../../../src/core/client';
import { newComparison, serializeComparison } from '../../../src/core/comparison/comparisonRecord';
import { TOOLS, toolJsonSchema, type ToolContext } from '../../../src/core/tools';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_AGENT_NAME, DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf } from '../trial/trialHelpers';
import { call, ok, toolContext } from './toolHelpers';

describe('The tool catalogue: reads (against the in-process sandbox)', function () {
  this.timeout(60_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let ctx: ToolContext;
  before(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
    ctx = await toolContext(client);
  });
  after(async () => {
    await client.close();
    await t.close();
    await fs.rm(ctx.root!, { recursive: true, force: true });
  });

  it('gives every tool a unique name, a description that says what it costs, and a valid JSON Schema that takes no field it does not name', () => {
    const ajv = new Ajv2020({ strict: false });
    assert.equal(new Set(TOOLS.map((tool) => tool.name)).size, TOOLS.length);
    for (const tool of TOOLS) {
      const schema = toolJsonSchema(tool);
      assert.equal(schema.type, 'object', tool.name);
      assert.equal(schema.additionalProperties, false, `${tool.name} refuses unknown fields`);
      assert.doesNotThrow(() => ajv.compile(schema), tool.name);
      assert.match(tool.description, /cost|paid|changes/i, `${tool.name} says what it costs`);
      if (tool.kind !== 'read') assert.ok(typeof tool.plan === 'function', `${tool.name} plans first`);
      assert.ok(!('confirm' in (schema.properties as Record<string, unknown>)), `${tool.name} takes no confirm: the user confirms, not the input`);
    }
  });

  it('finds the demo agent by a word of its name and describes its versions and inputs', async () => {
    const found = ok(await call(ctx, 'find_agents', { search: 'Support Call' }));
    assert.match(found.text, new RegExp(DEMO_LOOP_AGENT_ID));
    const described = ok(await call(ctx, 'describe_agent', { agent_id: DEMO_LOOP_AGENT_ID }));
    assert.match(described.text, new RegExp(`${DEMO_LOOP_AGENT_NAME}[\\s\\S]*Current version[\\s\\S]*Inputs: `));
    assert.equal(described.data.policy_id, DEMO_LOOP_POLICY_ID);
  });

  it('lists failed jobs of an agent and reads them in bulk with outputs and cost', async () => {
    const listed = ok(await call(ctx, 'list_jobs', { agent_id: DEMO_LOOP_AGENT_ID, limit: 5 }));
    const jobs = listed.data.jobs as { id: string }[];
    assert.ok(jobs.length > 0 && jobs.length <= 5);
    const read = ok(await call(ctx, 'read_jobs', { job_ids: [...jobs.map((j) => j.id), '00000000-0000-4000-8000-00000000dead'] }));
    assert.equal((read.data.jobs as unknown[]).length, jobs.length);
    assert.deepEqual(read.data.missing, ['00000000-0000-4000-8000-00000000dead']);
    assert.match(read.text, /no such job: 00000000-0000-4000-8000-00000000dead/);
  });

  it('reads a policy version and says what differs from another version', async () => {
    const policy = ok(await call(ctx, 'read_policy', { policy_id: DEMO_LOOP_POLICY_ID }));
    assert.match(policy.text, /current/);
    const same = ok(await call(ctx, 'read_policy', { policy_id: DEMO_LOOP_POLICY_ID, compare_to: policy.data.version_id }));
    assert.match(same.text, /no difference/);
    assert.match(ok(await call(ctx, 'read_policy', {})).text, /polic/);
  });

  it('lists datasets and their files, tables and their columns, and answers a read-only query with a row limit', async () => {
    const sets = ok(await call(ctx, 'list_datasets', {}));
    const first = (sets.data.datasets as { id: string }[])[0]!;
    assert.ok(ok(await call(ctx, 'list_datasets', { dataset_id: first.id })).data.files);
    assert.match(ok(await call(ctx, 'list_tables', {})).text, /customers/);
    assert.match(ok(await call(ctx, 'list_tables', { table_name: 'customers' })).text, /Columns: /);
    const rows = ok(await call(ctx, 'query_tables', { sql: 'SELECT * FROM customers', max_rows: 2 }));
    assert.equal((rows.data.rows as unknown[]).length, 2);
    const refused = await call(ctx, 'query_tables', { sql: 'DELETE FROM customers' });
    assert.ok(refused.isError);
    assert.match(refused.text, /only one SELECT or WITH/);
  });

  it("summarizes a comparison file of the folder, and refuses a path that leads out of it or through a link", async () => {
    const record = newComparison({ title: 'demo', agentId: DEMO_LOOP_AGENT_ID, testSet: 'x.testset.jsonl', cases: [{ line: 1, tags: [], inputs: { a: '1' } }], targets: [{ id: 'a', label: 'A', kind: 'current' }, { id: 'b', label: 'B', kind: 'current' }] });
    await fs.writeFile(path.join(ctx.root!, 'x.comparison.json'), serializeComparison(record));
    assert.match(ok(await call(ctx, 'read_result_file', { path: 'x.comparison.json' })).text, /### demo/);
    const out = await call(ctx, 'read_result_file', { path: '../etc/passwd' });
    assert.ok(out.isError);
    assert.match(out.text, /leads out of the workspace folder/);
    await fs.symlink('/etc', path.join(ctx.root!, 'link'));
    const linked = await call(ctx, 'read_result_file', { path: 'link/x.comparison.json' });
    assert.match(linked.text, /through a link/);
    await fs.symlink(path.join(ctx.root!, 'gone'), path.join(ctx.root!, 'dangling.comparison.json'));
    assert.match((await call(ctx, 'read_result_file', { path: 'dangling.comparison.json' })).text, /link to nothing/);
  });

  it('answers input its schema refuses with the field, and an unknown id with "No such agent", never a stack trace', async () => {
    const bad = await call(ctx, 'describe_agent', { agent: 'x' });
    assert.ok(bad.isError);
    assert.match(bad.text, /`agent_id`/);
    const unknown = await call(ctx, 'describe_agent', { agent_id: '00000000-0000-4000-8000-000000000000' });
    assert.ok(unknown.isError);
    assert.match(unknown.text, /^No such agent/);
    assert.doesNotMatch(unknown.text, /\n\s+at /);
  });
});
