import * as assert from 'node:assert/strict';
import { checkReadOnlyQuery, countStatements } from '../../../src/sandbox/query/statementGuard';
import { identifierName, tokenizeSql } from '../../../src/sandbox/query/sqlTokens';

function refusal(sql: string): string {
  const verdict = checkReadOnlyQuery(sql);
  assert.equal(verdict.ok, false, `expected a refusal for: ${sql}`);
  return verdict.ok ? '' : verdict.error;
}

describe('the statement check of the query engine', () => {
  it('accepts one SELECT, one WITH query, and a trailing semicolon or comment', () => {
    for (const sql of [
      'SELECT 1',
      '  select * from conversations;  ',
      'WITH t AS (SELECT 1 AS n) SELECT n FROM t;',
      'WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 5) SELECT n FROM g',
      'SELECT 1 -- the answer',
      '/* leading comment */ SELECT 2 /* trailing */ ;;',
      'WITH v(a) AS (VALUES (1), (2)) VALUES (3)',
    ]) {
      assert.equal(checkReadOnlyQuery(sql).ok, true, sql);
    }
  });

  it('does not take a semicolon inside quotes or comments for the end of a statement', () => {
    for (const sql of [
      "SELECT ';' AS semicolon",
      "SELECT 'it''s; DROP TABLE agents' AS text",
      'SELECT 1 AS "odd;name"',
      'SELECT 1 AS `odd;name`',
      'SELECT 1 AS [odd;name]',
      'SELECT 1 -- ; DROP TABLE agents',
      'SELECT 1 /* ; DELETE FROM agents; */',
      "SELECT x'3B' AS blob",
    ]) {
      assert.equal(countStatements(sql), 1, sql);
      assert.equal(checkReadOnlyQuery(sql).ok, true, sql);
    }
  });

  it('counts a second statement even when comments try to hide it', () => {
    assert.equal(countStatements('SELECT 1; DROP TABLE x'), 2);
    assert.equal(countStatements("SELECT ';' ; DELETE FROM agents"), 2);
    assert.equal(countStatements('SELECT 1 /* ; */ ; DELETE FROM agents -- ;'), 2);
    assert.equal(countStatements('SELECT 1 --\n; UPDATE agents SET name = 1'), 2);
    assert.match(refusal('SELECT 1; DROP TABLE x'), /Only one statement can be run at a time, and this query holds 2/);
  });

  it('refuses an empty query, or one made only of comments and semicolons', () => {
    for (const sql of ['', '   \n\t', '-- nothing here', '/* nor here */', ';;;']) {
      assert.equal(refusal(sql), 'The query is empty: write one SELECT statement.');
    }
  });

  it('refuses every statement that is not a SELECT, naming what it is', () => {
    const cases: [string, string][] = [
      ['INSERT INTO agents (name) VALUES (1)', 'INSERT'],
      ['update customers set tier = 1', 'UPDATE'],
      ['DELETE FROM agent_runs', 'DELETE'],
      ['REPLACE INTO agents (name) VALUES (1)', 'REPLACE'],
      ['CREATE TABLE x (a)', 'CREATE'],
      ['DROP TABLE conversations', 'DROP'],
      ['ALTER TABLE agents ADD COLUMN x', 'ALTER'],
      ["ATTACH DATABASE ':memory:' AS other", 'ATTACH'],
      ['DETACH other', 'DETACH'],
      ['PRAGMA query_only = OFF', 'PRAGMA'],
      ['VACUUM', 'VACUUM'],
      ['BEGIN', 'BEGIN'],
      ['EXPLAIN SELECT 1', 'EXPLAIN'],
      ['/* SELECT */ DELETE FROM agents', 'DELETE'],
    ];
    for (const [sql, verb] of cases) {
      const article = /^[AEIOU]/.test(verb) ? 'an' : 'a';
      assert.equal(refusal(sql), `Only read-only SELECT or WITH queries can be run; this is ${article} ${verb} statement.`, sql);
    }
    assert.equal(refusal('(SELECT 1)'), 'Only read-only SELECT or WITH queries can be run; this is not a SELECT statement.');
  });

  it('refuses a WITH clause that leads into a write', () => {
    const sql = 'WITH doomed AS (SELECT id FROM conversations WHERE csat IS NULL) DELETE FROM conversations WHERE id IN doomed';
    assert.equal(refusal(sql), 'Only read-only queries can be run; this WITH query ends in a DELETE statement.');
    assert.match(refusal('WITH a AS (SELECT 1), b AS (SELECT 2) INSERT INTO agents SELECT * FROM a'), /ends in an INSERT statement/);
  });

  it('reads quoted identifiers as the names they stand for', () => {
    const names = tokenizeSql('"agent ""runs""" `x` [my table] plain').map(identifierName);
    assert.deepEqual(names, ['agent "runs"', 'x', 'my table', 'plain']);
  });

  it('lets an unterminated quote run to the end so SQLite reports it', () => {
    assert.equal(countStatements("SELECT 'open; DROP TABLE agents"), 1);
  });
});
