/** Starting widths of the grid's columns, from their names and a sample of their cells. */
import type { GridColumn } from './columnKinds';

export const MIN_COLUMN_WIDTH = 48;
export const MAX_START_WIDTH = 360;
/** Cells are padded this much in all (left + right), plus room for the sort arrow in the header. */
const CELL_PADDING = 16;
const HEADER_EXTRA = 18;
/** The type under the name is written smaller. */
const TYPE_SCALE = 0.85;

/** What a cell shows in one line: line breaks as ↵ and tabs as →, long texts cut (the full value is in the cell view). */
export function displayText(value: string, limit = 1000): string {
  const cut = value.length > limit ? `${value.slice(0, limit)}…` : value;
  return cut.replace(/\r\n|\r|\n/g, '↵').replace(/\t/g, '→');
}

/**
 * Widths that fit the name, the type and the widest of the sampled cells, between a minimum and a
 * starting maximum (wider columns can still be dragged wider). `charWidth` is the width of one
 * character of the grid's font.
 */
export function startWidths(columns: readonly GridColumn[], sample: readonly (readonly (string | null)[])[], charWidth: number): number[] {
  return columns.map((column, c) => {
    let chars = Math.max(column.name.length, Math.ceil(column.type.length * TYPE_SCALE));
    let header = chars * charWidth + HEADER_EXTRA;
    for (const row of sample) {
      const cell = row[c];
      const length = cell === null || cell === undefined ? 4 : Math.min(cell.length, 200);
      if (length > chars) chars = length;
    }
    header = Math.max(header, chars * charWidth);
    return Math.round(Math.max(MIN_COLUMN_WIDTH, Math.min(MAX_START_WIDTH, header + CELL_PADDING)));
  });
}
