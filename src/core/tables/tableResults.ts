/**
 * The tables API answers with rows as objects of JSON values; the results grid reads the database
 * query result's form (column names and types, rows of text). These turn one into the other, so the
 * grid, its sorting and its export stay one.
 */
import type { QueryResult, QueryResultSet } from '../client/schemas/database';
import type { TableColumn, TablePreview, TableQueryResult } from '../client/schemas/tables';

/** A cell as the grid shows it: text, or null for SQL NULL; nested values as JSON text. */
export function cellText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    // A value JSON cannot write (a cycle): say what it is rather than lose the row.
    return Object.prototype.toString.call(value);
  }
}

/** Column names: the listed ones, else the keys of the first row (an answer may leave `columns` out). */
function columnsOf(columns: readonly TableColumn[] | null | undefined, rows: readonly Record<string, unknown>[]): TableColumn[] {
  if (columns && columns.length > 0) return [...columns];
  return Object.keys(rows[0] ?? {}).map((name) => ({ name, type: null }));
}

function toResult(columnList: TableColumn[], rows: readonly Record<string, unknown>[], extra: Partial<QueryResult>): QueryResult {
  return {
    column_names: columnList.map((c) => c.name),
    column_types: columnList.map((c) => c.type ?? ''),
    result_rows: rows.map((row) => columnList.map((c) => cellText(row[c.name]))),
    row_count: rows.length,
    ...extra,
  };
}

/** What `truncated` means, in words shown next to the rows. */
export function truncatedMeaning(limit: number | undefined): string {
  const cap = limit === undefined ? 'the row limit' : `the row limit of ${limit.toLocaleString('en-US')}`;
  return `The result hit ${cap} (or the service's size cap): more rows may exist, and a very large cell may be shortened. Narrow the query or raise the limit (at most 1,000) to see more.`;
}

/** A finished table query as the grid's result set; `execution_time_ms` becomes the elapsed time shown. */
export function tableQueryResultSet(result: TableQueryResult, sql?: string): QueryResultSet {
  const rows = result.rows ?? [];
  const elapsed = result.execution_time_ms;
  const set: QueryResult = toResult(columnsOf(result.columns, rows), rows, {
    query: sql,
    truncated: result.truncated === true,
    summary: typeof elapsed === 'number' && elapsed >= 0 ? { elapsed_ns: Math.round(elapsed * 1e6) } : undefined,
  });
  return { worksheet_query_id: result.table_query_id, status: result.status, results: [set], error: result.error };
}

/** A table's preview as the grid's result set. */
export function previewResultSet(preview: TablePreview, key: string): QueryResultSet {
  const rows = preview.rows ?? [];
  const set = toResult(columnsOf(preview.columns, rows), rows, { query: `preview of ${preview.table_name}` });
  return { worksheet_query_id: key, status: 'SUCCESS', results: [set], error: null };
}
