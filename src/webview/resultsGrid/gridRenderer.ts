// Paints the grid: only the rows and columns in view, from a small pool of reused elements, so that
// 100,000 rows cost the same as 50. Rows have one fixed height; cells are positioned by column offsets.
import { displayText } from '../../core/grid/columnWidths';
import { selectedRange, type CellRange, type GridSize, type Selection } from '../../core/grid/selection';
import { canvasHeight, columnOffsets, columnWindow, rowWindow, scrollTopFor, type RowLayout } from '../../core/grid/virtualWindow';
import { make } from '../common/dom';
import type { RowStore } from './rowStore';

/** Text goes in as a text node's data (never markup), written only when it changed. */
function setData(node: Text, value: string): void {
  if (node.data !== value) node.data = value;
}

function setAttribute(element: Element, name: string, value: string): void {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

/** Rows painted beyond the visible ones, so a small scroll shows rows already there. */
const OVERSCAN_ROWS = 6;
const FOCUS_ID = 'grid-focus';

interface CellSlot {
  el: HTMLDivElement;
  /** The cell's one text node: a new value changes its data, so no node is made or laid out anew. */
  text: Text;
  /** What the element shows now, to write the DOM only when something changed. */
  key: number;
  loaded: boolean;
  className: string;
  left: number;
  width: number;
  col: number;
  selected: boolean;
}

interface RowSlot {
  el: HTMLDivElement;
  gutter: HTMLDivElement;
  gutterText: Text;
  cells: CellSlot[];
  position: number;
  row: number;
  y: number;
  className: string;
}

export interface GridElements {
  grid: HTMLElement;
  viewport: HTMLElement;
  header: HTMLElement;
  headerRow: HTMLElement;
  body: HTMLElement;
}

/** Where a pointer is: a cell, a row number, or nothing of the grid. */
export type HitTarget = { kind: 'cell'; row: number; col: number } | { kind: 'gutter'; row: number } | undefined;

export class GridRenderer {
  rowHeight = 22;
  private headerHeight = 0;
  private gutterWidth = 40;
  private charWidth = 7;
  private store: RowStore | undefined;
  private widths: number[] = [];
  private offsets: number[] = [0];
  private readonly rows: RowSlot[] = [];
  private readonly slots = new WeakMap<Element, { row: RowSlot; cell?: CellSlot }>();
  private frame = 0;
  private focused: HTMLElement | undefined;
  /** The rows painted last (first and last position). */
  private shown = { first: 0, last: -1 };
  selection: Selection | undefined;
  /** True while the keyboard focus is on a column header (the header then names the active element). */
  headerFocused = false;
  /** Called after each paint (reports, the cell view). */
  onPainted: () => void = () => undefined;

  constructor(readonly el: GridElements) {
    // Painting in the scroll event itself (it comes once per frame) keeps rows and scroll in step.
    el.viewport.addEventListener('scroll', () => this.paint(), { passive: true });
    new ResizeObserver(() => this.invalidate()).observe(el.viewport);
    this.measureFont();
  }

  /** Shows a result with these column widths; the header is built by the caller. */
  show(store: RowStore, widths: number[]): void {
    this.store = store;
    this.selection = undefined;
    for (const slot of this.rows) slot.el.remove();
    this.rows.length = 0;
    const digits = String(Math.max(1, store.header.rowCount)).length;
    this.gutterWidth = Math.max(40, Math.ceil(digits * this.charWidth + 18));
    this.el.grid.style.setProperty('--gutter-width', `${this.gutterWidth}px`);
    this.setWidths(widths);
  }

  get current(): RowStore | undefined {
    return this.store;
  }

  get columnWidths(): readonly number[] {
    return this.widths;
  }

  get fontCharWidth(): number {
    return this.charWidth;
  }

  get gutter(): number {
    return this.gutterWidth;
  }

  /** Rows and columns shown. */
  get size(): GridSize {
    return { rows: this.store?.length ?? 0, cols: this.store?.header.columns.length ?? 0 };
  }

  /** How many rows one page (PageUp/PageDown) moves. */
  get pageRows(): number {
    return Math.max(1, Math.floor(this.rowsViewport() / this.rowHeight) - 1);
  }

  setWidths(widths: number[]): void {
    this.widths = widths;
    this.offsets = columnOffsets(widths);
    const total = `${this.gutterWidth + (this.offsets[this.offsets.length - 1] ?? 0)}px`;
    this.el.header.style.width = total;
    this.el.body.style.width = total;
    for (const slot of this.rows) slot.el.style.width = total;
    this.headerHeight = this.el.header.offsetHeight;
    this.invalidate();
  }

  /** Left edge of a column in the scrolled content (after the row numbers). */
  columnLeft(col: number): number {
    return this.gutterWidth + (this.offsets[col] ?? 0);
  }

  /** Paints at the next frame (several changes in one frame paint once). */
  invalidate(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => this.paint());
  }

  /** Paints now. */
  paint(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    const store = this.store;
    if (!store) return;
    const layout = this.layout();
    const height = `${canvasHeight(layout)}px`;
    if (this.el.body.style.height !== height) this.el.body.style.height = height;
    // Screen readers learn the real size from these (the header row and the row numbers count as one each).
    setAttribute(this.el.grid, 'aria-rowcount', String(store.length + 1));
    setAttribute(this.el.grid, 'aria-colcount', String(store.header.columns.length + 1));
    // Rows beyond the visible ones pay off when a small scroll shows them; after a jump past every row
    // shown, they would be laid out for nothing (layout is most of such a frame), so only the visible rows are.
    const visible = rowWindow(this.el.viewport.scrollTop, layout, 0);
    const jumped = visible.first > this.shown.last || visible.last < this.shown.first;
    const window = jumped ? visible : rowWindow(this.el.viewport.scrollTop, layout, OVERSCAN_ROWS);
    this.shown = { first: window.first, last: window.last };
    const columns = columnWindow(this.offsets, this.el.viewport.scrollLeft, this.el.viewport.clientWidth - this.gutterWidth, 1);
    const range = this.selection ? selectedRange(this.selection, this.size) : undefined;
    let k = 0;
    for (let position = window.first; position <= window.last; position++, k++) {
      const slot = this.rows[k] ?? this.addRow();
      this.paintRow(slot, store, position, window.offsetY + (position - window.first) * this.rowHeight, columns, range);
    }
    for (; k < this.rows.length; k++) this.hideRow(this.rows[k] as RowSlot);
    this.updateFocus();
    this.onPainted();
  }

  /** Scrolls as little as possible to show a cell. */
  reveal(row: number, col: number): void {
    const viewport = this.el.viewport;
    const top = scrollTopFor(row, viewport.scrollTop, this.layout());
    if (top !== viewport.scrollTop) viewport.scrollTop = top;
    const left = this.offsets[col] ?? 0;
    const right = this.offsets[col + 1] ?? left;
    const visible = viewport.clientWidth - this.gutterWidth;
    if (left < viewport.scrollLeft) viewport.scrollLeft = left;
    else if (right > viewport.scrollLeft + visible) viewport.scrollLeft = Math.min(left, right - visible);
    this.paint();
  }

  /** What is under a pointer (an element of the grid). */
  hit(target: EventTarget | null): HitTarget {
    const element = target instanceof Element ? target.closest('.cell, .gutter') : null;
    const slot = element ? this.slots.get(element) : undefined;
    if (!slot || slot.row.position < 0) return undefined;
    if (slot.cell) return { kind: 'cell', row: slot.row.position, col: slot.cell.col };
    return { kind: 'gutter', row: slot.row.position };
  }

  /** The text painted in the first rows (what the page reports). */
  sample(limit: number): string[][] {
    return this.rows
      .filter((slot) => !slot.el.hidden)
      .sort((a, b) => a.position - b.position)
      .slice(0, limit)
      .map((slot) => slot.cells.filter((cell) => !cell.el.hidden).map((cell) => cell.el.textContent ?? ''));
  }

  /** First row painted and how many row elements the page holds. */
  painted(): { firstRow: number; renderedRows: number } {
    const shown = this.rows.filter((slot) => !slot.el.hidden);
    return { firstRow: shown.reduce((min, slot) => Math.min(min, slot.position), shown.length ? Infinity : 0), renderedRows: shown.length };
  }

  private layout(): RowLayout {
    return { rowHeight: this.rowHeight, rowCount: this.store?.length ?? 0, viewportHeight: this.rowsViewport() };
  }

  private rowsViewport(): number {
    return Math.max(0, this.el.viewport.clientHeight - this.headerHeight);
  }

  private paintRow(slot: RowSlot, store: RowStore, position: number, y: number, columns: { first: number; last: number }, range: CellRange | undefined): void {
    slot.el.hidden = false;
    if (slot.y !== y) {
      slot.el.style.transform = `translateY(${y}px)`;
      slot.y = y;
    }
    if (slot.position !== position) {
      slot.el.setAttribute('aria-rowindex', String(position + 2));
      slot.position = position;
    }
    const row = store.rowAt(position);
    if (slot.row !== row) {
      setData(slot.gutterText, row >= 0 ? String(row + 1) : '');
      slot.row = row;
    }
    const inRows = range !== undefined && position >= range.top && position <= range.bottom;
    const rowClass = inRows ? 'row selected' : 'row';
    if (slot.className !== rowClass) slot.el.className = slot.className = rowClass;
    let j = 0;
    for (let col = columns.first; col <= columns.last; col++, j++) {
      const cell = slot.cells[j] ?? this.addCell(slot);
      const selected = inRows && col >= (range).left && col <= (range).right;
      this.paintCell(cell, store, row, col, selected, position);
    }
    for (; j < slot.cells.length; j++) (slot.cells[j] as CellSlot).el.hidden = true;
  }

  private paintCell(cell: CellSlot, store: RowStore, row: number, col: number, selected: boolean, position: number): void {
    cell.el.hidden = false;
    const width = store.header.columns.length;
    const key = row * width + col;
    const column = store.header.columns[col];
    let isNull = cell.className.includes(' null');
    if (cell.key !== key || !cell.loaded) {
      const value = store.cell(row, col);
      cell.loaded = value !== undefined;
      isNull = value === null;
      setData(cell.text, value === undefined ? '' : value === null ? 'NULL' : displayText(value));
      cell.key = key;
    }
    const focus = this.selection?.focus;
    const focused = focus !== undefined && focus.row === position && focus.col === col;
    const className = `cell${column?.kind === 'number' ? ' num' : ''}${isNull ? ' null' : ''}${cell.loaded ? '' : ' loading'}${selected ? ' selected' : ''}${focused ? ' focused' : ''}`;
    if (cell.className !== className) cell.el.className = cell.className = className;
    if (focused) this.focused = cell.el;
    if (cell.col !== col) {
      cell.el.setAttribute('aria-colindex', String(col + 2));
      cell.col = col;
    }
    if (cell.selected !== selected) {
      cell.el.setAttribute('aria-selected', String(selected));
      cell.selected = selected;
    }
    const left = this.gutterWidth + (this.offsets[col] ?? 0);
    if (cell.left !== left) cell.el.style.left = `${(cell.left = left)}px`;
    const cellWidth = this.widths[col] ?? 0;
    if (cell.width !== cellWidth) cell.el.style.width = `${(cell.width = cellWidth)}px`;
  }

  private addRow(): RowSlot {
    const el = make('div', 'row');
    el.setAttribute('role', 'row');
    el.style.width = `${this.gutterWidth + (this.offsets[this.offsets.length - 1] ?? 0)}px`;
    const gutter = make('div', 'gutter');
    gutter.setAttribute('role', 'rowheader');
    gutter.setAttribute('aria-colindex', '1');
    const gutterText = document.createTextNode('');
    gutter.append(gutterText);
    el.append(gutter);
    const slot: RowSlot = { el, gutter, gutterText, cells: [], position: -1, row: -2, y: -1, className: 'row' };
    this.slots.set(gutter, { row: slot });
    this.el.body.append(el);
    this.rows.push(slot);
    return slot;
  }

  private addCell(row: RowSlot): CellSlot {
    const el = make('div', 'cell');
    el.setAttribute('role', 'gridcell');
    const text = document.createTextNode('');
    el.append(text);
    const cell: CellSlot = { el, text, key: -1, loaded: false, className: 'cell', left: -1, width: -1, col: -1, selected: false };
    el.setAttribute('aria-selected', 'false');
    this.slots.set(el, { row, cell });
    row.el.append(el);
    row.cells.push(cell);
    return cell;
  }

  private hideRow(slot: RowSlot): void {
    slot.el.hidden = true;
    slot.position = -1;
  }

  private updateFocus(): void {
    const focus = this.selection?.focus;
    const current = focus ? this.focused : undefined;
    const previous = document.getElementById(FOCUS_ID);
    if (previous && previous !== current) previous.removeAttribute('id');
    const valid = current && !current.hidden && current.classList.contains('focused');
    if (this.headerFocused) {
      this.focused = undefined;
      return;
    }
    if (valid) {
      if (current.id !== FOCUS_ID) current.id = FOCUS_ID;
      if (this.el.grid.getAttribute('aria-activedescendant') !== FOCUS_ID) this.el.grid.setAttribute('aria-activedescendant', FOCUS_ID);
    } else if (this.el.grid.getAttribute('aria-activedescendant') === FOCUS_ID) {
      this.el.grid.removeAttribute('aria-activedescendant');
    }
    this.focused = undefined;
  }

  /** Row height and character width from the grid's font (the user's editor font and size). */
  private measureFont(): void {
    const style = getComputedStyle(this.el.grid);
    const fontSize = parseFloat(style.getPropertyValue('--grid-font-size')) || parseFloat(style.fontSize) || 13;
    this.rowHeight = Math.round(fontSize * 1.75);
    this.el.grid.style.setProperty('--row-height', `${this.rowHeight}px`);
    const context = document.createElement('canvas').getContext('2d');
    if (context) {
      context.font = `${fontSize}px ${style.getPropertyValue('--grid-font-family') || 'monospace'}`;
      this.charWidth = context.measureText('0123456789abcdefghijklmnopqrstuvwxyz').width / 36 || this.charWidth;
    }
  }
}
