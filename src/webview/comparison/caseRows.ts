// Paints the comparison's cases in view from a pool of row elements: each row is placed absolutely at
// a fixed height, its cells at pixel offsets worked out once per table width (columns.ts), and a row
// is written only when it comes to show another case (or that case changed). Scrolling writes the
// rows that came into view and nothing else; no row makes the layout engine size columns.
import type { ColumnRef } from '../../core/comparison/caseTable';
import type { CellView, RowView } from '../../core/comparison/viewProtocol';
import { count, make } from '../common/dom';
import { columnClass } from './columns';

export const ROW_HEIGHT = 24;

interface RowSlot {
  el: HTMLElement;
  cells: HTMLElement[];
  /** The position in the order shown, -1 when free. */
  position: number;
  /** The {@link CaseRows.generation} it was written in: an older one shows stale data. */
  generation: number;
}

/** A job's duration as people read it. */
export function duration(value: number | null): string {
  if (value === null) return '–';
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
}

export class CaseRows {
  private pool: RowSlot[] = [];
  private readonly slots = new WeakMap<Element, RowSlot>();
  private columns: ColumnRef[] = [];
  private widths: number[] = [];
  /** Bumped when what any row shows may have changed (another order, other rows): every row is written again. */
  private generation = 0;
  private selectedSlot: RowSlot | undefined;

  constructor(private readonly canvas: HTMLElement) {}

  /** New columns or widths: the pool is made again. */
  setColumns(columns: ColumnRef[], widths: number[]): void {
    this.columns = columns;
    this.widths = widths;
    this.pool = [];
    this.selectedSlot = undefined;
    this.canvas.replaceChildren();
  }

  /** Every row is written again at the next paint (another order or other data). */
  invalidate(): void {
    this.generation++;
  }

  /** The position of the case a row element shows, if it is one of ours. */
  positionOf(target: EventTarget | null): number | undefined {
    const row = target instanceof Element ? target.closest('.row') : null;
    const slot = row ? this.slots.get(row) : undefined;
    return slot && slot.position >= 0 ? slot.position : undefined;
  }

  /** The row element showing `position`, if painted. */
  elementAt(position: number): HTMLElement | undefined {
    const slot = this.pool[position % Math.max(1, this.pool.length)];
    return slot?.position === position ? slot.el : undefined;
  }

  /**
   * Paints positions `first`..`last` of `order` (indexes into `rows`); a slot is chosen by position,
   * so a row that stays in view keeps its element. `capacity` is the most rows any scroll position
   * shows (the pool is made that large at once: a pool that grows moves rows between slots).
   * Returns whether any row is shown.
   */
  paint(rows: readonly RowView[], order: readonly number[], first: number, last: number, selected: number, capacity: number): boolean {
    const needed = last - first + 1;
    while (this.pool.length < Math.max(needed, capacity)) this.addSlot();
    const size = this.pool.length;
    for (let position = first; position <= last; position++) {
      const slot = this.pool[position % size]!;
      if (slot.position !== position || slot.generation !== this.generation) this.write(slot, rows, order[position]!, position);
    }
    // A slot out of view, or left holding a position another slot now shows (the pool grew), is free.
    for (const slot of this.pool) {
      if (slot.position >= 0 && (slot.position < first || slot.position > last || this.pool[slot.position % size] !== slot)) this.free(slot);
    }
    this.select(selected);
    return needed > 0;
  }

  /** Writes one case again where it is shown (its cells changed). */
  repaint(rows: readonly RowView[], order: readonly number[], position: number): void {
    const slot = this.pool[position % Math.max(1, this.pool.length)];
    if (slot?.position === position) this.write(slot, rows, order[position]!, position);
  }

  private select(position: number): void {
    const slot = this.pool[position % Math.max(1, this.pool.length)];
    const now = slot?.position === position ? slot : undefined;
    if (now === this.selectedSlot) return;
    this.selectedSlot?.el.classList.remove('selected');
    now?.el.classList.add('selected');
    this.selectedSlot = now;
  }

  private addSlot(): void {
    const el = make('div', 'row');
    el.setAttribute('role', 'row');
    el.hidden = true;
    el.style.width = `${this.widths.reduce((sum, w) => sum + w, 0)}px`;
    let left = 0;
    const cells = this.columns.map((column, c) => {
      const cell = make('div', columnClass(column));
      cell.setAttribute('role', 'gridcell');
      cell.style.left = `${left}px`;
      cell.style.width = `${this.widths[c] ?? 0}px`;
      left += this.widths[c] ?? 0;
      if (column.kind === 'target') cell.dataset.target = String(column.target);
      if (column.kind === 'target' && column.field === 'state') cell.dataset.job = '';
      el.append(cell);
      return cell;
    });
    const slot: RowSlot = { el, cells, position: -1, generation: -1 };
    this.slots.set(el, slot);
    this.pool.push(slot);
    this.canvas.append(el);
  }

  private free(slot: RowSlot): void {
    slot.position = -1;
    slot.el.hidden = true;
    if (slot === this.selectedSlot) {
      slot.el.classList.remove('selected');
      this.selectedSlot = undefined;
    }
  }

  private write(slot: RowSlot, rows: readonly RowView[], index: number, position: number): void {
    const row = rows[index]!;
    if (slot.position !== position) {
      slot.el.style.transform = `translateY(${position * ROW_HEIGHT}px)`;
      slot.el.setAttribute('aria-rowindex', String(position + 3));
      if (slot === this.selectedSlot) {
        slot.el.classList.remove('selected');
        this.selectedSlot = undefined;
      }
    }
    slot.position = position;
    slot.generation = this.generation;
    slot.el.hidden = false;
    slot.el.classList.toggle('changed', row.changed);
    slot.el.classList.toggle('failed', row.failed);
    this.columns.forEach((column, c) => {
      const cell = slot.cells[c]!;
      writeCell(cell, row, column);
      if (column.kind === 'target') setCellContext(cell, row, index, column.target, typeof column.field === 'object' ? column.field.key : 0);
    });
  }
}

/**
 * What VS Code's context menu of a target's cell knows (its This Is Right and Set Expected… read the
 * case, the target and the output from it; This Is Right shows on a cell with an outcome only).
 */
function setCellContext(cell: HTMLElement, row: RowView, index: number, target: number, key: number): void {
  const data = row.cells[target];
  const context = JSON.stringify({ webviewSection: 'comparisonCell', caseIndex: index, target, key, comparisonCellDone: data?.state === 'done' && data.values[0] !== null, preventDefaultContextMenuItems: true });
  if (cell.dataset.vscodeContext !== context) cell.dataset.vscodeContext = context;
}

/** What a case's label and a reviewer's correction of its job say together, as a sentence ('' without a correction). */
export function reviewText(row: RowView): string {
  if (row.reviewed === null) return '';
  if (row.expected === null) return `A reviewer corrected this case's job to ${row.reviewed}; the case expects nothing yet.`;
  return row.reviewDisagrees
    ? `A reviewer corrected this case's job to ${row.reviewed}, but the case expects ${row.expected}: they disagree.`
    : `A reviewer corrected this case's job to ${row.reviewed}, as the case expects.`;
}

/** Text, title and state classes of one cell; the element's column classes stay as made. */
function writeCell(cell: HTMLElement, row: RowView, column: ColumnRef): void {
  let text = '';
  let title = '';
  let extra = '';
  if (column.kind === 'case') {
    text = row.case;
    title = [row.case, row.tags ? `Tags: ${row.tags}` : '', row.why ?? ''].filter(Boolean).join('\n');
  } else if (column.kind === 'expected') {
    text = row.expected ?? '';
    // A reviewer's correction recorded by the service shows beside the label when it says otherwise (or there is no label).
    if (row.reviewed !== null && (row.reviewDisagrees || row.expected === null)) {
      text = `${text}${text ? ' ' : ''}(reviewer: ${row.reviewed})`;
      extra = row.reviewDisagrees ? ' review-disagree' : '';
    }
    title = reviewText(row);
  } else {
    const data: CellView | undefined = row.cells[column.target];
    const f = column.field;
    if (!data) text = '';
    else if (f === 'state') {
      text = data.state === 'none' ? '' : data.state;
      extra = ` state-${data.state}`;
      if (data.state !== 'none') title = 'Double-click to open the job';
    } else if (data.cached && (f === 'cost' || f === 'tokens' || f === 'duration')) text = 'cached';
    else if (f === 'cost') text = data.cost === null ? '' : data.cost.toFixed(4);
    else if (f === 'tokens') text = data.tokens === null ? '' : count(data.tokens);
    else if (f === 'duration') text = duration(data.durationMs);
    else {
      text = data.values[f.key] ?? '';
      title = data.changed && row.why ? `${text}\n${row.why}` : text;
      // The outcome is what differs between targets and what an expectation is checked against.
      extra = `${data.changed ? ' diff' : ''}${data.mismatch === true && f.key === 0 ? ' mismatch' : ''}`;
    }
  }
  if (cell.textContent !== text) cell.textContent = text;
  if (cell.title !== title) cell.title = title;
  const className = `${columnClass(column)}${extra}`;
  if (cell.className !== className) cell.className = className;
}
