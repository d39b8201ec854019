/**
 * How the comparison page orders and filters the cases it was sent. Bundled into the page: it imports
 * nothing but the protocol's types.
 */
import { matchesTransition, type TransitionFilter } from './transitionFilter';
import type { RowView } from './viewProtocol';

/** A column of the case table: the case itself, its expectation, or one field of one target. */
export type ColumnRef = { kind: 'case' } | { kind: 'expected' } | { kind: 'target'; target: number; field: 'state' | 'cost' | 'tokens' | 'duration' | { key: number } };

/** The columns of a comparison with `targets` targets and `keys` compared keys, in display order. */
export function columnsOf(targets: number, keys: number): ColumnRef[] {
  const columns: ColumnRef[] = [{ kind: 'case' }, { kind: 'expected' }];
  for (let t = 0; t < targets; t++) {
    columns.push({ kind: 'target', target: t, field: 'state' });
    for (let k = 0; k < keys; k++) columns.push({ kind: 'target', target: t, field: { key: k } });
    columns.push({ kind: 'target', target: t, field: 'cost' }, { kind: 'target', target: t, field: 'tokens' }, { kind: 'target', target: t, field: 'duration' });
  }
  return columns;
}

/** The value of a row in a column, for sorting (numbers sort as numbers; missing values last). */
export function sortValue(row: RowView, column: ColumnRef): string | number | null {
  if (column.kind === 'case') return row.case;
  if (column.kind === 'expected') return row.expected;
  const cell = row.cells[column.target];
  if (!cell) return null;
  const field = column.field;
  if (field === 'state') return cell.state;
  if (field === 'cost') return cell.cost;
  if (field === 'tokens') return cell.tokens;
  if (field === 'duration') return cell.durationMs;
  return cell.values[field.key] ?? null;
}

export interface RowFilter {
  onlyChanged: boolean;
  onlyFailed: boolean;
  onlyMismatches: boolean;
  /** Text a case's name, tags, expectation or values must contain (case-insensitive). */
  text: string;
  /** Only the cases of one transition between two targets (became right, an outcome pair…). */
  transition?: TransitionFilter | null;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Row indexes to show, filtered and sorted (stable: equal rows keep the test set's order). */
export function visibleRows(rows: readonly RowView[], filter: RowFilter, sort: { column: ColumnRef; descending: boolean } | null): number[] {
  const needle = filter.text.trim().toLowerCase();
  const order: number[] = [];
  rows.forEach((row, i) => {
    if (filter.onlyChanged && !row.changed) return;
    if (filter.onlyFailed && !row.failed) return;
    if (filter.onlyMismatches && !row.mismatch) return;
    if (needle && !rowText(row).includes(needle)) return;
    if (filter.transition && !matchesTransition(row, filter.transition)) return;
    order.push(i);
  });
  if (!sort) return order;
  const values = new Map(order.map((i) => [i, sortValue(rows[i]!, sort.column)]));
  const sign = sort.descending ? -1 : 1;
  return order.sort((a, b) => {
    const va = values.get(a) ?? null;
    const vb = values.get(b) ?? null;
    if (va === null || vb === null) return va === vb ? a - b : va === null ? 1 : -1;
    const c = typeof va === 'number' && typeof vb === 'number' ? va - vb : collator.compare(String(va), String(vb));
    return c === 0 ? a - b : sign * c;
  });
}

function rowText(row: RowView): string {
  return [row.case, row.tags, row.expected ?? '', ...row.cells.flatMap((c) => c.values.map((v) => v ?? ''))].join('\n').toLowerCase();
}
