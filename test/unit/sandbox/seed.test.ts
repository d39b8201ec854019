import * as assert from 'node:assert/strict';
import { type TestSandbox, startTestSandbox } from './helpers';

describe('sandbox seeds', () => {
  let t: TestSandbox;
  let agents: any[];
  before(async () => {
    t = await startTestSandbox({ jobStepMs: 60_000 });
    agents = (await t.call('GET', '/v1/agents/?page_size=100')).body.results;
  });
  after(() => t.close());

  const allJobs = async () => {
    const jobs: any[] = [];
    for (const agent of agents) jobs.push(...(await t.call('GET', `/v1/agents/${agent.id}/jobs/?page_size=1000`)).body.results);
    return jobs;
  };

  it('gives the demo organization agents of several engines, each with versions and real-looking configuration', async () => {
    assert.equal((await t.call('GET', `/v1/agents/?page_size=1`)).body.count, 7);
    assert.ok(new Set(agents.map((a) => a.engine_class_id)).size >= 2);
    const qa = agents.find((a) => a.name === 'Support Call QA');
    const versions = (await t.call('GET', `/v1/agents/${qa.id}/versions/`)).body;
    assert.ok(versions.length >= 3);
    const current = versions[0];
    assert.deepEqual(current.input_definitions.map((d: any) => [d.key, d.data_type]), [['transcript', 'text/plain'], ['language', 'text/plain']]);
    assert.ok(['model', 'temperature', 'system_prompt', 'policy_id'].every((k) => typeof current.engine_config[k] === 'string'));
    assert.equal((await t.call('GET', `/v1/policies/${current.engine_config.policy_id}/`)).status, 200);
    const invoice = agents.find((a) => a.name === 'Invoice Classifier');
    const definitions = (await t.call('GET', `/v1/agents/${invoice.id}/versions/current/`)).body.input_definitions;
    assert.equal(definitions[0].data_type, 'application/pdf');
  });

  it('has several hundred jobs over all seven statuses, with evaluations, reviews, metadata and durations', async () => {
    const jobs = await allJobs();
    assert.ok(jobs.length >= 300, `${jobs.length} jobs`);
    assert.deepEqual([...new Set(jobs.map((j) => j.status_code))].sort(), [0, 1, 2, 3, 4, 5, 6]);
    const scores = jobs.filter((j) => j.evaluation).map((j) => j.evaluation.grader_score);
    assert.ok(scores.length > 30 && scores.some((s) => !Number.isInteger(s)));
    assert.deepEqual([...new Set(jobs.filter((j) => j.feedback_review).map((j) => j.feedback_review.review_status))].sort(), ['approved', 'pending', 'rejected']);
    assert.ok(jobs.every((j) => j.metadata.customer && j.metadata.channel && j.metadata.region));
    assert.ok(jobs.filter((j) => j.status_code === 3).every((j) => j.duration_ms > 0 && j.status_events.length >= 3));
    const failed = jobs.find((j) => j.status_code === 4);
    assert.ok(failed.status_events.at(-1).error_message);
  });

  it('has at least three policies with guidelines, dispositions, instructions and templates in several versions', async () => {
    const policies = (await t.call('GET', '/v1/policies/')).body.results;
    assert.ok(policies.length >= 3);
    const rich = policies.filter((p: any) => p.name !== 'Social Media Escalation Playbook');
    for (const policy of rich) {
      const versions = (await t.call('GET', `/v1/policies/${policy.id}/versions/`)).body.results;
      assert.ok(versions.length >= 2, policy.name);
      const content = versions[0].content;
      assert.ok(content.guidelines.categories.length > 0 && content.dispositions.classifications.length > 0, policy.name);
      assert.ok(content.instructions && content.summary_template.template.includes('{{'), policy.name);
      const rules = content.guidelines.categories.flatMap((c: any) => c.rules);
      assert.ok(rules.some((r: any) => r.sub_rules?.length), `${policy.name} has nested sub-rules`);
      assert.ok(versions[0].base_version_id, 'later versions name the version they derive from');
    }
    const flags = JSON.stringify((await t.call('GET', `/v1/policies/${rich[0].id}/versions/`)).body);
    assert.ok(flags.includes('GREEN_FLAG') && flags.includes('RED_FLAG'));
  });

  it('builds the same ids and values on every start, with a different token', async () => {
    const again = await startTestSandbox({ jobStepMs: 60_000 });
    try {
      const ids = (list: any[]) => list.map((x) => x.id);
      assert.deepEqual(ids((await again.call('GET', '/v1/agents/?page_size=100&ordering=name')).body.results), ids((await t.call('GET', '/v1/agents/?page_size=100&ordering=name')).body.results));
      assert.deepEqual(ids((await again.call('GET', '/v1/policies/')).body.results), ids((await t.call('GET', '/v1/policies/')).body.results));
      const jobsOf = async (s: TestSandbox) => (await s.call('GET', `/v1/agents/${agents[0].id}/jobs/?ordering=id&page_size=20`)).body.results.map((j: any) => [j.id, j.metadata, j.job_inputs]);
      assert.deepEqual(await jobsOf(again), await jobsOf(t));
      assert.notEqual(again.token, t.token);
    } finally {
      await again.close();
    }
  });

  it('starts empty with only the demo user, their organization and their personal dataset', async () => {
    const empty = await startTestSandbox({ seed: 'empty' });
    try {
      assert.equal((await empty.call('GET', '/v1/agents/')).body.count, 0);
      assert.equal((await empty.call('GET', '/v1/policies/')).body.count, 0);
      assert.equal((await empty.call('GET', '/v1/datasets/')).body.count, 0);
      assert.equal((await empty.call('GET', '/v1/datasets/', { org: null })).body.results[0].name, 'Personal');
      assert.equal(empty.orgId, t.orgId);
    } finally {
      await empty.close();
    }
  });

  it('refuses unknown seeds and malformed users before opening anything', async () => {
    await assert.rejects(startTestSandbox({ seed: 'huge' as never }), /Unknown seed "huge"/);
    await assert.rejects(startTestSandbox({ users: [{ token: 'short', organizationIds: [] }] }), /at least 8 characters/);
    await assert.rejects(startTestSandbox({ users: [{ token: 'long-enough', organizationIds: ['acme'] }] }), /not an organization UUID/);
  });
});
