// Small builders of query results for the grid's tests.
import type { QueryResult } from '../../../src/core/client/schemas/database';

type Cell = string | null;

/** A result with these columns (`name:Type`) and rows. */
export function result(columns: string[], rows: Cell[][], extra: Partial<QueryResult> = {}): QueryResult {
  return {
    query: 'SELECT 1',
    row_count: rows.length,
    column_names: columns.map((c) => c.split(':')[0] ?? c),
    column_types: columns.map((c) => c.split(':')[1] ?? 'String'),
    result_rows: rows,
    ...extra,
  };
}

/** `n` rows of `width` cells whose text names the row and column ("r12c3"). */
export function numberedRows(n: number, width: number): string[][] {
  return Array.from({ length: n }, (_, r) => Array.from({ length: width }, (_, c) => `r${r}c${c}`));
}

/** Values of one column in the given row order. */
export function columnIn(rows: readonly (readonly Cell[])[], order: ArrayLike<number>, column = 0): Cell[] {
  return Array.from(order, (i) => rows[i]?.[column] ?? null);
}
