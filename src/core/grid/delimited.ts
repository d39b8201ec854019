/**
 * CSV (RFC 4180) for export and tab-separated text for the clipboard, quoted so any cell survives.
 * The CSV file is also guarded against formula injection: a spreadsheet opening it runs nothing.
 */
import type { ColumnKind } from './columnKinds';
import type { Rows } from './sortOrder';

export interface DelimitedFormat {
  delimiter: string;
  lineEnd: string;
  /** Whether an empty text is written `""`, so that it reads back apart from NULL (written as nothing). */
  quoteEmpty: boolean;
  /** Whether cells a spreadsheet would run as a formula are written as text (see {@link guardFormula}). */
  guardFormulas: boolean;
}

/** CSV as spreadsheets and RFC 4180 read it: commas, CRLF, `""` for an empty text, nothing for NULL, formulas guarded. */
export const CSV: DelimitedFormat = { delimiter: ',', lineEnd: '\r\n', quoteEmpty: true, guardFormulas: true };

/**
 * What spreadsheets and editors paste: tabs and newlines, quoted only where a cell needs it. Guarded
 * like CSV, since a paste into a spreadsheet reads formulas just as opening a file does; an empty text
 * is `""`, so that it stays apart from NULL.
 */
export const TSV: DelimitedFormat = { delimiter: '\t', lineEnd: '\n', quoteEmpty: true, guardFormulas: true };

// What spreadsheets take as the start of a formula (OWASP, "CSV Injection"): `= + - @`, also in their
// full-width forms, and also behind leading white space (spaces, NBSP, U+3000, line breaks), which
// spreadsheets skip before reading a formula; a leading tab or CR. And a plain number.
const FORMULA_START = /^(?:[\t\r]|[\s\u00a0\u3000\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20])/;
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A cell as a spreadsheet should read it: one that would start a formula gets a leading `'`, which
 * spreadsheets read as "this is text" — except a plain (negative) number in a numeric column, which
 * stays a number.
 */
export function guardFormula(value: string, kind: ColumnKind | undefined): string {
  if (!FORMULA_START.test(value)) return value;
  if (kind === 'number' && PLAIN_NUMBER.test(value)) return value;
  return `'${value}`;
}

// Rows per chunk: large enough to be cheap, small enough that a 100 MB export never sits in one string.
const CHUNK_ROWS = 2000;

/** One field: quoted (inner quotes doubled) when it holds the delimiter, a quote or a line break. */
export function delimitedField(value: string | null, format: DelimitedFormat, kind?: ColumnKind): string {
  if (value === null) return '';
  if (value === '') return format.quoteEmpty ? '""' : '';
  if (format.guardFormulas) value = guardFormula(value, kind);
  const needsQuotes = value.includes(format.delimiter) || value.includes('"') || value.includes('\n') || value.includes('\r');
  return needsQuotes ? `"${value.replaceAll('"', '""')}"` : value;
}

/** What to write: the header names, the rows, in which order, and which columns. */
export interface TableSlice {
  /** Column names for the header line; no header when undefined. */
  names?: readonly string[];
  rows: Rows;
  /** Row indexes to write, in order; every row in its own order when undefined. */
  order?: ArrayLike<number>;
  /** First and last column to write (inclusive); every column when undefined. */
  columns?: readonly [number, number];
  /** The kind of each column (numbers are kept as numbers); all text when undefined. */
  kinds?: readonly ColumnKind[];
}

/** The delimited text of a table, in chunks of whole lines, each ending with a line break. */
export function* delimitedChunks(table: TableSlice, format: DelimitedFormat): Generator<string> {
  const width = table.names?.length ?? table.rows[0]?.length ?? 0;
  const [first, last] = table.columns ?? [0, width - 1];
  const line = (cells: readonly (string | null)[], kinds: readonly ColumnKind[] | undefined): string => {
    const fields: string[] = [];
    for (let c = first; c <= last; c++) fields.push(delimitedField(cells[c] ?? null, format, kinds?.[c]));
    return fields.join(format.delimiter) + format.lineEnd;
  };
  if (table.names) yield line(table.names, undefined);
  const count = table.order ? table.order.length : table.rows.length;
  for (let start = 0; start < count; start += CHUNK_ROWS) {
    const lines: string[] = [];
    for (let i = start; i < Math.min(count, start + CHUNK_ROWS); i++) {
      const row = table.rows[table.order ? (table.order[i] as number) : i];
      if (row) lines.push(line(row, table.kinds));
    }
    yield lines.join('');
  }
}

/** The whole delimited text of a table as one string (for the clipboard). */
export function delimitedText(table: TableSlice, format: DelimitedFormat): string {
  return Array.from(delimitedChunks(table, format)).join('');
}
