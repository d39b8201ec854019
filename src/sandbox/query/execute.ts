// Runs one statement on the demo database and shapes the answer like a ClickHouse-backed service:
// text values, ClickHouse type names, a summary with read/result counters, at most `maxRows` rows.

import { randomUUID } from 'node:crypto';
import type { Database, Statement } from 'sql.js';
import { declaredColumn, tablesNamedIn, type Catalog, type CatalogTable } from './catalog';
import { ColumnProfile, isBoolType, type SqliteValue } from './columnProfile';
import { checkReadOnlyQuery, countStatements } from './statementGuard';
import { failure, type QueryOutcome, type QueryResult, type QuerySummary } from './types';

/** sql.js accepts this second argument to `get`; its type definitions leave it out. */
interface BigIntRowReader {
  get(params: null, config: { useBigInt: true }): SqliteValue[];
}
const USE_BIGINT = { useBigInt: true } as const;

interface RowSet {
  columnNames: string[];
  profiles: ColumnProfile[];
  rows: (string | null)[][];
  rowCount: number;
  /** A cell was cut, or rows were left out to keep the result within its size. */
  capped: boolean;
}

/**
 * Longest text of one cell (a blob counts by its hex text), and most text of one result: past them
 * a result is cut and says `truncated`, so no query can make the results kept for polling unbounded.
 */
export const MAX_CELL_CHARS = 1_000_000;
export const MAX_RESULT_CHARS = 16_000_000;

/** Runs one read-only statement; every problem comes back as a FAILURE with a readable message. */
export function executeQuery(db: Database, catalog: Catalog, sql: string, maxRows: number): QueryOutcome {
  const verdict = checkReadOnlyQuery(sql);
  if (!verdict.ok) return failure(verdict.error);
  const startTimestamp = unixSeconds();
  const started = process.hrtime.bigint();
  const statements = db.iterateStatements(sql);
  let rowSet: RowSet;
  try {
    const first = statements.next();
    if (first.done) return failure('The query is empty: write one SELECT statement.');
    // SQLite's own parser says where the statement ends: nothing may follow but comments.
    if (countStatements(statements.getRemainingSQL()) > 0) return failure('Only one statement can be run at a time.');
    rowSet = readRows(first.value, maxRows);
  } catch (error) {
    return failure(error instanceof Error ? error.message : String(error));
  } finally {
    // Frees the prepared statement and the copy of the SQL text inside SQLite's heap.
    (statements as unknown as { return(): void }).return();
  }
  const elapsedNs = Number(process.hrtime.bigint() - started);
  const tables = tablesNamedIn(catalog, verdict.tokens);
  const columnTypes = rowSet.profiles.map((p, i) => p.typeName(declaredColumn(tables, rowSet.columnNames[i] ?? '')));
  showBooleans(rowSet, columnTypes);
  const queryId = randomUUID();
  const result: QueryResult = {
    query: sql.trim(),
    summary: summarize(rowSet, tables, elapsedNs, queryId),
    row_count: rowSet.rowCount,
    column_names: rowSet.columnNames,
    column_types: columnTypes,
    result_rows: rowSet.rows,
    start_timestamp: startTimestamp,
    end_timestamp: unixSeconds(),
    query_id: queryId,
    truncated: rowSet.capped || rowSet.rows.length < rowSet.rowCount,
  };
  return { status: 'SUCCESS', results: [result] };
}

/** Steps through every row (to count them) but renders only the first `maxRows`, within {@link MAX_RESULT_CHARS}. */
function readRows(statement: Statement, maxRows: number): RowSet {
  const columnNames = statement.getColumnNames();
  const profiles = columnNames.map(() => new ColumnProfile());
  const reader = statement as unknown as BigIntRowReader;
  const rows: (string | null)[][] = [];
  let rowCount = 0;
  let chars = 0;
  let full = false;
  let capped = false;
  while (statement.step()) {
    rowCount++;
    if (full || rows.length >= maxRows) continue;
    const values = reader.get(null, USE_BIGINT);
    const row = new Array<string | null>(values.length);
    let rowChars = 0;
    for (let i = 0; i < values.length; i++) {
      const value = capCell(values[i] ?? null);
      if (value !== values[i]) capped = true;
      const text = (profiles[i] as ColumnProfile).render(value);
      row[i] = text;
      rowChars += text?.length ?? 0;
    }
    chars += rowChars;
    if (chars > MAX_RESULT_CHARS && rows.length > 0) {
      full = true;
      capped = true;
      continue;
    }
    rows.push(row);
  }
  return { columnNames, profiles, rows, rowCount, capped };
}

/** A value cut to {@link MAX_CELL_CHARS} of text before it is rendered (the same value when it fits). */
function capCell(value: SqliteValue): SqliteValue {
  if (typeof value === 'string') return value.length > MAX_CELL_CHARS ? value.slice(0, MAX_CELL_CHARS) : value;
  if (value instanceof Uint8Array) return value.byteLength * 2 > MAX_CELL_CHARS ? value.subarray(0, MAX_CELL_CHARS / 2) : value;
  return value;
}

/** Bool columns hold 0/1 in SQLite; ClickHouse shows them as false/true. */
function showBooleans(rowSet: RowSet, columnTypes: readonly string[]): void {
  columnTypes.forEach((type, i) => {
    if (!isBoolType(type)) return;
    const profile = rowSet.profiles[i] as ColumnProfile;
    for (const row of rowSet.rows) {
      const value = row[i];
      if (value === '0' || value === '1') {
        row[i] = value === '1' ? 'true' : 'false';
        profile.bytes += (row[i]).length - 1;
      }
    }
  });
}

/**
 * Counters like ClickHouse's: reading touches every row of the tables the query names (we have no
 * partial scans to report), and a query naming no table reads the rows it generates, 8 bytes each
 * (like ClickHouse's `numbers()`). Result counters describe the rows actually sent.
 */
function summarize(rowSet: RowSet, tables: readonly CatalogTable[], elapsedNs: number, queryId: string): QuerySummary {
  const readRows = tables.length > 0 ? tables.reduce((sum, t) => sum + t.rowCount, 0) : rowSet.rowCount;
  const readBytes = tables.length > 0 ? tables.reduce((sum, t) => sum + t.rowCount * t.bytesPerRow, 0) : rowSet.rowCount * 8;
  return {
    read_rows: readRows,
    read_bytes: Math.round(readBytes),
    written_rows: 0,
    written_bytes: 0,
    total_rows_to_read: readRows,
    result_rows: rowSet.rows.length,
    result_bytes: rowSet.profiles.reduce((sum, p) => sum + p.bytes, 0),
    elapsed_ns: elapsedNs,
    query_id: queryId,
  };
}

function unixSeconds(): number {
  return (performance.timeOrigin + performance.now()) / 1000;
}
