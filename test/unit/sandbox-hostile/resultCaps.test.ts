import * as assert from 'node:assert/strict';
import { MAX_CELL_CHARS, MAX_RESULT_CHARS } from '../../../src/sandbox/query/execute';
import { type TestSandbox, startTestSandbox } from '../sandbox/helpers';
import { assertEveryOrgAnswers, runQuery } from './support';

describe('sandbox under hostile input: results have a size', function () {
  this.timeout(120_000);
  let t: TestSandbox;
  before(async () => {
    t = await startTestSandbox();
  });
  after(() => t.close());
  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(t.logs.slice(-5).join('\n'));
  });

  it('cuts a 60 MB cell to the cell cap and says the result was truncated', async () => {
    const outcome = await runQuery(t, 'SELECT zeroblob(60000000) AS big, 1 AS small');
    assert.equal(outcome.status, 'SUCCESS', outcome.error ?? '');
    const [result] = outcome.results;
    assert.equal(result.truncated, true);
    assert.equal(result.result_rows[0][0].length, MAX_CELL_CHARS);
    assert.equal(result.result_rows[0][1], '1');
    await assertEveryOrgAnswers(t);
  });

  it('keeps a cell of exactly the cap whole, and not truncated', async () => {
    const outcome = await runQuery(t, `SELECT zeroblob(${MAX_CELL_CHARS / 2}) AS fits`);
    assert.equal(outcome.results[0].truncated, false);
    assert.equal(outcome.results[0].result_rows[0][0].length, MAX_CELL_CHARS);
  });

  it('stops adding rows once a result holds its most text, counting them all', async () => {
    const rows = Math.ceil(MAX_RESULT_CHARS / MAX_CELL_CHARS) + 5;
    const sql = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows}) SELECT i, zeroblob(${MAX_CELL_CHARS / 2}) FROM n`;
    const outcome = await runQuery(t, sql);
    assert.equal(outcome.status, 'SUCCESS', outcome.error ?? '');
    const [result] = outcome.results;
    assert.equal(result.row_count, rows);
    assert.equal(result.truncated, true);
    const kept = result.result_rows.reduce((sum: number, row: string[]) => sum + row[0]!.length + row[1]!.length, 0);
    assert.ok(kept <= MAX_RESULT_CHARS, `${kept} characters kept`);
    assert.ok(result.result_rows.length < rows);
    await assertEveryOrgAnswers(t);
  });
});
