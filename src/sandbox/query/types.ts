// Shapes of a database query result (interface section 2, "Database query result"), plus the
// messages exchanged with the query worker.

import type { ThreadMessage } from '../workers/threadWorker';

/** Counters of one query, like a ClickHouse-backed service reports them. */
export interface QuerySummary {
  read_rows: number;
  read_bytes: number;
  written_rows: number;
  written_bytes: number;
  total_rows_to_read: number;
  result_rows: number;
  result_bytes: number;
  elapsed_ns: number;
  query_id: string;
}

/** The result of one statement: every value is text, SQL NULL is `null`. */
export interface QueryResult {
  query: string;
  summary: QuerySummary;
  /** All rows the query produced, also when fewer were sent (`truncated`). */
  row_count: number;
  column_names: string[];
  column_types: string[];
  result_rows: (string | null)[][];
  /** Fractional Unix seconds. */
  start_timestamp: number;
  end_timestamp: number;
  query_id: string;
  /** True when `result_rows` holds only the first `maxRows` of `row_count` rows. */
  truncated: boolean;
}

export type QueryOutcome = { status: 'SUCCESS'; results: QueryResult[] } | { status: 'FAILURE'; error: string };

/** An organization's uploaded table, as the worker loads it from its CSV file. */
export interface ScopeTable {
  name: string;
  file: string;
  withHeaders: boolean;
  columns: { name: string; type: string }[];
  /** Changes when the table is replaced, so the worker knows to load it again. */
  version: string;
}

/** What one organization's queries see: the demo tables and its own uploaded tables, nothing else. */
export interface QueryScope {
  orgId: string;
  tables: ScopeTable[];
}

/** Options of one run: a row cap below the engine's, and the organization whose tables it sees. */
export interface RunOptions {
  maxRows?: number;
  scope?: QueryScope;
}

export interface QueryEngine {
  /** Runs one read-only statement; never rejects: errors come back as a FAILURE outcome. */
  run(sql: string, options?: RunOptions): Promise<QueryOutcome>;
  /** Stops the worker; queries still waiting end as FAILURE. */
  close(): Promise<void>;
}

export interface QueryEngineOptions {
  /** A query running longer is stopped (default 30 s). */
  timeoutMs?: number;
  /** At most this many rows are sent back (default 200,000). */
  maxRows?: number;
  /** Organizations served at the same time, a thread each (default 2). */
  threads?: number;
}

/** Main thread to worker: run one statement. */
export interface WorkerRequest {
  id: number;
  sql: string;
  maxRows: number;
  /** Without a scope, only the demo tables. */
  scope?: QueryScope;
}

/** Worker to main thread. */
export type WorkerMessage = ThreadMessage<QueryOutcome>;

/** Builds a FAILURE outcome. */
export function failure(error: string): QueryOutcome {
  return { status: 'FAILURE', error };
}
