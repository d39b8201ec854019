import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { createQueryEngine, type QueryEngine } from '../../../src/sandbox/query';
import { runNode } from './childProcess';
import { errorOf, resultOf, rowsOf, RUNAWAY_QUERY } from './helpers';

const CHECKSUM = `SELECT count(*), sum(r.cost_usd), sum(length(c.summary)), group_concat(r.job_id)
  FROM agent_runs r LEFT JOIN conversations c ON c.id = r.conversation_id`;

describe('the query engine at work', () => {
  const engines: QueryEngine[] = [];
  const engine = (options?: Parameters<typeof createQueryEngine>[0]) => {
    const created = createQueryEngine(options);
    engines.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((e) => e.close()));
  });

  it('stops a runaway query at the timeout and answers the next one with the same data', async () => {
    const queries = engine({ timeoutMs: 1500 });
    const before = await rowsOf(queries, CHECKSUM);
    // The message names the limit that stopped it: the timeout, not a crash or the close.
    assert.equal(errorOf(await queries.run(RUNAWAY_QUERY)), 'Query timed out after 1.5 s');
    assert.deepEqual(await rowsOf(queries, CHECKSUM), before);
  });

  it('answers a query that was waiting behind a runaway one', async () => {
    const queries = engine({ timeoutMs: 800 });
    const [runaway, next] = await Promise.all([queries.run(RUNAWAY_QUERY), queries.run('SELECT count(*) FROM conversations')]);
    assert.equal(errorOf(runaway), 'Query timed out after 0.8 s');
    assert.deepEqual(resultOf(next).result_rows, [['6000']]);
  });

  it('sends at most maxRows rows, says it truncated them, and still counts them all', async () => {
    const queries = engine({ maxRows: 50 });
    const all = resultOf(await queries.run('SELECT id, summary FROM conversations ORDER BY id'));
    assert.equal(all.row_count, 6000);
    assert.equal(all.result_rows.length, 50);
    assert.equal(all.truncated, true);
    assert.equal(all.summary.result_rows, 50);
    assert.deepEqual([all.result_rows[0]?.[0], all.result_rows[49]?.[0]], ['1', '50']);
    const exactly = resultOf(await queries.run('SELECT id FROM conversations LIMIT 50'));
    assert.deepEqual([exactly.row_count, exactly.result_rows.length, exactly.truncated], [50, 50, false]);
  });

  it('answers queries sent at the same time one by one, in the order they came', async () => {
    const queries = engine();
    const sql = [
      'WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 300000) SELECT count(*) FROM g',
      'SELECT 2',
      'SELECT * FROM no_such_table',
      "SELECT 'four'",
      'SELECT count(*) FROM agents',
    ];
    const settled: number[] = [];
    const outcomes = await Promise.all(sql.map((q, i) => queries.run(q).finally(() => settled.push(i))));
    assert.deepEqual(settled, [0, 1, 2, 3, 4]);
    assert.deepEqual(resultOf(outcomes[0]!).result_rows, [['300000']]);
    assert.deepEqual(resultOf(outcomes[1]!).result_rows, [['2']]);
    assert.equal(errorOf(outcomes[2]!), 'no such table: no_such_table');
    assert.deepEqual(resultOf(outcomes[3]!).result_rows, [['four']]);
    assert.deepEqual(resultOf(outcomes[4]!).result_rows, [['8']]);
  });

  it('ends the query in flight and those waiting when closed, and refuses new ones', async () => {
    const queries = engine();
    await queries.run('SELECT 1');
    const running = queries.run(RUNAWAY_QUERY);
    const waiting = queries.run('SELECT 2');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await queries.close();
    assert.equal(errorOf(await running), 'The query engine was closed.');
    assert.equal(errorOf(await waiting), 'The query engine was closed.');
    assert.equal(errorOf(await queries.run('SELECT 3')), 'The query engine was closed.');
  });

  it('ends a query still waiting for the engine to start when closed', async () => {
    const queries = engine();
    const first = queries.run('SELECT 1');
    // Long enough for the worker to be starting, far shorter than building the demo tables takes.
    await new Promise((resolve) => setTimeout(resolve, 30));
    await queries.close();
    assert.equal(errorOf(await first), 'The query engine was closed.');
  });

  describe('in a process of its own', () => {
    const index = path.resolve(__dirname, '../../../src/sandbox/query/index.ts');
    const script = (close: boolean) => `
      const { createQueryEngine } = require(${JSON.stringify(index)});
      const engine = createQueryEngine();
      engine.run('SELECT count(*) AS n FROM customers').then(async (outcome) => {
        console.log(JSON.stringify(outcome.status === 'SUCCESS' ? outcome.results[0].result_rows : outcome.error));
        ${close ? 'await engine.close();' : ''}
        // An unref'd timer fires only while something else keeps the process alive.
        setTimeout(() => { console.log('still alive'); process.exit(0); }, 200).unref();
      });`;

    it('lets the process exit once closed: no thread or timer is left behind', async function () {
      this.timeout(90_000);
      const child = await runNode(['--require', 'tsx/cjs', '-e', script(true)], 60_000);
      assert.equal(child.code, 0, child.stderr);
      assert.equal(child.stdout.trim(), '[["400"]]');
    });

    it('keeps the process alive while not closed (which is why close() matters)', async function () {
      this.timeout(90_000);
      const child = await runNode(['--require', 'tsx/cjs', '-e', script(false)], 60_000);
      assert.equal(child.stdout.trim(), '[["400"]]\nstill alive', child.stderr);
    });
  });
});
