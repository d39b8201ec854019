import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceClient } from '../../../src/core/client';
import {
  DEMO_LOOP_AGENT_ID,
  DEMO_LOOP_DISPOSITION_AFTER,
  DEMO_LOOP_DISPOSITION_BEFORE,
  DEMO_LOOP_INPUTS,
  DEMO_LOOP_POLICY_ID,
  DEMO_LOOP_RULE_TITLE,
} from '../../../src/sandbox/seed/demoLoop';
import { MISSING_ID, type TestSandbox, agentNamed, eventually, startTestSandbox } from './helpers';

describe('sandbox runs: versions, batches, synchronous runs and the engine', () => {
  let t: TestSandbox;
  before(async () => {
    t = await startTestSandbox({ jobStepMs: 20 });
  });
  after(() => t.close());

  const runPath = (agentId = DEMO_LOOP_AGENT_ID) => `/v1/agents/run/${agentId}/async/`;
  const statusOf = async (id: string) => (await t.call('GET', `/v1/agents/jobs/${id}/status/`)).body.status as number;
  const finished = (id: string) => eventually(async () => {
    const status = await statusOf(id);
    return [3, 4, 5, 6].includes(status) ? status : undefined;
  }, 5000, `job ${id} to finish`);
  const resultOf = async (id: string) => (await t.call('GET', `/v1/agents/jobs/${id}/result/`)).body;
  const output = (result: any, key: string) => result.outputs.find((o: any) => o.key === key)?.value;

  it('runs the demo loop to its documented disposition, with the job list agreeing', async () => {
    const id = (await t.call('POST', runPath(), { body: { ...DEMO_LOOP_INPUTS, metadata: { case: 'loop' } } })).body;
    assert.equal(await finished(id), 3);
    const result = await resultOf(id);
    assert.equal(result.agent_id, DEMO_LOOP_AGENT_ID);
    assert.equal(output(result, 'disposition'), DEMO_LOOP_DISPOSITION_BEFORE);
    assert.ok(output(result, 'summary').includes(DEMO_LOOP_RULE_TITLE));
    assert.equal(JSON.parse(output(result, 'policy')).id, DEMO_LOOP_POLICY_ID);
    assert.ok(result.input_tokens > 100 && result.output_tokens > 10);
    const job = (await t.call('GET', `/v1/agents/${DEMO_LOOP_AGENT_ID}/jobs/?page_size=5`)).body.results.find((j: any) => j.id === id);
    assert.equal(job.ui_fields.verdict, DEMO_LOOP_DISPOSITION_BEFORE);
    assert.equal(job.cost, result.outputs[0].cost);
  });

  it('answers the same run from the cache with the same outputs, and misses the cache once the policy changed', async () => {
    const inputs = { ...DEMO_LOOP_INPUTS, language: 'en-GB' };
    const first = (await t.call('POST', runPath(), { body: inputs })).body;
    await finished(first);
    const again = (await t.call('POST', runPath(), { body: inputs })).body;
    assert.equal(await statusOf(again), 6);
    assert.deepEqual((await resultOf(again)).outputs, (await resultOf(first)).outputs);

    const versions = (await t.call('GET', `/v1/policies/${DEMO_LOOP_POLICY_ID}/versions/?ordering=-created_at&page_size=1`)).body.results;
    const content = structuredClone(versions[0].content);
    for (const category of content.guidelines.categories) {
      for (const rule of category.rules) if (rule.title === DEMO_LOOP_RULE_TITLE) rule.flag = 'GREEN_FLAG';
    }
    const saved = await t.call('POST', `/v1/policies/${DEMO_LOOP_POLICY_ID}/versions/`, { body: { content, version_name: 'promises allowed' } });
    assert.equal(saved.status, 201);
    const after = (await t.call('POST', runPath(), { body: inputs })).body;
    assert.notEqual(await statusOf(after), 6, 'a policy change is a cache miss');
    assert.equal(await finished(after), 3);
    const changed = await resultOf(after);
    assert.equal(output(changed, 'disposition'), DEMO_LOOP_DISPOSITION_AFTER);
    assert.equal(JSON.parse(output(changed, 'policy')).version_name, 'promises allowed');
  });

  it('runs a chosen version, and answers 404 for a version of another agent or none', async () => {
    const versions = (await t.call('GET', `/v1/agents/${DEMO_LOOP_AGENT_ID}/versions/`)).body;
    const oldest = versions.at(-1);
    const id = (await t.call('POST', `/v1/agents/run/${DEMO_LOOP_AGENT_ID}/versions/${oldest.id}/async/`, { body: { transcript: 'Agent: old version [ok]' } })).body;
    await finished(id);
    const job = (await t.call('GET', `/v1/agents/${DEMO_LOOP_AGENT_ID}/jobs/?page_size=10`)).body.results.find((j: any) => j.id === id);
    assert.equal(job.agent_version_name, oldest.version_name);
    assert.deepEqual(job.job_inputs.map((i: any) => i.key), ['transcript']);
    const other = await agentNamed(t, 'Refund Request Reviewer');
    assert.equal((await t.call('POST', `/v1/agents/run/${DEMO_LOOP_AGENT_ID}/versions/${other.current_version_id}/async/`, { body: { transcript: 'x' } })).status, 404);
    assert.equal((await t.call('POST', `/v1/agents/run/${DEMO_LOOP_AGENT_ID}/versions/${MISSING_ID}/async/`, { body: { transcript: 'x' } })).status, 404);
    const missing = await t.call('POST', `/v1/agents/run/${DEMO_LOOP_AGENT_ID}/versions/${oldest.id}/async/`, { body: { language: 'en' } });
    assert.deepEqual(missing.body, ['Missing required input: transcript', 'Unknown input "language"; this agent takes transcript.']);
  });

  it('starts a batch of twenty with one request, in order, ignoring metadata', async () => {
    const before = (await t.call('GET', `/v1/agents/${DEMO_LOOP_AGENT_ID}/jobs/?page_size=1`)).body.count;
    const inputs = Array.from({ length: 20 }, (_, i) => ({ transcript: `Agent: batch case ${i} [ok]`, language: 'en', metadata: { i } }));
    const answer = await t.call('POST', `${runPath()}many/`, { body: { inputs } });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.length, 20);
    assert.equal(new Set(answer.body).size, 20);
    const jobs = (await t.call('GET', `/v1/agents/${DEMO_LOOP_AGENT_ID}/jobs/?page_size=100`)).body;
    assert.equal(jobs.count, before + 20);
    const byId = new Map(jobs.results.map((j: any) => [j.id, j]));
    answer.body.forEach((id: string, i: number) => {
      const job: any = byId.get(id);
      assert.equal(job.job_inputs[0].value, `Agent: batch case ${i} [ok]`);
      assert.deepEqual(job.metadata, {});
    });
  });

  it('refuses a batch with a bad input set whole, naming the set, and starts nothing', async () => {
    const count = async () => (await t.call('GET', `/v1/agents/${DEMO_LOOP_AGENT_ID}/jobs/?page_size=1`)).body.count;
    const before = await count();
    const many = (body: unknown) => t.call('POST', `${runPath()}many/`, { body });
    const bad = await many({ inputs: [{ transcript: 'fine', language: 'en' }, { language: 'en' }, 'text', { transcript: 5, language: 'en' }] });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, [
      'Input set 2: Missing required input: transcript',
      'Input set 3: must be a JSON object with one property per input key.',
      'Input set 4: Input "transcript" must be a string.',
    ]);
    assert.deepEqual((await many({})).body, { inputs: ['This field is required.'] });
    assert.deepEqual((await t.call('POST', `${runPath()}many/`)).body, { inputs: ['This field is required.'] });
    assert.deepEqual((await many([1])).body, { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
    assert.deepEqual((await many({ inputs: [] })).body, { inputs: ['This list may not be empty.'] });
    assert.deepEqual((await many({ inputs: 'x' })).body, { inputs: ['Expected a list of items but got type "str".'] });
    assert.equal((await t.call('POST', `/v1/agents/run/${MISSING_ID}/async/many/`, { body: { inputs: [{ transcript: 'x', language: 'en' }] } })).status, 404);
    assert.equal(await count(), before);
  });

  it('runs synchronously and answers the outputs of a finished job', async () => {
    const answer = await t.call('POST', `/v1/agents/run/${DEMO_LOOP_AGENT_ID}/`, { body: { transcript: 'Agent: this call may be recorded. sync', language: 'en', metadata: '{"via":"sync"}' } });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.map((o: any) => o.key), ['disposition', 'summary', 'matched_rules', 'policy', 'evidence_data']);
    assert.ok(answer.body.every((o: any) => typeof o.value === 'string' && typeof o.cost === 'number'));
    assert.deepEqual((await t.call('POST', `/v1/agents/run/${DEMO_LOOP_AGENT_ID}/`, { body: { language: 'en', metadata: null } })).body, ['Missing required input: transcript']);
  });

  it('reads the text of a file input sent as a streamed form, and keeps the name and digest of any file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-run-file-'));
    const client = new ServiceClient({ baseUrl: t.baseUrl, token: t.token, organizationId: t.orgId });
    try {
      const file = path.join(dir, 'call.txt');
      fs.writeFileSync(file, `${DEMO_LOOP_INPUTS.transcript}\n${'Customer: filler line of a long call.\n'.repeat(2000)}`);
      const id = await client.agents.run(DEMO_LOOP_AGENT_ID, { inputs: { transcript: { file }, language: 'en' }, metadata: { source: 'file' } });
      await finished(id);
      const result = await client.jobs.result(id);
      const matched = JSON.parse(result.outputs.find((o) => o.key === 'matched_rules')?.value ?? '[]') as { input: string; evidence: string }[];
      assert.ok(matched.some((m) => m.input === 'transcript' && m.evidence.includes('confirm your postcode')), JSON.stringify(matched));
      const transcript = (result.inputs as any[]).find((i) => i.key === 'transcript');
      assert.equal(transcript.file_name, 'call.txt');
      assert.match(transcript.value, /^sha256:[0-9a-f]{64}$/);
      assert.ok((result.input_tokens ?? 0) > 15_000, 'the engine read the whole file');
      const scan = path.join(dir, 'scan.bin');
      const bytes = Buffer.alloc(24 * 1024 * 1024, 7);
      fs.writeFileSync(scan, bytes);
      const binary = await client.agents.run(DEMO_LOOP_AGENT_ID, { inputs: { transcript: { file: scan, filename: 'scan.pdf' }, language: 'en' } });
      await finished(binary);
      const sent = ((await client.jobs.result(binary)).inputs as any[]).find((i) => i.key === 'transcript');
      assert.equal(sent.file_name, 'scan.pdf');
      assert.equal(sent.value, `sha256:${createHash('sha256').update(bytes).digest('hex')}`);
      const badMeta = await t.call('POST', runPath(), { rawBody: formWith({ transcript: 'x', language: 'en', metadata: '{not json' }), headers: {} });
      assert.deepEqual(badMeta.body, ['"metadata" must be a JSON object.']);
    } finally {
      await client.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

function formWith(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
}
