// Query results of the tables API: rows as objects of JSON values, the way the live service sends a
// ClickHouse result (numbers as numbers, booleans as booleans, everything else as text).

import type { QueryResult } from '../query/index';
import { unwrapNullable } from './columnTypes';
import { columnNames } from './csvFile';

/** A column of an answer. */
export interface AnswerColumn {
  name: string;
  type: string;
}

/** One cell, from the engine's text to the JSON value its type calls for. */
export function jsonValue(text: string | null, type: string): unknown {
  if (text === null) return null;
  const { base } = unwrapNullable(type);
  if (base === 'Bool') return text === 'true' || text === '1';
  if (base === 'Int64' || base === 'UInt64') {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : text;
  }
  if (base === 'Float64') {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  return text;
}

/** The engine's result as columns and rows keyed by column name. */
export function rowsOf(result: QueryResult): { columns: AnswerColumn[]; rows: Record<string, unknown>[] } {
  // Rows are keyed by name: a name given twice is suffixed like a repeated CSV header, so no column is lost.
  const names = columnNames(result.column_names, result.column_names.length);
  const columns = names.map((name, i) => ({ name, type: result.column_types[i] ?? 'String' }));
  const rows = result.result_rows.map((row) => {
    const object: Record<string, unknown> = {};
    // Defined, not assigned: a column named `__proto__` is data like any other.
    columns.forEach((c, i) => Object.defineProperty(object, c.name, { value: jsonValue(row[i] ?? null, c.type), enumerable: true, writable: true, configurable: true }));
    return object;
  });
  return { columns, rows };
}
