// The demo warehouse: what an analytics database of an AI agent platform holds. Declared types are
// the ones SQLite keeps (read back with PRAGMA table_info) and map to ClickHouse names in results.

import type { SqlValue } from 'sql.js';

export interface DemoColumn {
  name: string;
  /** Declared SQLite type: INTEGER, REAL, TEXT, DATE, DATETIME, BOOLEAN or UUID. */
  type: string;
  nullable?: boolean;
  primaryKey?: boolean;
}

export interface DemoTable {
  name: string;
  columns: readonly DemoColumn[];
}

export type DemoRow = Record<string, SqlValue>;

const col = (name: string, type: string, extra: Partial<DemoColumn> = {}): DemoColumn => ({ name, type, ...extra });
const nullable = { nullable: true };
const key = { primaryKey: true };

export const CUSTOMERS: DemoTable = {
  name: 'customers',
  columns: [
    col('id', 'INTEGER', key),
    col('name', 'TEXT'),
    col('tier', 'TEXT'),
    col('region', 'TEXT'),
    col('country', 'TEXT'),
    col('signed_up_on', 'DATE'),
    col('seats', 'INTEGER'),
    col('mrr_usd', 'REAL'),
    col('account_manager', 'TEXT', nullable),
    col('churned_at', 'DATETIME', nullable),
  ],
};

export const AGENTS: DemoTable = {
  name: 'agents',
  columns: [
    col('id', 'UUID', key),
    col('name', 'TEXT'),
    col('engine', 'TEXT'),
    col('model', 'TEXT'),
    col('current_version', 'TEXT'),
    col('owner_email', 'TEXT'),
    col('created_at', 'DATETIME'),
    col('is_active', 'BOOLEAN'),
  ],
};

export const CONVERSATIONS: DemoTable = {
  name: 'conversations',
  columns: [
    col('id', 'INTEGER', key),
    col('started_at', 'DATETIME'),
    col('customer_id', 'INTEGER'),
    col('channel', 'TEXT'),
    col('region', 'TEXT'),
    col('customer_tier', 'TEXT'),
    col('agent_name', 'TEXT'),
    col('disposition', 'TEXT'),
    col('csat', 'INTEGER', nullable),
    col('duration_s', 'INTEGER'),
    col('tokens_in', 'INTEGER'),
    col('tokens_out', 'INTEGER'),
    col('cost_usd', 'REAL'),
    col('summary', 'TEXT', nullable),
  ],
};

export const AGENT_RUNS: DemoTable = {
  name: 'agent_runs',
  columns: [
    col('id', 'INTEGER', key),
    col('job_id', 'UUID'),
    col('conversation_id', 'INTEGER', nullable),
    col('agent_name', 'TEXT'),
    col('agent_version', 'TEXT'),
    col('model', 'TEXT'),
    col('status', 'TEXT'),
    col('status_code', 'INTEGER'),
    col('started_at', 'DATETIME'),
    col('finished_at', 'DATETIME', nullable),
    col('latency_ms', 'INTEGER', nullable),
    col('tokens_in', 'INTEGER'),
    col('tokens_out', 'INTEGER'),
    col('cost_usd', 'REAL'),
    col('cache_hit', 'BOOLEAN'),
    col('grader_score', 'REAL', nullable),
    col('error_message', 'TEXT', nullable),
  ],
};

export const DEMO_TABLES: readonly DemoTable[] = [CUSTOMERS, AGENTS, CONVERSATIONS, AGENT_RUNS];

/** The demo tables' indexes: their names are taken in every organization's database too. */
export const DEMO_INDEXES: readonly { name: string; table: string; column: string }[] = [
  { name: 'conversations_started_at', table: 'conversations', column: 'started_at' },
  { name: 'conversations_customer', table: 'conversations', column: 'customer_id' },
  { name: 'agent_runs_conversation', table: 'agent_runs', column: 'conversation_id' },
];

/** The CREATE TABLE statement of a demo table. */
export function createTableSql(table: DemoTable): string {
  const columns = table.columns.map((c) => {
    const constraints = [c.primaryKey ? 'PRIMARY KEY' : '', c.nullable ? '' : 'NOT NULL'].filter(Boolean);
    return `  ${c.name} ${c.type}${constraints.length ? ' ' + constraints.join(' ') : ''}`;
  });
  return `CREATE TABLE ${table.name} (\n${columns.join(',\n')}\n)`;
}

/** Demo dates run over the first half of 2025 (UTC). */
export const DEMO_START_MS = Date.UTC(2025, 0, 1);
export const DEMO_SPAN_MS = Date.UTC(2025, 6, 1) - DEMO_START_MS;

/** `YYYY-MM-DD HH:MM:SS`, the text form of a ClickHouse DateTime. */
export function formatDateTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** `YYYY-MM-DD`, the text form of a ClickHouse Date. */
export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Rounds money and scores the way the warehouse stores them. */
export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
