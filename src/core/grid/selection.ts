/** The grid's selection: one rectangle from an anchor to a focus cell, moved by keys like a spreadsheet. */

export interface CellPosition {
  /** Position among the rows shown (after sort and filter), from 0. */
  row: number;
  col: number;
}

/** `rows`: whole rows (from the row numbers or Shift+Space); `columns`: whole columns (Ctrl+Space); `all`: Ctrl+A. */
export type SelectionMode = 'cells' | 'rows' | 'columns' | 'all';

export interface Selection {
  anchor: CellPosition;
  focus: CellPosition;
  mode: SelectionMode;
}

export interface GridSize {
  rows: number;
  cols: number;
}

/** The inclusive rectangle a selection covers. */
export interface CellRange {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export type Move =
  | { kind: 'by'; rows: number; cols: number }
  | { kind: 'rowStart' }
  | { kind: 'rowEnd' }
  | { kind: 'gridStart' }
  | { kind: 'gridEnd' };

const clamp = (value: number, max: number): number => Math.max(0, Math.min(max, value));

/** A single selected cell. */
export function cellSelection(cell: CellPosition, mode: SelectionMode = 'cells'): Selection {
  return { anchor: { ...cell }, focus: { ...cell }, mode };
}

/** Every cell (Ctrl/Cmd+A); undefined for an empty grid. */
export function selectAll(size: GridSize, focus?: CellPosition): Selection | undefined {
  if (size.rows === 0 || size.cols === 0) return undefined;
  const at = focus ? clampCell(focus, size) : { row: 0, col: 0 };
  return { anchor: { row: 0, col: 0 }, focus: at, mode: 'all' };
}

/** The rectangle covered, widened to whole rows or columns by the mode. */
export function selectedRange(selection: Selection, size: GridSize): CellRange {
  const { anchor, focus, mode } = selection;
  const wholeRows = mode === 'rows' || mode === 'all';
  const wholeCols = mode === 'columns' || mode === 'all';
  return {
    top: wholeCols ? 0 : Math.min(anchor.row, focus.row),
    bottom: wholeCols ? size.rows - 1 : Math.max(anchor.row, focus.row),
    left: wholeRows ? 0 : Math.min(anchor.col, focus.col),
    right: wholeRows ? size.cols - 1 : Math.max(anchor.col, focus.col),
  };
}

/** Whether a cell is inside the selection. */
export function isSelected(selection: Selection | undefined, size: GridSize, row: number, col: number): boolean {
  if (!selection) return false;
  const r = selectedRange(selection, size);
  return row >= r.top && row <= r.bottom && col >= r.left && col <= r.right;
}

/**
 * Moves the focus (arrows, Home/End, Ctrl+Home/End, PageUp/PageDown as `by` whole pages). With
 * `extend` (Shift) the anchor stays and the rectangle grows; without it one cell is selected.
 */
export function moveSelection(selection: Selection | undefined, size: GridSize, move: Move, extend: boolean): Selection | undefined {
  if (size.rows === 0 || size.cols === 0) return undefined;
  const from = selection ? clampCell(selection.focus, size) : { row: 0, col: 0 };
  const focus = target(from, size, move);
  if (extend && selection) return { anchor: clampCell(selection.anchor, size), focus, mode: selection.mode };
  return cellSelection(focus);
}

function target(from: CellPosition, size: GridSize, move: Move): CellPosition {
  switch (move.kind) {
    case 'by':
      return { row: clamp(from.row + move.rows, size.rows - 1), col: clamp(from.col + move.cols, size.cols - 1) };
    case 'rowStart':
      return { row: from.row, col: 0 };
    case 'rowEnd':
      return { row: from.row, col: size.cols - 1 };
    case 'gridStart':
      return { row: 0, col: 0 };
    case 'gridEnd':
      return { row: size.rows - 1, col: size.cols - 1 };
  }
}

/** Extends to the cell under the pointer (Shift+click, dragging), keeping the anchor and mode. */
export function extendTo(selection: Selection | undefined, size: GridSize, cell: CellPosition): Selection | undefined {
  if (size.rows === 0 || size.cols === 0) return undefined;
  const focus = clampCell(cell, size);
  if (!selection) return cellSelection(focus);
  return { anchor: clampCell(selection.anchor, size), focus, mode: selection.mode };
}

/** The same selection widened to whole rows (Shift+Space) or whole columns (Ctrl+Space). */
export function widen(selection: Selection | undefined, mode: SelectionMode): Selection | undefined {
  return selection && { ...selection, mode };
}

/** Keeps a selection inside a grid that shrank (a filter), or drops it when the grid is empty. */
export function clampSelection(selection: Selection | undefined, size: GridSize): Selection | undefined {
  if (!selection || size.rows === 0 || size.cols === 0) return undefined;
  return { anchor: clampCell(selection.anchor, size), focus: clampCell(selection.focus, size), mode: selection.mode };
}

function clampCell(cell: CellPosition, size: GridSize): CellPosition {
  return { row: clamp(cell.row, size.rows - 1), col: clamp(cell.col, size.cols - 1) };
}
