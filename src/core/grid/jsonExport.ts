/** JSON export: an array with one object per row, keyed by column name; numbers of numeric columns as numbers. */
import type { ColumnKind } from './columnKinds';
import type { TableSlice } from './delimited';

const CHUNK_ROWS = 2000;

/**
 * Object keys for the columns: the names, made unique (`SELECT a, a` gives `a` and `a_2`) and never
 * empty (`column_3`), so that no value is lost to a duplicate key.
 */
export function jsonKeys(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((name, i) => {
    const base = name === '' ? `column_${i + 1}` : name;
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}_${n}`;
    used.add(key);
    return key;
  });
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
// A double keeps 15 significant decimal digits exactly; beyond that a reader's number would differ.
const EXACT_DIGITS = 15;

/**
 * One cell as JSON: a numeric column's value is written as a number when a reader gets back exactly
 * that value (so Int64 beyond 2^53 and long decimals stay text, digit for digit); `nan`/`inf`, dates and
 * text columns stay text; NULL is `null`.
 */
export function jsonValue(value: string | null, kind: ColumnKind | undefined): string {
  if (value === null) return 'null';
  if (kind === 'number' && JSON_NUMBER.test(value) && readsBackExactly(value)) return value;
  return JSON.stringify(value);
}

function readsBackExactly(literal: string): boolean {
  const [mantissa = ''] = literal.toLowerCase().split('e');
  if (!mantissa.includes('.')) return Number.isSafeInteger(Number(literal));
  const digits = mantissa.replace(/[-.]/g, '').replace(/^0+/, '');
  return digits.length <= EXACT_DIGITS && Number.isFinite(Number(literal));
}

/**
 * The JSON text of a table in chunks: `[`, one object per line, `]`. Values as {@link jsonValue}
 * writes them: numbers of numeric columns as numbers unless a digit would be lost, the rest as text.
 */
export function* jsonChunks(table: TableSlice & { names: readonly string[] }): Generator<string> {
  // Written by hand rather than through an object: keys like `2` or `__proto__` keep their place and value.
  const keys = jsonKeys(table.names).map((key) => `${JSON.stringify(key)}: `);
  const count = table.order ? table.order.length : table.rows.length;
  if (count === 0) {
    yield '[]\n';
    return;
  }
  yield '[\n';
  for (let start = 0; start < count; start += CHUNK_ROWS) {
    const lines: string[] = [];
    const end = Math.min(count, start + CHUNK_ROWS);
    for (let i = start; i < end; i++) {
      const row = table.rows[table.order ? (table.order[i] as number) : i] ?? [];
      const fields = keys.map((key, c) => key + jsonValue(row[c] ?? null, table.kinds?.[c]));
      lines.push(`  {${fields.join(', ')}}${i < count - 1 ? ',' : ''}\n`);
    }
    yield lines.join('');
  }
  yield ']\n';
}
