// Builds the demo warehouse in an in-memory SQLite database of its own: queries run here and never
// see the sandbox's store, so no query can read another organization's data.

import type { Database, SqlJsStatic } from 'sql.js';
import { SeededRandom } from '../seed/random';
import { generateAgents, generateCustomers } from './demoCustomers';
import { generateActivity } from './demoActivity';
import { quoteName } from './identifiers';
import { AGENT_RUNS, AGENTS, CONVERSATIONS, CUSTOMERS, DEMO_INDEXES, createTableSql, type DemoRow, type DemoTable } from './demoSchema';

/** Same seed, same warehouse: answers do not change when the worker is restarted. */
const DEMO_SEED = 20250101;

const INDEXES = DEMO_INDEXES.map((i) => `CREATE INDEX ${quoteName(i.name)} ON ${quoteName(i.table)} (${quoteName(i.column)})`);

/** Creates and fills the demo tables, then makes the database read-only for every later statement. */
export function buildDemoDatabase(SQL: SqlJsStatic): Database {
  const random = new SeededRandom(DEMO_SEED);
  const customers = generateCustomers(random);
  const agents = generateAgents(random);
  const { conversations, agentRuns } = generateActivity(random, customers, agents);
  const db = new SQL.Database();
  try {
    db.run('BEGIN');
    fill(db, CUSTOMERS, customers);
    fill(db, AGENTS, agents);
    fill(db, CONVERSATIONS, conversations);
    fill(db, AGENT_RUNS, agentRuns);
    for (const sql of INDEXES) db.run(sql);
    db.run('COMMIT');
    db.run('ANALYZE');
    // Defence in depth behind the statement check: SQLite itself refuses any write from now on.
    db.run('PRAGMA query_only = ON');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function fill(db: Database, table: DemoTable, rows: readonly DemoRow[]): void {
  db.run(createTableSql(table));
  const names = table.columns.map((c) => c.name);
  const insert = db.prepare(`INSERT INTO ${table.name} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`);
  try {
    for (const row of rows) insert.run(names.map((name) => row[name] ?? null));
  } finally {
    insert.free();
  }
}
