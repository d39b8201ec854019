import * as assert from 'node:assert/strict';
import { createQueryEngine, type QueryEngine } from '../../../src/sandbox/query';
import { errorOf, rowsOf } from './helpers';

/** Everything a write could change: row counts, contents, the tables that exist, attached databases, the pragma. */
const SNAPSHOT = `SELECT
  (SELECT count(*) FROM customers) || '/' || (SELECT count(*) FROM agents) || '/' ||
  (SELECT count(*) FROM conversations) || '/' || (SELECT count(*) FROM agent_runs),
  (SELECT sum(mrr_usd) || group_concat(tier) FROM customers),
  (SELECT sum(cost_usd) || max(summary) FROM conversations),
  (SELECT group_concat(name) FROM sqlite_schema),
  (SELECT count(*) FROM pragma_database_list),
  (SELECT query_only FROM pragma_query_only)`;

const FORBIDDEN: [string, RegExp][] = [
  ["INSERT INTO agents (id, name) VALUES ('x', 'intruder')", /this is an INSERT statement/],
  ["UPDATE customers SET tier = 'free'", /this is an UPDATE statement/],
  ['DELETE FROM agent_runs', /this is a DELETE statement/],
  ["REPLACE INTO customers (id, name) VALUES (1, 'x')", /this is a REPLACE statement/],
  ['CREATE TABLE stolen AS SELECT * FROM customers', /this is a CREATE statement/],
  ['DROP TABLE conversations', /this is a DROP statement/],
  ['ALTER TABLE agents RENAME TO bots', /this is an ALTER statement/],
  ["ATTACH DATABASE ':memory:' AS other", /this is an ATTACH statement/],
  ['PRAGMA query_only = OFF', /this is a PRAGMA statement/],
  ['VACUUM', /this is a VACUUM statement/],
  ['SELECT 1; DROP TABLE conversations', /Only one statement can be run at a time, and this query holds 2/],
  ["SELECT ';'; DELETE FROM agents", /holds 2/],
  ['SELECT 1 /* ; */ ; PRAGMA query_only = OFF; DELETE FROM agents -- ;', /holds 3/],
  ['WITH doomed AS (SELECT id FROM conversations) DELETE FROM conversations WHERE id IN doomed', /ends in a DELETE statement/],
  ['/* looks harmless */ DELETE FROM customers', /this is a DELETE statement/],
  ['', /The query is empty/],
  ['  -- only a comment\n', /The query is empty/],
];

describe('read-only queries', () => {
  let engine: QueryEngine;
  before(() => (engine = createQueryEngine()));
  after(() => engine.close());

  it('refuses every statement that could change something, with a clear reason, and nothing changes', async () => {
    const before = await rowsOf(engine, SNAPSHOT);
    assert.equal(before[0]?.[5], '1', 'query_only is on');
    for (const [sql, reason] of FORBIDDEN) {
      assert.match(errorOf(await engine.run(sql)), reason, sql);
    }
    assert.deepEqual(await rowsOf(engine, SNAPSHOT), before);
  });

  it('refuses the same statements in lower case and with odd spacing', async () => {
    assert.match(errorOf(await engine.run('  delete\nfrom agents')), /this is a DELETE statement/);
    assert.match(errorOf(await engine.run('select 1;\n\ndrop table agents;')), /holds 2/);
    assert.deepEqual(await rowsOf(engine, 'SELECT count(*) FROM agents'), [['8']]);
  });

  it('still reads with SQLite functions that only look at the schema', async () => {
    const rows = await rowsOf(engine, "SELECT name, type FROM pragma_table_info('conversations') WHERE name = 'csat'");
    assert.deepEqual(rows, [['csat', 'INTEGER']]);
  });
});
