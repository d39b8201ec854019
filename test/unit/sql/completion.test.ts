import * as assert from 'node:assert/strict';
import { SqlCatalog } from '../../../src/core/sql/sqlCatalog';
import { sqlCompletions } from '../../../src/core/sql/sqlCompletion';
import { sqlHover, unknownTables } from '../../../src/core/sql/sqlInsight';

const catalog = new SqlCatalog([
  { name: 'customers', columns: [{ name: 'id', type: 'Int64' }, { name: 'name', type: 'String' }, { name: 'region', type: 'String' }] },
  { name: 'conversations', columns: [{ name: 'id', type: 'Int64' }, { name: 'customer_id', type: 'Int64' }, { name: 'csat', type: 'Nullable(Int64)' }] },
  { name: 'agent_runs', columns: [{ name: 'job_id', type: 'UUID' }, { name: 'cost_usd', type: 'Float64' }] },
]);

/** Completion where `|` stands in the text. */
function at(textWithCursor: string) {
  const offset = textWithCursor.indexOf('|');
  const text = textWithCursor.slice(0, offset) + textWithCursor.slice(offset + 1);
  const answer = sqlCompletions(text, offset, catalog);
  return { ...answer, labels: answer.items.map((i) => i.label), columns: answer.items.filter((i) => i.kind === 'column').map((i) => i.label) };
}

describe('SQL completion', () => {
  it('offers table names after FROM and JOIN, and after a comma in a FROM list', () => {
    assert.deepEqual(at('SELECT * FROM |').labels, ['customers', 'conversations', 'agent_runs']);
    assert.equal(at('SELECT * FROM customers c JOIN co|').context, 'tables');
    assert.equal(at('SELECT * FROM customers c JOIN co|').replaceFrom, 'SELECT * FROM customers c JOIN '.length);
    assert.equal(at('SELECT * FROM customers, |').context, 'tables');
    assert.equal(at('SELECT a, | FROM customers').context, 'general');
  });

  it('offers the columns of the aliased table after alias.', () => {
    const answer = at('SELECT c.| FROM customers c JOIN conversations v ON v.customer_id = c.id');
    assert.equal(answer.context, 'columns');
    assert.deepEqual(answer.labels, ['id', 'name', 'region']);
    assert.deepEqual(at('SELECT v.cs| FROM customers c JOIN conversations AS v ON true').labels, ['id', 'customer_id', 'csat']);
    assert.deepEqual(at('SELECT customers.| FROM customers').labels, ['id', 'name', 'region']);
    assert.equal(at('SELECT c.| FROM customers c').items[0]!.detail, 'Int64 — customers');
  });

  it('offers the columns of the query’s sources with keywords elsewhere', () => {
    const answer = at('SELECT | FROM agent_runs WHERE cost_usd > 1');
    assert.deepEqual(answer.columns, ['job_id', 'cost_usd']);
    assert.ok(answer.labels.includes('WHERE'));
    assert.deepEqual(at('SELECT * FROM conversations WHERE cs|').columns, ['id', 'customer_id', 'csat']);
  });

  it('knows the columns of a CTE, by name and by alias, and offers CTE names after FROM', () => {
    const sql = 'WITH happy AS (SELECT customer_id, csat AS score FROM conversations WHERE csat >= 4)\nSELECT h.| FROM happy h';
    assert.deepEqual(at(sql).labels, ['customer_id', 'score']);
    assert.equal(at(sql).items[0]!.detail, 'Int64 — happy');
    assert.deepEqual(at('WITH happy AS (SELECT 1 AS x) SELECT * FROM |').labels.slice(0, 2), ['happy', 'customers']);
    assert.deepEqual(at('WITH t (a, b) AS (SELECT id, name FROM customers) SELECT | FROM t').columns, ['a', 'b']);
  });

  it('completes inside a CTE body from that body’s own sources', () => {
    assert.deepEqual(at('WITH x AS (SELECT | FROM agent_runs) SELECT * FROM customers').columns, ['job_id', 'cost_usd']);
  });

  it('knows the columns of a subquery in FROM, and keeps an inner query’s sources apart from the outer one', () => {
    assert.deepEqual(at('SELECT s.| FROM (SELECT id, name AS who FROM customers) s').labels, ['id', 'who']);
    assert.deepEqual(at('SELECT * FROM customers WHERE id IN (SELECT | FROM conversations)').columns, ['id', 'customer_id', 'csat', 'name', 'region']);
    assert.deepEqual(at('SELECT * FROM (SELECT | FROM agent_runs) r, customers').columns, ['job_id', 'cost_usd']);
    assert.deepEqual(at('SELECT r.| FROM (SELECT * FROM agent_runs) r').labels, ['job_id', 'cost_usd']);
  });

  it('stays silent in comments and strings', () => {
    for (const sql of ['SELECT * FROM -- |', 'SELECT * FROM /* c| */ customers', "SELECT 'FROM |' FROM customers", "SELECT * FROM customers WHERE name = 'ab|", 'SELECT 1 /* FROM |']) {
      const answer = at(sql);
      assert.equal(answer.context, 'silent', sql);
      assert.deepEqual(answer.items, [], sql);
    }
    assert.equal(at('-- a comment\nSELECT * FROM |').context, 'tables');
    assert.equal(at('/* a */ SELECT * FROM |').context, 'tables');
  });

  it('reads only the statement the cursor is in', () => {
    assert.deepEqual(at('SELECT * FROM agent_runs;\nSELECT | FROM customers').columns, ['id', 'name', 'region']);
  });
});

describe('SQL hover and problems', () => {
  function hoverAt(textWithCursor: string) {
    const offset = textWithCursor.indexOf('|');
    return sqlHover(textWithCursor.slice(0, offset) + textWithCursor.slice(offset + 1), offset, catalog);
  }

  it('shows a column’s type, through aliases and CTEs', () => {
    assert.deepEqual(hoverAt('SELECT c.reg|ion FROM customers c'), { kind: 'column', start: 9, end: 15, name: 'region', type: 'String', source: 'c' });
    assert.equal((hoverAt('SELECT cs|at FROM conversations') as { type: string }).type, 'Nullable(Int64)');
    assert.equal((hoverAt('WITH h AS (SELECT csat AS s FROM conversations) SELECT s| FROM h') as { type: string }).type, '');
    assert.equal(hoverAt('SELECT * FROM custo|mers')?.kind, 'table');
  });

  it('underlines tables that are neither in the catalog nor a CTE', () => {
    const sql = 'WITH x AS (SELECT 1) SELECT * FROM x, "Other Table" JOIN missing m ON true JOIN customers c ON true';
    assert.deepEqual(unknownTables(sql, catalog).map((u) => [u.name, sql.slice(u.start, u.end)]), [['Other Table', '"Other Table"'], ['missing', 'missing']]);
    assert.deepEqual(unknownTables('SELECT count(*) FROM numbers(10); SELECT extract(year FROM now())', catalog), []);
  });

  it('judges statements the parser cannot read (ClickHouse-only syntax, text being typed) by the scope analysis', () => {
    const clickhouse = 'SELECT * FROM missing FINAL SETTINGS max_threads = 2';
    assert.deepEqual(unknownTables(clickhouse, catalog).map((u) => u.name), ['missing']);
    assert.deepEqual(unknownTables('SELECT * FROM customers c JOIN missing m ON m.', catalog).map((u) => u.name), ['missing']);
    assert.deepEqual(unknownTables('WITH t AS (SELECT 1) SELECT * FROM t WHERE', catalog), []);
  });
});
