import * as assert from 'node:assert/strict';
import { type TestSandbox, agentNamed, startTestSandbox } from './helpers';

describe('sandbox jobs list', () => {
  let t: TestSandbox;
  let qa: any;
  const jobs = async (query: string) => {
    const answer = await t.call('GET', `/v1/agents/${qa.id}/jobs/?${query}`);
    assert.equal(answer.status, 200, answer.text);
    return answer.body;
  };

  before(async () => {
    // Jobs stand still (a step every minute) so that counts do not move under the assertions.
    t = await startTestSandbox({ jobStepMs: 60_000 });
    qa = await agentNamed(t, 'Support Call QA');
  });
  after(() => t.close());

  it('pages 50 jobs by default, newest first, with the agent job count as the total', async () => {
    const page = await jobs('');
    assert.equal(page.count, qa.job_count);
    assert.equal(page.results.length, 50);
    const created = page.results.map((j: any) => j.created_at);
    assert.deepEqual(created, [...created].sort().reverse());
    assert.ok(page.next.startsWith('http://127.0.0.1:'));
    for (const key of ['id', 'agent_version_name', 'status_events', 'status_code', 'created_at', 'last_updated_at', 'evaluation', 'feedback_review', 'job_inputs', 'metadata', 'duration_ms']) {
      assert.ok(key in page.results[0], key);
    }
  });

  it('orders by every documented field, ascending and descending', async () => {
    const fields: Record<string, (j: any) => unknown> = {
      id: (j) => j.id, agent_version_name: (j) => j.agent_version_name, status_code: (j) => j.status_code, created_at: (j) => j.created_at,
      last_updated_at: (j) => j.last_updated_at, cost: (j) => j.cost, duration: (j) => j.duration_ms, grader_score: (j) => j.evaluation?.grader_score ?? null,
    };
    const le = (a: any, b: any) => a === null || (b !== null && a <= b);
    for (const [field, key] of Object.entries(fields)) {
      const up = (await jobs(`ordering=${field}&page_size=200`)).results.map(key);
      const down = (await jobs(`ordering=-${field}&page_size=200`)).results.map(key);
      for (let i = 1; i < up.length; i++) {
        assert.ok(le(up[i - 1], up[i]), `${field} ascending at ${i}: ${up[i - 1]} ${up[i]}`);
        assert.ok(le(down[i], down[i - 1]), `${field} descending at ${i}`);
      }
    }
    assert.equal((await t.call('GET', `/v1/agents/${qa.id}/jobs/?ordering=-price`)).status, 400);
  });

  it('filters by one status code or a comma-separated list, and refuses other values', async () => {
    const success = await jobs('status_code=3&page_size=200');
    assert.ok(success.count > 0 && success.results.every((j: any) => j.status_code === 3));
    const mixed = await jobs('status_code=4,5&page_size=200');
    assert.deepEqual([...new Set(mixed.results.map((j: any) => j.status_code))].sort(), [4, 5]);
    assert.equal((await jobs('status_code=4')).count + (await jobs('status_code=5')).count, mixed.count);
    const bad = await t.call('GET', `/v1/agents/${qa.id}/jobs/?status_code=7,SUCCESS`);
    assert.deepEqual(bad.body, { status_code: ['"7" is not a job status code (0 to 6).', '"SUCCESS" is not a job status code (0 to 6).'] });
  });

  it('filters by creation dates, version name and job id (or its beginning)', async () => {
    const from = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const recent = await jobs(`created_from=${from}&page_size=500`);
    assert.ok(recent.results.every((j: any) => j.created_at >= from));
    const older = await jobs(`created_to=${from}`);
    assert.equal(recent.count + older.count, qa.job_count);
    const v3 = await jobs(`version_name=${encodeURIComponent('v3 – stricter evidence')}&page_size=500`);
    assert.ok(v3.count > 0 && v3.results.every((j: any) => j.agent_version_name === 'v3 – stricter evidence'));
    const some = (await jobs('page_size=2')).results;
    const byId = await jobs(`job_id=${some[0].id.slice(0, 8)},${some[1].id.toUpperCase()}`);
    assert.deepEqual(new Set(byId.results.map((j: any) => j.id)), new Set([some[0].id, some[1].id]));
    assert.equal((await t.call('GET', `/v1/agents/${qa.id}/jobs/?job_id=xyz`)).status, 400);
  });

  it('filters by metadata pairs and drops jobs by exclude_metadata', async () => {
    const emea = await jobs('metadata=region:EMEA&page_size=500');
    assert.ok(emea.count > 0 && emea.results.every((j: any) => j.metadata.region === 'EMEA'));
    const emeaChat = await jobs('metadata=region:EMEA,channel:chat&page_size=500');
    assert.ok(emeaChat.count > 0 && emeaChat.count < emea.count);
    assert.ok(emeaChat.results.every((j: any) => j.metadata.region === 'EMEA' && j.metadata.channel === 'chat'));
    const notEmea = await jobs('exclude_metadata=region:EMEA');
    assert.equal(notEmea.count + emea.count, qa.job_count);
    const both = await jobs('metadata=region:EMEA&status_code=3');
    assert.ok(both.count < emea.count);
    assert.deepEqual((await t.call('GET', `/v1/agents/${qa.id}/jobs/?metadata=region`)).body, {
      metadata: ['Use key:value[,key:value...], e.g. customer:Globex,channel:chat.'],
    });
  });

  it('searches inputs, metadata, verdicts and ids case-insensitively', async () => {
    const refunds = await jobs('search=CHARGED TWICE&page_size=500');
    assert.ok(refunds.count > 0 && refunds.count < qa.job_count);
    assert.ok(refunds.results.every((j: any) => j.job_inputs[0].value.toLowerCase().includes('charged twice')));
    assert.ok((await jobs('search=initech')).count > 0);
    assert.equal((await jobs('search=no such words anywhere')).count, 0);
    const one = (await jobs('page_size=1')).results[0];
    assert.equal((await jobs(`search=${one.id.slice(4, 20)}`)).results[0].id, one.id);
    assert.ok((await jobs('job_inputs=password reset')).count > 0);
    const verdict = await jobs('verdict=non-compliant&page_size=500');
    assert.ok(verdict.count > 0 && verdict.results.every((j: any) => j.ui_fields.verdict === 'Non-Compliant'));
  });

  it('finds similar jobs with semantic_string, most similar first, above a threshold', async () => {
    const similar = await jobs('semantic_string=refund for a duplicate charge on my invoice&page_size=20');
    assert.ok(similar.count > 0 && similar.count < qa.job_count);
    const scores = similar.results.map((j: any) => j.similarity);
    assert.deepEqual(scores, [...scores].sort((a: number, b: number) => b - a));
    assert.ok(similar.results.slice(0, 5).every((j: any) => /charged twice|refund/i.test(j.job_inputs[0].value)));
    const ordered = await jobs('semantic_string=refund for a duplicate charge&ordering=-created_at&page_size=500');
    const created = ordered.results.map((j: any) => j.created_at);
    assert.deepEqual(created, [...created].sort().reverse());
    assert.equal((await jobs('semantic_string=zzzz qqqq')).count, 0);
  });

  it('counts only the most recent jobs when limit is given, and all with limit=0', async () => {
    const limited = await jobs('limit=30&page_size=100');
    assert.equal(limited.count, 30);
    const newest = (await jobs('page_size=30')).results.map((j: any) => j.id);
    assert.deepEqual(limited.results.map((j: any) => j.id), newest);
    assert.equal((await jobs('limit=0')).count, qa.job_count);
    assert.equal((await t.call('GET', `/v1/agents/${qa.id}/jobs/?limit=-5`)).status, 400);
  });

  it('answers 404 past the last page and links pages that keep the filters', async () => {
    const first = await jobs('status_code=3&page_size=10');
    assert.ok(first.next.includes('status_code=3') && first.next.includes('page=2'));
    const last = Math.ceil(first.count / 10);
    assert.equal((await t.call('GET', `/v1/agents/${qa.id}/jobs/?status_code=3&page_size=10&page=${last + 1}`)).status, 404);
    assert.equal((await jobs(`status_code=3&page_size=10&page=${last}`)).next, null);
  });
});
