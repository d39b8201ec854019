/** JSON export: an array with one object per row, keyed by column name, values as the service sent them. */
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

/**
 * The JSON text of a table in chunks: `[`, one object per line, `]`. Cells stay text (as the service
 * sent them: 64-bit integers and decimals keep every digit) and NULL is `null`.
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
      const fields = keys.map((key, c) => key + JSON.stringify(row[c] ?? null));
      lines.push(`  {${fields.join(', ')}}${i < count - 1 ? ',' : ''}\n`);
    }
    yield lines.join('');
  }
  yield ']\n';
}
