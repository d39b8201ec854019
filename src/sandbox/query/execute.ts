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
}

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
    truncated: rowSet.rows.length < rowSet.rowCount,
  };
  return { status: 'SUCCESS', results: [result] };
}

/** Steps through every row (to count them) but renders only the first `maxRows`. */
function readRows(statement: Statement, maxRows: number): RowSet {
  const columnNames = statement.getColumnNames();
  const profiles = columnNames.map(() => new ColumnProfile());
  const reader = statement as unknown as BigIntRowReader;
  const rows: (string | null)[][] = [];
  let rowCount = 0;
  while (statement.step()) {
    rowCount++;
    if (rows.length >= maxRows) continue;
    const values = reader.get(null, USE_BIGINT);
    const row = new Array<string | null>(values.length);
    for (let i = 0; i < values.length; i++) row[i] = (profiles[i] as ColumnProfile).render(values[i] ?? null);
    rows.push(row);
  }
  return { columnNames, profiles, rows, rowCount };
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
