import * as assert from 'node:assert/strict';
import type { Database, SqlJsStatic } from 'sql.js';
import { loadSqlite } from '../../../src/sandbox/sqlite';
import { buildDemoDatabase } from '../../../src/sandbox/query/demoDatabase';
import { TRICKY_CUSTOMER_NAMES } from '../../../src/sandbox/query/demoCustomers';
import { TRICKY_SUMMARIES } from '../../../src/sandbox/query/demoActivity';

function scalar(db: Database, sql: string): unknown {
  return db.exec(sql)[0]?.values[0]?.[0];
}

function dump(db: Database, table: string): string {
  return JSON.stringify(db.exec(`SELECT * FROM ${table} ORDER BY id`)[0]?.values);
}

describe('the demo warehouse', () => {
  let SQL: SqlJsStatic;
  let db: Database;

  before(async () => {
    SQL = await loadSqlite();
    db = buildDemoDatabase(SQL);
  });
  after(() => db.close());

  it('builds a fresh copy with every table, and reports how long that took', () => {
    const started = performance.now();
    const fresh = buildDemoDatabase(SQL);
    const elapsed = performance.now() - started;
    try {
      const tables = fresh.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")[0]?.values.flat() ?? [];
      assert.ok(tables.length >= 4, `tables: ${tables.join(', ')}`);
    } finally {
      fresh.close();
    }
    // Reported, not asserted: this machine is shared and noisy.
    console.log(`      demo database built in ${Math.round(elapsed)} ms`);
  });

  it('comes out the same on every build', () => {
    const again = buildDemoDatabase(SQL);
    try {
      for (const table of ['customers', 'agents', 'conversations', 'agent_runs']) assert.equal(dump(again, table), dump(db, table), table);
    } finally {
      again.close();
    }
  });

  it('holds thousands of conversations and their runs, with NULLs where data is missing', () => {
    assert.equal(scalar(db, 'SELECT count(*) FROM customers'), 400);
    assert.equal(scalar(db, 'SELECT count(*) FROM agents'), 8);
    assert.equal(scalar(db, 'SELECT count(*) FROM conversations'), 6000);
    assert.ok(Number(scalar(db, 'SELECT count(*) FROM agent_runs')) > 10_000);
    assert.ok(Number(scalar(db, 'SELECT count(*) FROM conversations WHERE csat IS NULL')) > 1000);
    assert.ok(Number(scalar(db, 'SELECT count(*) FROM agent_runs WHERE conversation_id IS NULL')) > 0);
    assert.ok(Number(scalar(db, 'SELECT count(*) FROM customers WHERE churned_at IS NOT NULL')) > 0);
  });

  it('adds up: a conversation costs what its runs cost', () => {
    const mismatches = scalar(db, `SELECT count(*) FROM conversations c
      WHERE c.tokens_in <> (SELECT sum(r.tokens_in) FROM agent_runs r WHERE r.conversation_id = c.id)
         OR abs(c.cost_usd - (SELECT sum(r.cost_usd) FROM agent_runs r WHERE r.conversation_id = c.id)) > 0.000001`);
    assert.equal(mismatches, 0);
  });

  it('keeps the rows whose text tests escaping', () => {
    assert.equal(scalar(db, 'SELECT name FROM customers WHERE id = 7'), TRICKY_CUSTOMER_NAMES[7]);
    assert.equal(scalar(db, 'SELECT summary FROM conversations WHERE id = 43'), TRICKY_SUMMARIES[43]);
    assert.match(String(TRICKY_SUMMARIES[43]), /\n/);
  });

  it('refuses writes by itself (query_only), whatever gets past the statement check', () => {
    assert.equal(scalar(db, 'PRAGMA query_only'), 1);
    for (const sql of ['DELETE FROM agents', "INSERT INTO agents (name) VALUES ('x')", 'DROP TABLE customers', 'CREATE TABLE t (a)']) {
      assert.throws(() => db.run(sql), /readonly database/, sql);
    }
    assert.equal(scalar(db, 'SELECT count(*) FROM agents'), 8);
  });
});
