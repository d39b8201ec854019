// The comparison table's columns: their titles, classes and widths. Widths are worked out once per
// table width (pixels for every column, the flexible ones sharing what is left), so the head and the
// rows are placed from the same numbers and no row asks the layout engine to size its columns.
import type { ColumnRef } from '../../core/comparison/caseTable';

/** A column's least width (px) and its share of the width left over (0: fixed). */
interface Track {
  min: number;
  share: number;
}

function track(column: ColumnRef): Track {
  if (column.kind === 'case') return { min: 160, share: 2 };
  if (column.kind === 'expected') return { min: 90, share: 1 };
  const f = column.field;
  if (f === 'state') return { min: 72, share: 0 };
  if (typeof f === 'object') return { min: 100, share: 1.5 };
  return { min: f === 'cost' ? 72 : 86, share: 0 };
}

/** The least width of the whole table (px). */
export function minTableWidth(columns: readonly ColumnRef[]): number {
  return columns.reduce((sum, column) => sum + track(column).min, 0);
}

/**
 * Pixel widths of the columns in a table `available` px wide (at least their least widths): the
 * flexible columns share the room left by the fixed ones in proportion, none below its least width.
 */
export function columnWidths(columns: readonly ColumnRef[], available: number): number[] {
  const tracks = columns.map(track);
  const widths = tracks.map((t) => t.min);
  let flexible = tracks.map((t, i) => (t.share > 0 ? i : -1)).filter((i) => i >= 0);
  // A column whose share is below its least width keeps that width; the others share again.
  for (;;) {
    const fixed = widths.reduce((sum, w, i) => (flexible.includes(i) ? sum : sum + w), 0);
    const room = Math.max(0, Math.max(available, minTableWidth(columns)) - fixed);
    const shares = flexible.reduce((sum, i) => sum + tracks[i]!.share, 0);
    const short = flexible.filter((i) => (room * tracks[i]!.share) / shares < tracks[i]!.min);
    if (short.length === 0) {
      for (const i of flexible) widths[i] = Math.floor((room * tracks[i]!.share) / shares);
      return widths;
    }
    flexible = flexible.filter((i) => !short.includes(i));
  }
}

/** The classes of a column's cells (head and rows). */
export function columnClass(column: ColumnRef): string {
  if (column.kind !== 'target') return `col col-${column.kind}`;
  const f = column.field;
  const name = typeof f === 'string' ? f : 'key';
  return `col col-${name} group-${column.target % 2 === 0 ? 'even' : 'odd'}${f === 'state' ? ' group-start' : ''}`;
}

/** A column's title in the head. */
export function columnTitle(keys: readonly string[], column: ColumnRef): string {
  if (column.kind === 'case') return 'Case';
  if (column.kind === 'expected') return 'Expected';
  const f = column.field;
  if (f === 'state') return 'Status';
  if (f === 'cost') return 'Cost';
  if (f === 'tokens') return 'Tokens';
  if (f === 'duration') return 'Duration';
  return keys[f.key] ?? '';
}
