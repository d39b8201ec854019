import * as assert from 'node:assert/strict';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_INPUTS } from '../../../src/sandbox/seed/demoLoop';
import { MISSING_ID, OTHER_ORGANIZATION_ID, OTHER_TOKEN, type TestSandbox, agentNamed, eventually, startTestSandbox } from './helpers';

describe('sandbox results, cancel all, discovery and the current user', () => {
  let t: TestSandbox;
  let slow: TestSandbox;
  before(async () => {
    t = await startTestSandbox({ jobStepMs: 20 });
    slow = await startTestSandbox({ jobStepMs: 60_000 });
  });
  after(async () => {
    await t.close();
    await slow.close();
  });

  const run = (s: TestSandbox, transcript: string) => s.call('POST', `/v1/agents/run/${DEMO_LOOP_AGENT_ID}/async/`, { body: { transcript, language: 'en' } });
  const finished = (id: string) => eventually(async () => {
    const status = (await t.call('GET', `/v1/agents/jobs/${id}/status/`)).body.status as number;
    return [3, 4, 5, 6].includes(status) ? status : undefined;
  }, 5000, `job ${id} to finish`);
  const results = (s: TestSandbox, ids: unknown, token?: string) => s.call('POST', '/v1/agents/jobs/results/', { body: { job_ids: ids }, token });

  it('answers 500 with no body for a job without result data, and 404 for no such job', async () => {
    const running = (await run(slow, 'Agent: still going')).body;
    const answer = await slow.call('GET', `/v1/agents/jobs/${running}/result/`);
    assert.equal(answer.status, 500);
    assert.equal(answer.text, '');
    const failed = (await run(t, 'Agent: this one will [fail]')).body;
    assert.equal(await finished(failed), 4);
    assert.equal((await t.call('GET', `/v1/agents/jobs/${failed}/result/`)).status, 500);
    assert.equal((await t.call('GET', `/v1/agents/jobs/${MISSING_ID}/result/`)).status, 404);
  });

  it('answers many results in the order asked, leaving out unknown ids, with corrected outputs where a reviewer corrected the verdict', async () => {
    const done = (await run(t, 'Agent: results [ok]')).body;
    await finished(done);
    const jobs = (await t.call('GET', `/v1/agents/${DEMO_LOOP_AGENT_ID}/jobs/?page_size=200`)).body.results;
    const reviewed = jobs.find((j: any) => j.feedback_review?.corrected_verdict && j.status_code === 3);
    assert.ok(reviewed, 'the demo has a job with a corrected verdict');
    const answer = await results(t, [reviewed.id, MISSING_ID, done.toUpperCase(), done]);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.map((r: any) => r.id), [reviewed.id, done]);
    const [seeded, fresh] = answer.body;
    for (const key of ['id', 'status', 'result', 'corrected_outputs', 'agent_id', 'agent_version_id', 'cost', 'inputs', 'input_tokens', 'output_tokens']) assert.ok(key in fresh, key);
    assert.equal(fresh.status, 3);
    assert.equal(fresh.corrected_outputs, null);
    assert.equal(fresh.result.find((o: any) => o.key === 'disposition').value, (await t.call('GET', `/v1/agents/jobs/${done}/result/`)).body.outputs[0].value);
    assert.equal(seeded.result.find((o: any) => o.key === 'disposition').value, reviewed.ui_fields.verdict);
    assert.deepEqual(seeded.result.map((o: any) => o.key), ['disposition', 'summary', 'matched_rules', 'policy', 'evidence_data'], 'the demo history was judged by the engine');
    assert.ok(seeded.input_tokens > 0);
    assert.equal(seeded.corrected_outputs.find((o: any) => o.key === 'disposition').value, reviewed.feedback_review.corrected_verdict);
  });

  it('answers an artifact the outputs name under evidence_data with only its result, and 400 or 404 otherwise', async () => {
    const id = (await run(t, 'Agent: this call may be recorded. Artifacts please')).body as string;
    assert.equal(await finished(id), 3);
    const outputs = (await t.call('GET', `/v1/agents/jobs/${id}/result/`)).body.outputs as { key: string; value: string }[];
    const key = (JSON.parse(outputs.find((o) => o.key === 'evidence_data')!.value) as { rule_checks: string }).rule_checks;
    assert.equal(key, `agent-job-${id}/rule_checks.json`);
    const path = `/v1/agents/jobs/${id}/artifacts/result/`;
    const answer = await t.call('GET', `${path}?artifact_key=${encodeURIComponent(key)}`);
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(Object.keys(answer.body), ['result']);
    assert.ok(answer.body.result.rules.some((r: { matched: boolean }) => r.matched));
    assert.ok(!JSON.stringify((await results(t, [id])).body).includes('"artifacts"'), 'the results never carry the artifacts themselves');
    assert.equal((await t.call('GET', path)).status, 400);
    assert.equal((await t.call('GET', `${path}?artifact_key=agent-job-${id}/other.json`)).status, 404);
    assert.equal((await t.call('GET', `${path}?artifact_key=__proto__`)).status, 404);
    assert.equal((await t.call('GET', `/v1/agents/jobs/${MISSING_ID}/artifacts/result/?artifact_key=${encodeURIComponent(key)}`)).status, 404);
  });

  it('validates the results request like the statuses request', async () => {
    assert.deepEqual((await t.call('POST', '/v1/agents/jobs/results/', { body: {} })).body, { job_ids: ['This field is required.'] });
    assert.deepEqual((await results(t, [])).body, { job_ids: ['This list may not be empty.'] });
    assert.deepEqual((await results(t, ['x'])).body, { job_ids: { 0: ['Must be a valid UUID.'] } });
  });

  it('cancels every job of an agent that has not finished, and says how many', async () => {
    const agent = await agentNamed(slow, 'Support Call QA');
    await run(slow, 'Agent: cancel me 1');
    await run(slow, 'Agent: cancel me 2');
    const running = (await slow.call('GET', `/v1/agents/${agent.id}/jobs/?page_size=500`)).body.results.filter((j: any) => [0, 1, 2].includes(j.status_code));
    assert.ok(running.length >= 2);
    const answer = await slow.call('POST', `/v1/agents/${agent.id}/jobs/cancel-all/`);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { task_id: null, targeted_count: running.length, note: `Cancelled ${running.length} jobs that had not finished.` });
    const after = (await slow.call('POST', '/v1/agents/jobs/statuses/', { body: { job_ids: running.map((j: any) => j.id) } })).body;
    assert.ok(after.every((s: any) => s.status === 5));
    assert.equal((await slow.call('POST', `/v1/agents/${agent.id}/jobs/cancel-all/`)).body.targeted_count, 0);
    assert.equal((await slow.call('POST', `/v1/agents/${MISSING_ID}/jobs/cancel-all/`)).status, 404);
  });

  it('describes the engines a new agent may use', async () => {
    const answer = await t.call('GET', '/v1/agents/types/');
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.engine_types, ['llm_conversation_reviewer', 'document_classifier', 'structured_extractor']);
    assert.equal(answer.body.total_count, 3);
    const reviewer = answer.body.engines[0];
    assert.equal(reviewer.engine_class_id, 'llm_conversation_reviewer');
    assert.ok(reviewer.description);
    assert.deepEqual(reviewer.input_schema.required, ['transcript']);
    assert.equal(reviewer.default_engine_config.model, 'gpt-4o-mini');
  });

  it('lists models, narrowed by a capability, and rejects an unknown capability', async () => {
    const all = (await t.call('GET', '/v1/agents/models/')).body;
    assert.equal(all.total_count, all.models.length);
    assert.ok(all.models.some((m: any) => m.id === 'gpt-4o-mini'));
    const video = (await t.call('GET', '/v1/agents/models/?capability=video')).body;
    assert.ok(video.models.length > 0 && video.models.length < all.models.length);
    assert.ok(video.models.every((m: any) => m.capabilities.includes('video')));
    assert.deepEqual((await t.call('GET', '/v1/agents/models/?capability=smell')).body, { capability: ['Select a valid choice. smell is not one of the available choices.'] });
  });

  it('says who the token belongs to, without an organization, and nothing without a token', async () => {
    const me = await t.call('GET', '/v1/users/current_user/', { org: null });
    assert.equal(me.status, 200);
    assert.deepEqual([me.body.id, me.body.email, me.body.display_name], [1, 'dana.whitfield@acme-support.example', 'Dana Whitfield']);
    assert.equal((await t.call('GET', '/v1/users/current_user/', { org: null, token: OTHER_TOKEN })).body.email === me.body.email, false);
    assert.equal((await t.call('GET', '/v1/users/current_user/', { token: null })).status, 401);
    assert.equal((await t.call('GET', '/v1/agents/types/', { token: null })).status, 401);
  });

  describe('between organizations', () => {
    const globex = (method: string, path: string, body?: unknown) => t.call(method, path, { body, token: OTHER_TOKEN, org: OTHER_ORGANIZATION_ID });
    const globexInAcme = (method: string, path: string, body?: unknown) => t.call(method, path, { body, token: OTHER_TOKEN });

    it('lets no organization run, cancel or read the results of the other\'s agents and jobs', async () => {
      const acmeJob = (await run(t, 'Agent: mine [ok]')).body;
      await finished(acmeJob);
      const globexAgent = (await globex('GET', '/v1/agents/')).body.results[0];
      const globexJob = (await globex('POST', `/v1/agents/run/${globexAgent.id}/async/`, { transcript: 'Dispatch: rest break scheduled' })).body;
      assert.equal(typeof globexJob, 'string', JSON.stringify(globexJob));
      const acmeVersion = (await t.call('GET', `/v1/agents/${DEMO_LOOP_AGENT_ID}/`)).body.current_version_id;
      for (const [call, agentId, versionId, jobId] of [
        [globex, DEMO_LOOP_AGENT_ID, acmeVersion, acmeJob],
        [(m: string, p: string, b?: unknown) => t.call(m, p, { body: b }), globexAgent.id, globexAgent.current_version_id, globexJob],
      ] as const) {
        assert.equal((await call('POST', `/v1/agents/run/${agentId}/async/`, DEMO_LOOP_INPUTS)).status, 404);
        assert.equal((await call('POST', `/v1/agents/run/${agentId}/versions/${versionId}/async/`, DEMO_LOOP_INPUTS)).status, 404);
        assert.equal((await call('POST', `/v1/agents/run/${agentId}/async/many/`, { inputs: [DEMO_LOOP_INPUTS] })).status, 404);
        assert.equal((await call('POST', `/v1/agents/run/${agentId}/`, DEMO_LOOP_INPUTS)).status, 404);
        assert.equal((await call('POST', `/v1/agents/${agentId}/jobs/cancel-all/`)).status, 404);
        assert.equal((await call('GET', `/v1/agents/jobs/${jobId}/result/`)).status, 404);
        assert.deepEqual((await call('POST', '/v1/agents/jobs/results/', { job_ids: [jobId] })).body, []);
      }
      assert.equal((await globexInAcme('POST', `/v1/agents/run/${DEMO_LOOP_AGENT_ID}/async/`, DEMO_LOOP_INPUTS)).status, 403);
      assert.equal((await globexInAcme('POST', '/v1/agents/jobs/results/', { job_ids: [acmeJob] })).status, 403);
      assert.equal((await globexInAcme('GET', '/v1/agents/models/')).status, 403);
    });
  });

  it('keeps the demo\'s running jobs running for many steps, then ends them with the engine\'s disposition', async () => {
    // The sandbox's own clock, moved step by step: what this asserts does not depend on how busy the machine is.
    let time = Date.parse('2026-11-27T09:00:00Z');
    const step = 1500;
    const paced = await startTestSandbox({ jobStepMs: step, clock: { now: () => time } });
    const steps = (n: number): void => {
      for (let i = 0; i < n; i++) {
        time += step;
        paced.sandbox.advanceJobs();
      }
    };
    try {
      const jobs = async () => (await paced.call('GET', `/v1/agents/${DEMO_LOOP_AGENT_ID}/jobs/?page_size=500`)).body.results as any[];
      const running = (await jobs()).filter((j) => [0, 1, 2].includes(j.status_code)).map((j) => j.id as string);
      assert.ok(running.length >= 3);
      steps(8);
      const soon = await paced.call('POST', '/v1/agents/jobs/statuses/', { body: { job_ids: running } });
      assert.ok(soon.body.every((s: any) => [0, 1, 2].includes(s.status)), 'still running after eight steps');
      let ended: any[] | undefined;
      for (let i = 0; i < 60 && !ended; i++) {
        steps(1);
        const now = (await jobs()).filter((j) => running.includes(j.id));
        if (now.every((j) => [3, 4].includes(j.status_code))) ended = now;
      }
      assert.ok(ended, 'the demo jobs end within 60 more steps');
      for (const job of ended.filter((j) => j.status_code === 3)) {
        const result = (await paced.call('GET', `/v1/agents/jobs/${job.id}/result/`)).body;
        assert.equal(result.outputs[0].value, job.ui_fields.verdict);
        assert.equal(result.outputs.length, 5);
      }
    } finally {
      await paced.close();
    }
  });
});
