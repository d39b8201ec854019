import * as assert from 'node:assert/strict';
import { createQueryEngine, type QueryEngine } from '../../../src/sandbox/query';
import { TRICKY_CUSTOMER_NAMES } from '../../../src/sandbox/query/demoCustomers';
import { TRICKY_SUMMARIES } from '../../../src/sandbox/query/demoActivity';
import { errorOf, resultOf, rowsOf } from './helpers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('query results of the sandbox database', () => {
  let engine: QueryEngine;
  before(() => (engine = createQueryEngine()));
  after(() => engine.close());

  it('answers a SELECT with its column names, ClickHouse types and every value as text', async () => {
    const result = resultOf(await engine.run('SELECT id, started_at, channel, csat, duration_s, cost_usd, summary FROM conversations WHERE id = 1'));
    assert.deepEqual(result.column_names, ['id', 'started_at', 'channel', 'csat', 'duration_s', 'cost_usd', 'summary']);
    assert.deepEqual(result.column_types, ['Int64', 'DateTime', 'String', 'Nullable(Int64)', 'Int64', 'Float64', 'Nullable(String)']);
    assert.equal(result.row_count, 1);
    assert.equal(result.truncated, false);
    const [row] = result.result_rows;
    assert.equal(row?.[0], '1');
    assert.match(row?.[1] ?? '', DATE_TIME);
    assert.ok(['chat', 'voice', 'email', 'sms'].includes(row?.[2] ?? ''));
    assert.ok(row?.every((value) => value === null || typeof value === 'string'));
    assert.ok(Number(row?.[5]) > 0);
  });

  it('answers a WITH query', async () => {
    const result = resultOf(
      await engine.run(`WITH per_channel AS (SELECT channel, count(*) AS conversations FROM conversations GROUP BY channel)
        SELECT channel, conversations FROM per_channel ORDER BY conversations DESC`),
    );
    assert.deepEqual(result.column_types, ['String', 'Int64']);
    assert.equal(result.row_count, 4);
    assert.equal(result.result_rows.reduce((sum, [, n]) => sum + Number(n), 0), 6000);
  });

  it('sends SQL NULL as null, and says so in the column type', async () => {
    const result = resultOf(await engine.run('SELECT NULL AS missing, csat, account_manager FROM conversations JOIN customers ON customers.id = customer_id WHERE csat IS NULL AND tier = \'free\' LIMIT 3'));
    assert.deepEqual(result.column_types, ['Nullable(Nothing)', 'Nullable(Int64)', 'Nullable(String)']);
    assert.deepEqual(result.result_rows, [[null, null, null], [null, null, null], [null, null, null]]);
  });

  it('brings back markup, quotes, commas, newlines and non-Latin text unchanged', async () => {
    assert.deepEqual(await rowsOf(engine, 'SELECT name FROM customers WHERE id IN (7, 13) ORDER BY id'), [
      [TRICKY_CUSTOMER_NAMES[7]],
      [TRICKY_CUSTOMER_NAMES[13]],
    ]);
    assert.deepEqual(await rowsOf(engine, 'SELECT summary FROM conversations WHERE id IN (42, 43) ORDER BY id'), [
      [TRICKY_SUMMARIES[42]],
      [TRICKY_SUMMARIES[43]],
    ]);
  });

  it('types dates, date-times, UUIDs and booleans as ClickHouse would', async () => {
    const customers = resultOf(await engine.run('SELECT signed_up_on, churned_at, mrr_usd FROM customers'));
    assert.deepEqual(customers.column_types, ['Date', 'Nullable(DateTime)', 'Float64']);
    const agents = resultOf(await engine.run('SELECT id, name, is_active FROM agents ORDER BY name'));
    assert.deepEqual(agents.column_types, ['UUID', 'String', 'Bool']);
    assert.ok(agents.result_rows.every(([id, , active]) => UUID.test(id ?? '') && (active === 'true' || active === 'false')));
    assert.ok(agents.result_rows.some(([, , active]) => active === 'false'));
  });

  it('works out the types of computed columns from their values', async () => {
    const result = resultOf(await engine.run(`SELECT count(*) AS n, avg(csat) AS average, max(started_at) AS latest,
      date(min(started_at)) AS first_day, 9223372036854775807 AS biggest, x'CAFE' AS raw FROM conversations`));
    assert.deepEqual(result.column_types, ['Int64', 'Float64', 'DateTime', 'Date', 'Int64', 'String']);
    assert.deepEqual(result.result_rows[0]?.slice(3), ['2025-01-01', '9223372036854775807', 'CAFE']);
  });

  it('reports a summary with the rows read, the rows and bytes sent, and a fresh query id', async () => {
    const outcome = await engine.run(`SELECT c.id, r.status, c.summary FROM conversations c JOIN agent_runs r ON r.conversation_id = c.id
      WHERE c.id <= 50`);
    const result = resultOf(outcome);
    const runs = Number((await rowsOf(engine, 'SELECT count(*) FROM agent_runs'))[0]?.[0]);
    const { summary } = result;
    assert.equal(summary.read_rows, 6000 + runs);
    assert.equal(summary.total_rows_to_read, summary.read_rows);
    assert.ok(summary.read_bytes > summary.read_rows * 50);
    assert.equal(summary.result_rows, result.row_count);
    const bytes = result.result_rows.flat().reduce((sum, v) => sum + (v === null ? 0 : Buffer.byteLength(v)), 0);
    assert.equal(summary.result_bytes, bytes);
    assert.deepEqual([summary.written_rows, summary.written_bytes], [0, 0]);
    assert.ok(summary.elapsed_ns > 0 && Number.isInteger(summary.elapsed_ns));
    assert.match(result.query_id, UUID);
    assert.equal(summary.query_id, result.query_id);
    assert.ok(result.start_timestamp <= result.end_timestamp);
    assert.ok(Math.abs(result.end_timestamp - Date.now() / 1000) < 5);
    const again = resultOf(await engine.run('SELECT 1'));
    assert.notEqual(again.query_id, result.query_id);
  });

  it('counts the generated rows as read when a query names no table', async () => {
    const result = resultOf(await engine.run('WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 25) SELECT n FROM g'));
    assert.equal(result.summary.read_rows, 25);
    assert.equal(result.query, 'WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 25) SELECT n FROM g');
  });

  it('passes SQLite errors on in its own words', async () => {
    assert.equal(errorOf(await engine.run('SELECT * FROM foo')), 'no such table: foo');
    assert.equal(errorOf(await engine.run('SELECT nope FROM agents')), 'no such column: nope');
    assert.match(errorOf(await engine.run("SELECT 'unclosed")), /unrecognized token/);
    assert.match(errorOf(await engine.run('SELECT FROM WHERE')), /syntax error/);
  });

  it('lets a semicolon inside a string or a comment through as part of one statement', async () => {
    assert.deepEqual(await rowsOf(engine, "SELECT ';' AS semicolon -- ; DROP TABLE agents"), [[';']]);
    assert.deepEqual(await rowsOf(engine, 'SELECT 1 AS "a;b" /* ; DELETE FROM agents */ ;'), [['1']]);
  });
});
