import * as assert from 'node:assert/strict';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_INPUTS } from '../../../src/sandbox/seed/demoLoop';
import { type TestSandbox, startTestSandbox } from '../sandbox/helpers';
import { OTHER, assertEveryOrgAnswers, assertRefusedWithSentence, csvForm, everyOrgFingerprint, orgFingerprint, runQuery, scalar } from './support';

describe('sandbox under hostile input: the attacks of the review', function () {
  this.timeout(120_000);
  let t: TestSandbox;
  before(async () => {
    t = await startTestSandbox();
  });
  after(() => t.close());

  it('runs a job with a 5.5 MB transcript and keeps answering every organization', async () => {
    const transcript = `Agent: hello\n${'Customer: I was charged twice for the same order. '.repeat(110_000)}`;
    assert.ok(transcript.length > 5_500_000);
    const answer = await t.call('POST', `/v1/agents/run/${DEMO_LOOP_AGENT_ID}/async/`, { body: { ...DEMO_LOOP_INPUTS, transcript } });
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    const job = await t.call('GET', `/v1/agents/jobs/${answer.body}/status/`);
    assert.equal(job.status, 200);
    const found = await t.call('GET', `/v1/agents/${DEMO_LOOP_AGENT_ID}/jobs/?search=${encodeURIComponent('charged twice')}&page_size=50`);
    assert.ok(found.body.results.some((j: any) => j.id === answer.body), 'the big job is found by its text');
    await assertEveryOrgAnswers(t);
  });

  it('keeps a CSV header that holds SQL as a column name, never as SQL', async () => {
    const header = 'a") when \'x\' then 1 end), 0) from "t"; pragma query_only=off; delete from customers; select ("';
    const before = await scalar(t, 'SELECT count(*) FROM customers');
    const up = await t.call('POST', '/v1/tables/upload/', { rawBody: csvForm('t', `"${header.replace(/"/g, '""')}",b\n1,2\n`) });
    assert.equal(up.status, 201, up.text);
    const read = await runQuery(t, 'SELECT * FROM t');
    assert.equal(read.status, 'SUCCESS', read.error ?? '');
    assert.deepEqual(read.results[0].column_names, [header, 'b']);
    assert.equal(await scalar(t, 'SELECT count(*) FROM customers'), before);
    assert.equal((await t.call('DELETE', '/v1/tables/t/')).status, 204);
  });

  for (const name of ['sqlite_x', 'SQLITE_master', 'conversations_customer', 'customers', 'agent_runs_conversation']) {
    it(`refuses a table named ${name}, which the organization's database already uses`, async () => {
      const before = await everyOrgFingerprint(t);
      const up = await t.call('POST', '/v1/tables/upload/', { rawBody: csvForm(name, 'a\n1\n') });
      assertRefusedWithSentence(up, name);
      assert.deepEqual(await everyOrgFingerprint(t), before);
      await assertEveryOrgAnswers(t);
    });
  }

  it('refuses a CSV wider than a table can be (2,001 columns), and takes 2,000', async () => {
    const row = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`).join(',');
    const wide = await t.call('POST', '/v1/tables/upload/', { rawBody: csvForm('wide', `${row(2001)}\n${row(2001)}\n`) });
    assertRefusedWithSentence(wide, '2,001 columns');
    const widest = await t.call('POST', '/v1/tables/upload/', { rawBody: csvForm('widest', `${row(2000)}\n${row(2000)}\n`) });
    assert.equal(widest.status, 201, widest.text);
    assert.equal(await scalar(t, 'SELECT count(*) FROM widest'), '1');
    assert.equal((await t.call('GET', '/v1/tables/widest/preview/')).status, 200);
    assert.equal((await t.call('DELETE', '/v1/tables/widest/')).status, 204);
    await assertEveryOrgAnswers(t);
  });

  it('keeps another organization unchanged by all of the above', async () => {
    const other = await orgFingerprint(t, OTHER);
    assert.equal((other as any).customers, '400');
  });
});
