import * as assert from 'node:assert/strict';
import { MISSING_ID, type TestSandbox, agentNamed, eventually, startTestSandbox } from './helpers';

describe('sandbox jobs: running, status and lifecycle', () => {
  let t: TestSandbox;
  let qa: any;
  before(async () => {
    t = await startTestSandbox({ jobStepMs: 30 });
    qa = await agentNamed(t, 'Support Call QA');
  });
  after(() => t.close());

  const run = (body: unknown, agentId = qa.id) => t.call('POST', `/v1/agents/run/${agentId}/async/`, { body });
  const statusOf = async (id: string) => (await t.call('GET', `/v1/agents/jobs/${id}/status/`)).body;
  const jobOf = async (id: string) => (await t.call('GET', `/v1/agents/${qa.id}/jobs/?job_id=${id}`)).body.results[0];
  const finalStatus = (id: string) =>
    eventually(async () => {
      const s = await statusOf(id);
      return [3, 4, 5, 6].includes(s.status) ? s : undefined;
    }, 5000, `job ${id} to finish`);

  it('starts a job with 200 and its id as a bare JSON string', async () => {
    const answer = await run({ transcript: 'Agent: hello [ok] 1', language: 'en', metadata: { customer: 'Initech' } });
    assert.equal(answer.status, 200);
    assert.equal(typeof answer.body, 'string');
    assert.match(answer.text, /^"[0-9a-f-]{36}"$/);
  });

  it('answers run validation errors as a bare array of messages', async () => {
    const missing = await run({ language: 'en' });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, ['Missing required input: transcript']);
    const several = await run({ transcript: ' ', language: 5, extra: 'x', metadata: [1] });
    assert.deepEqual(several.body, [
      'Input "language" must be a string.',
      'Missing required input: transcript',
      'Unknown input "extra"; this agent takes transcript, language.',
      '"metadata" must be a JSON object.',
    ]);
    const notObject = await run(['transcript']);
    assert.deepEqual(notObject.body, ['The request body must be a JSON object with one property per input key.']);
    assert.equal((await run({ transcript: 'x', language: 'en' }, MISSING_ID)).status, 404);
  });

  it('moves a job from PENDING through STARTED to SUCCESS, with timestamped events', async () => {
    const id = (await run({ transcript: 'Agent: hello [ok] lifecycle', language: 'en' })).body;
    const first = await statusOf(id);
    assert.ok([0, 1].includes(first.status), 'still running right after the start');
    assert.equal(first.error_message, undefined);
    const done = await finalStatus(id);
    assert.equal(done.status, 3);
    assert.equal(typeof done.timestamp, 'number');
    assert.ok(Math.abs(done.timestamp - Date.now() / 1000) < 60, 'Unix seconds, not milliseconds');
    const job = await jobOf(id);
    assert.deepEqual(job.status_events.map((e: any) => e.status_code), [0, 1, 3]);
    assert.ok(job.status_events.every((e: any, i: number, all: any[]) => i === 0 || e.timestamp >= all[i - 1].timestamp));
    assert.equal(job.agent_version_name, 'v4 – recording disclosure');
    assert.equal(typeof job.duration_ms, 'number');
    assert.ok(job.ui_fields.verdict);
    assert.deepEqual(job.job_inputs.map((i: any) => [i.key, i.data_type]), [['transcript', 'text/plain'], ['language', 'text/plain']]);
  });

  it('goes through RETRY with an error message before finishing, and FAILURE carries its error', async () => {
    const retried = (await run({ transcript: 'Agent: [retry] then fine [ok-ish]', language: 'de' })).body;
    const failing = (await run({ transcript: 'Agent: this one will [fail]', language: 'fr' })).body;
    const failed = await finalStatus(failing);
    assert.equal(failed.status, 4);
    assert.ok(failed.error_message.length > 0);
    await finalStatus(retried);
    const events = (await jobOf(retried)).status_events;
    const retry = events.find((e: any) => e.status_code === 2);
    assert.ok(retry.error_message);
    assert.deepEqual(retry.error_details, { attempt: 1 });
    assert.equal(events.filter((e: any) => e.status_code === 1).pop().count, 2);
  });

  it('answers a repeated run from the cache at once (CACHED), unless the agent disables its cache', async () => {
    const inputs = { transcript: 'Agent: cache me [ok]', language: 'en' };
    await finalStatus((await run(inputs)).body);
    const cached = (await run(inputs)).body;
    assert.equal((await statusOf(cached)).status, 6);
    const detector = await agentNamed(t, 'Chat Escalation Detector');
    const again = { transcript: 'Customer: supervisor please [ok]', language: 'en' };
    const first = (await run(again, detector.id)).body;
    await finalStatus(first);
    const second = (await run(again, detector.id)).body;
    assert.notEqual((await statusOf(second)).status, 6);
  });

  it('cancels a running job with 204 and refuses to cancel a finished one with 409', async () => {
    const slow = await startTestSandbox({ jobStepMs: 60_000 });
    try {
      const agent = await agentNamed(slow, 'Support Call QA');
      const id = (await slow.call('POST', `/v1/agents/run/${agent.id}/async/`, { body: { transcript: 'x', language: 'en' } })).body;
      const cancel = await slow.call('POST', `/v1/agents/jobs/${id}/cancel/`);
      assert.equal(cancel.status, 204);
      assert.equal(cancel.text, '');
      assert.equal((await slow.call('GET', `/v1/agents/jobs/${id}/status/`)).body.status, 5);
      const again = await slow.call('POST', `/v1/agents/jobs/${id}/cancel/`);
      assert.equal(again.status, 409);
      assert.ok(again.body.error);
      assert.equal((await slow.call('POST', `/v1/agents/jobs/${MISSING_ID}/cancel/`)).status, 404);
    } finally {
      await slow.close();
    }
  });

  it('answers many statuses at once, in the order asked, leaving out unknown ids', async () => {
    const a = (await run({ transcript: 'Agent: statuses a [ok]', language: 'en' })).body;
    const b = (await run({ transcript: 'Agent: statuses b [ok]', language: 'en' })).body;
    const answer = await t.call('POST', '/v1/agents/jobs/statuses/', { body: { job_ids: [b, MISSING_ID, a.toUpperCase(), b] } });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.map((s: any) => s.id), [b, a]);
    for (const key of ['id', 'status', 'created_at', 'last_updated_at', 'timestamp', 'error_message']) assert.ok(key in answer.body[0], key);
  });

  it('validates the statuses request: a non-empty list of at most 1000 UUIDs', async () => {
    const statuses = (body: unknown) => t.call('POST', '/v1/agents/jobs/statuses/', { body });
    assert.deepEqual((await statuses({})).body, { job_ids: ['This field is required.'] });
    assert.deepEqual((await statuses({ job_ids: [] })).body, { job_ids: ['This list may not be empty.'] });
    assert.deepEqual((await statuses({ job_ids: 'x' })).body, { job_ids: ['Expected a list of items but got type "str".'] });
    assert.deepEqual((await statuses({ job_ids: [MISSING_ID, 'nope', 3] })).body, { job_ids: { 1: ['Must be a valid UUID.'], 2: ['Must be a valid UUID.'] } });
    const many = Array.from({ length: 1001 }, () => MISSING_ID);
    assert.deepEqual((await statuses({ job_ids: many })).body, { job_ids: ['Ensure this field has no more than 1000 elements.'] });
  });

  it('moves the seeded running jobs to a final state once the sandbox runs', async () => {
    const running = async () => (await t.call('GET', `/v1/agents/${qa.id}/jobs/?status_code=0,1,2`)).body.count;
    await eventually(async () => ((await running()) === 0 ? true : undefined), 5000, 'seeded jobs to finish');
  });

  it('counts new jobs in the agent statistics', async () => {
    const before = (await t.call('GET', `/v1/agents/${qa.id}/`)).body;
    await run({ transcript: 'Agent: count me [ok]', language: 'en' });
    const after = (await t.call('GET', `/v1/agents/${qa.id}/`)).body;
    assert.equal(after.job_count, before.job_count + 1);
    assert.ok(after.most_recent_job > before.most_recent_job);
  });

  it('takes file inputs as multipart and records their names and hashes, keeping no bytes', async () => {
    const invoice = await agentNamed(t, 'Invoice Classifier');
    const form = new FormData();
    form.set('language', 'en');
    form.set('metadata', JSON.stringify({ batch: '7' }));
    form.set('document', new Blob(['%PDF-1.4 test']), 'scan.pdf');
    const answer = await t.call('POST', `/v1/agents/run/${invoice.id}/async/`, { rawBody: form });
    assert.equal(answer.status, 200, answer.text);
    const job = (await t.call('GET', `/v1/agents/${invoice.id}/jobs/?job_id=${answer.body}`)).body.results[0];
    const document = job.job_inputs.find((i: any) => i.key === 'document');
    assert.equal(document.file_name, 'scan.pdf');
    assert.match(document.value, /^sha256:[0-9a-f]{64}$/);
    assert.deepEqual(job.metadata, { batch: '7' });
  });
});
