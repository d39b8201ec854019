// Keyboard and pointer on the grid: moving and extending the selection, the header row (sort and
// resize from the keyboard too), dragging to select, and dragging a header edge to resize.
import { MIN_COLUMN_WIDTH } from '../../core/grid/columnWidths';
import { cellSelection, clampSelection, extendTo, moveSelection, selectAll, widen, type Move, type Selection } from '../../core/grid/selection';
import type { GridHeader } from './gridHeader';
import type { GridRenderer } from './gridRenderer';

/** What input asks of the page. */
export interface GridActions {
  /** Next sort of a column: ascending, descending, none. */
  sort(col: number): void;
  copy(headers: boolean): void;
  selectionChanged(): void;
  widthsChanged(): void;
  autoFit(col: number): void;
  focusFilter(): void;
  focusCellView(): void;
}

const RESIZE_STEP = 16;

type KeyCommand = 'selectAll' | 'copy' | 'filter' | 'rows' | 'columns' | 'collapse' | 'cellView';

/** The command of a key on the cells (arrows and paging are moves, handled apart). */
function commandFor(key: string, mod: boolean, shift: boolean): KeyCommand | undefined {
  if (mod && key === 'a') return 'selectAll';
  if (mod && key === 'c') return 'copy';
  if (mod && key === 'f') return 'filter';
  if (key === ' ' && mod) return 'columns';
  if (key === ' ' && shift) return 'rows';
  if (key === 'Escape') return 'collapse';
  if (key === 'Enter') return 'cellView';
  return undefined;
}

export class GridInput {
  private headerCol: number | undefined;
  private dragging: 'cells' | 'rows' | undefined;
  private resizing: { col: number; startX: number; startWidth: number } | undefined;
  private resized = false;

  constructor(
    private readonly renderer: GridRenderer,
    private readonly header: GridHeader,
    private readonly actions: GridActions,
  ) {
    const { grid, body, headerRow } = renderer.el;
    grid.addEventListener('keydown', (e) => this.onKey(e));
    body.addEventListener('pointerdown', (e) => this.onBodyDown(e));
    body.addEventListener('pointermove', (e) => this.onBodyMove(e));
    body.addEventListener('pointerup', () => (this.dragging = undefined));
    body.addEventListener('pointercancel', () => (this.dragging = undefined));
    headerRow.addEventListener('pointerdown', (e) => this.onHeaderDown(e));
    headerRow.addEventListener('pointermove', (e) => this.onHeaderMove(e));
    headerRow.addEventListener('pointerup', () => (this.resizing = undefined));
    headerRow.addEventListener('click', (e) => this.onHeaderClick(e));
    headerRow.addEventListener('dblclick', (e) => {
      const hit = this.header.hit(e.target);
      if (hit?.resize) this.actions.autoFit(hit.col);
    });
    grid.addEventListener('blur', () => this.leaveHeader(false));
  }

  /** Puts a selection in place (also from outside, e.g. after a filter) and shows it. */
  select(selection: Selection | undefined, reveal: boolean): void {
    this.renderer.selection = clampSelection(selection, this.renderer.size);
    const focus = this.renderer.selection?.focus;
    if (reveal && focus) this.renderer.reveal(focus.row, focus.col);
    else this.renderer.invalidate();
    this.actions.selectionChanged();
  }

  private onKey(e: KeyboardEvent): void {
    const handled = this.headerCol !== undefined ? this.onHeaderKey(e) : this.onCellKey(e);
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  }

  private onCellKey(e: KeyboardEvent): boolean {
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const selection = this.renderer.selection;
    const command = commandFor(key, mod, e.shiftKey);
    switch (command) {
      case 'selectAll':
        this.select(selectAll(this.renderer.size, selection?.focus), false);
        return true;
      case 'copy':
        if (e.altKey) return false;
        this.actions.copy(false);
        return true;
      case 'filter':
        this.actions.focusFilter();
        return true;
      case 'rows':
      case 'columns':
        this.select(widen(selection ?? cellSelection({ row: 0, col: 0 }), command), false);
        return true;
      case 'collapse':
        if (selection) this.select(cellSelection(selection.focus), false);
        return selection !== undefined;
      case 'cellView':
        this.actions.focusCellView();
        return true;
    }
    if (key === 'ArrowUp' && !e.shiftKey && !mod && (selection?.focus.row ?? 0) === 0) {
      this.enterHeader(selection?.focus.col ?? 0);
      return true;
    }
    const move = this.moveFor(key, mod);
    if (!move) return false;
    this.select(moveSelection(selection, this.renderer.size, move, e.shiftKey), true);
    return true;
  }

  private moveFor(key: string, mod: boolean): Move | undefined {
    const { rows, cols } = this.renderer.size;
    const page = this.renderer.pageRows;
    switch (key) {
      case 'ArrowUp':
        return { kind: 'by', rows: mod ? -rows : -1, cols: 0 };
      case 'ArrowDown':
        return { kind: 'by', rows: mod ? rows : 1, cols: 0 };
      case 'ArrowLeft':
        return { kind: 'by', rows: 0, cols: mod ? -cols : -1 };
      case 'ArrowRight':
        return { kind: 'by', rows: 0, cols: mod ? cols : 1 };
      case 'Home':
        return { kind: mod ? 'gridStart' : 'rowStart' };
      case 'End':
        return { kind: mod ? 'gridEnd' : 'rowEnd' };
      case 'PageUp':
        return { kind: 'by', rows: -page, cols: 0 };
      case 'PageDown':
        return { kind: 'by', rows: page, cols: 0 };
      default:
        return undefined;
    }
  }

  /** On a column header: arrows move along, Enter/Space sorts, Shift+arrows resize, Down/Escape go back to the cells. */
  private onHeaderKey(e: KeyboardEvent): boolean {
    const col = this.headerCol as number;
    const last = this.renderer.size.cols - 1;
    if (e.shiftKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      this.resizeBy(col, e.key === 'ArrowLeft' ? -RESIZE_STEP : RESIZE_STEP);
      return true;
    }
    const target = e.key === 'ArrowLeft' ? Math.max(0, col - 1) : e.key === 'ArrowRight' ? Math.min(last, col + 1) : e.key === 'Home' ? 0 : e.key === 'End' ? last : undefined;
    if (target !== undefined) this.enterHeader(target);
    else if (e.key === 'Enter' || e.key === ' ') this.actions.sort(col);
    else if (e.key === 'ArrowDown' || e.key === 'Escape') this.leaveHeader(true);
    else return false;
    return true;
  }

  private enterHeader(col: number): void {
    if (this.renderer.size.cols === 0) return;
    this.headerCol = col;
    this.renderer.headerFocused = true;
    const id = this.header.focus(col);
    if (id) this.renderer.el.grid.setAttribute('aria-activedescendant', id);
    this.renderer.invalidate();
  }

  private leaveHeader(toCells: boolean): void {
    if (this.headerCol === undefined) return;
    const col = this.headerCol;
    this.headerCol = undefined;
    this.renderer.headerFocused = false;
    this.header.focus(undefined);
    this.renderer.el.grid.removeAttribute('aria-activedescendant');
    if (toCells) this.select(cellSelection({ row: 0, col }), true);
    else this.renderer.invalidate();
  }

  private onBodyDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    const hit = this.renderer.hit(e.target);
    if (!hit) return;
    this.leaveHeader(false);
    this.renderer.el.grid.focus({ preventScroll: true });
    const current = this.renderer.selection;
    const col = hit.kind === 'cell' ? hit.col : (current?.focus.col ?? 0);
    const mode = hit.kind === 'gutter' ? 'rows' : 'cells';
    if (e.shiftKey && current) this.select(extendTo({ ...current, mode }, this.renderer.size, { row: hit.row, col }), false);
    else this.select(cellSelection({ row: hit.row, col }, mode), false);
    this.dragging = mode;
    this.renderer.el.body.setPointerCapture(e.pointerId);
    e.preventDefault();
  }

  private onBodyMove(e: PointerEvent): void {
    if (!this.dragging) return;
    const viewport = this.renderer.el.viewport;
    const bounds = viewport.getBoundingClientRect();
    // Dragging past an edge scrolls that way, a row (or a few pixels) per move.
    if (e.clientY > bounds.bottom) viewport.scrollTop += this.renderer.rowHeight;
    else if (e.clientY < bounds.top + this.renderer.el.header.offsetHeight) viewport.scrollTop -= this.renderer.rowHeight;
    if (e.clientX > bounds.right) viewport.scrollLeft += 24;
    else if (e.clientX < bounds.left + this.renderer.gutter && this.dragging === 'cells') viewport.scrollLeft -= 24;
    const x = Math.min(bounds.right - 2, Math.max(bounds.left + this.renderer.gutter + 1, e.clientX));
    const y = Math.min(bounds.bottom - 2, Math.max(bounds.top + this.renderer.el.header.offsetHeight + 1, e.clientY));
    const hit = this.renderer.hit(document.elementFromPoint(this.dragging === 'rows' ? bounds.left + 2 : x, y));
    const current = this.renderer.selection;
    if (!hit || !current) return;
    const col = hit.kind === 'cell' ? hit.col : current.focus.col;
    if (hit.row === current.focus.row && col === current.focus.col) return;
    this.select(extendTo(current, this.renderer.size, { row: hit.row, col }), false);
  }

  private onHeaderDown(e: PointerEvent): void {
    const hit = this.header.hit(e.target);
    if (!hit?.resize || e.button !== 0) return;
    this.resizing = { col: hit.col, startX: e.clientX, startWidth: this.renderer.columnWidths[hit.col] ?? MIN_COLUMN_WIDTH };
    this.resized = false;
    (e.target as Element).setPointerCapture(e.pointerId);
    e.preventDefault();
  }

  private onHeaderMove(e: PointerEvent): void {
    const resizing = this.resizing;
    if (!resizing) return;
    this.resized = true;
    this.setWidth(resizing.col, resizing.startWidth + e.clientX - resizing.startX);
  }

  private onHeaderClick(e: MouseEvent): void {
    const hit = this.header.hit(e.target);
    if (!hit || hit.resize || this.resized) {
      this.resized = false;
      return;
    }
    this.actions.sort(hit.col);
  }

  private resizeBy(col: number, delta: number): void {
    this.setWidth(col, (this.renderer.columnWidths[col] ?? MIN_COLUMN_WIDTH) + delta);
  }

  private setWidth(col: number, width: number): void {
    const widths = [...this.renderer.columnWidths];
    widths[col] = Math.max(MIN_COLUMN_WIDTH, Math.round(width));
    this.renderer.setWidths(widths);
    this.header.layout(this.renderer.gutter, widths);
    this.actions.widthsChanged();
  }
}
