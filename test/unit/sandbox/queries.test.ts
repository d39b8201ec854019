import * as assert from 'node:assert/strict';
import { MISSING_ID, type TestSandbox, eventually, fakeQueryEngine, startTestSandbox } from './helpers';

describe('sandbox database queries', () => {
  let t: TestSandbox;
  const engine = fakeQueryEngine(200);
  before(async () => {
    t = await startTestSandbox({ queryEngineFactory: engine.factory });
  });
  after(() => t.close());

  const submit = (body: unknown) => t.call('POST', '/v1/database/query/', { body });
  const result = (id: string) => t.call('GET', `/v1/database/query/${id}/result/`);
  const finished = (id: string) =>
    eventually(async () => {
      const answer = await result(id);
      return answer.body.status === 'SUCCESS' || answer.body.status === 'FAILURE' ? answer.body : undefined;
    });

  it('creates the engine only when the first query arrives', async () => {
    assert.equal(engine.state.created, 0);
    const id = (await submit({ query: 'SELECT 1' })).body.worksheet_query_id;
    await finished(id);
    await finished((await submit({ query: 'SELECT 2' })).body.worksheet_query_id);
    assert.equal(engine.state.created, 1);
  });

  it('answers 202 with a PENDING task, then moves it through STARTED to SUCCESS with results', async () => {
    const submitted = await submit({ query: 'SELECT x FROM t' });
    assert.equal(submitted.status, 202);
    assert.equal(submitted.body.status, 'PENDING');
    const id = submitted.body.worksheet_query_id;
    const seen = new Set<string>();
    const done = await eventually(async () => {
      const body = (await result(id)).body;
      seen.add(body.status);
      return body.status === 'SUCCESS' ? body : undefined;
    });
    assert.ok(seen.has('STARTED'), `saw ${[...seen].join(', ')}`);
    assert.equal(done.worksheet_query_id, id);
    assert.equal(done.error, null);
    assert.equal(done.results[0].query, 'SELECT x FROM t');
    assert.deepEqual(done.results[0].result_rows, [['1']]);
    assert.equal(done.results[0].truncated, false);
  });

  it('reports a failed query as FAILURE with the engine\'s error text', async () => {
    const done = await finished((await submit({ query: 'SELECT fail' })).body.worksheet_query_id);
    assert.equal(done.status, 'FAILURE');
    assert.equal(done.error, 'Syntax error near "SELECT fail"');
    assert.deepEqual(done.results, []);
  });

  it('validates the query text and answers 404 for an unknown task', async () => {
    assert.deepEqual((await submit({})).body, { query: ['This field is required.'] });
    assert.deepEqual((await submit({ query: '  ' })).body, { query: ['This field may not be blank.'] });
    assert.deepEqual((await submit({ query: 42 })).body, { query: ['Not a valid string.'] });
    assert.deepEqual((await submit({ query: 'x'.repeat(100_001) })).body, { query: ['Ensure this field has no more than 100000 characters.'] });
    assert.equal((await result(MISSING_ID)).status, 404);
  });

  it('runs queries on the real query engine when none is given', async function () {
    this.timeout(30_000);
    const real = await startTestSandbox({ seed: 'empty' });
    try {
      const id = (await real.call('POST', '/v1/database/query/', { body: { query: 'SELECT 6 * 7 AS answer' } })).body.worksheet_query_id;
      const done = await eventually(async () => {
        const body = (await real.call('GET', `/v1/database/query/${id}/result/`)).body;
        return body.status === 'SUCCESS' || body.status === 'FAILURE' ? body : undefined;
      }, 25_000, 'the real engine');
      assert.equal(done.status, 'SUCCESS', done.error);
      assert.deepEqual(done.results[0].column_names, ['answer']);
      assert.deepEqual(done.results[0].result_rows, [['42']]);
    } finally {
      await real.close();
    }
  });
});
