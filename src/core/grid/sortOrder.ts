/** Ordering the rows of a result by one column, the way the column's kind reads. */
import type { ColumnKind } from './columnKinds';
import { compareDecimalText, compareText, dateKey, numberKey } from './sortKeys';

export type SortDirection = 'asc' | 'desc';

/** Rows as the service sends them: text cells, SQL NULL as null. */
export type Rows = readonly (readonly (string | null)[])[];

// Every cell falls in one of three groups, and the groups keep this order in both directions.
const VALUE = 0;
const UNREADABLE = 1;
const NULL = 2;

/**
 * Text order shared by every sort: locale-aware, case-sensitive only where nothing else differs.
 * Made on the first sort, not when the module loads: building a collator takes milliseconds, and
 * this module is part of the bundle evaluated at activation.
 */
let collator: Intl.Collator | undefined;
function textCollator(): Intl.Collator {
  collator ??= new Intl.Collator('en', { sensitivity: 'variant' });
  return collator;
}

/**
 * The row indexes of `rows` sorted by `column`: numbers by value, dates by time, text by collation.
 * NULLs come last in both directions, and cells that do not read as the column's kind (e.g. `nan`
 * in a number column) come after the values but before the NULLs. Equal cells keep their order.
 */
export function sortOrder(rows: Rows, column: number, kind: ColumnKind, direction: SortDirection): Uint32Array {
  const n = rows.length;
  const groups = new Uint8Array(n);
  const texts = new Array<string>(n);
  const keys = kind === 'text' ? undefined : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const cell = rows[i]?.[column] ?? null;
    texts[i] = cell ?? '';
    if (cell === null) groups[i] = NULL;
    else if (keys) {
      const key = kind === 'number' ? numberKey(cell) : dateKey(cell);
      keys[i] = key;
      groups[i] = Number.isNaN(key) ? UNREADABLE : VALUE;
    }
  }
  const sign = direction === 'asc' ? 1 : -1;
  const byCollation = textCollator().compare;
  const compareValues = keys ? keyComparator(keys, texts, kind) : (a: number, b: number) => byCollation(texts[a] as string, texts[b] as string);
  const indexes = Array.from({ length: n }, (_, i) => i);
  indexes.sort((a, b) => {
    const group = (groups[a] as number) - (groups[b] as number);
    if (group !== 0) return group;
    if (groups[a] === NULL) return a - b;
    const order = groups[a] === VALUE ? compareValues(a, b) : byCollation(texts[a] as string, texts[b] as string);
    return sign * order || a - b;
  });
  return Uint32Array.from(indexes);
}

/** Compares by key, breaking ties of equal doubles exactly (big integers, sub-millisecond times). */
function keyComparator(keys: Float64Array, texts: readonly string[], kind: ColumnKind): (a: number, b: number) => number {
  return (a, b) => {
    const x0 = keys[a] as number;
    const y0 = keys[b] as number;
    // Comparisons, not a difference: Infinity - Infinity is NaN.
    if (x0 !== y0) return x0 < y0 ? -1 : 1;
    const x = texts[a] as string;
    const y = texts[b] as string;
    if (x === y) return 0;
    return kind === 'number' ? compareDecimalText(x, y) : compareText(x, y);
  };
}
