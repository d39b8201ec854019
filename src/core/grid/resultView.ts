/** One result as the grid shows it: which rows, in which order, after a sort and a filter. */
import type { GridColumn } from './columnKinds';
import { normalizeFilter, RowSearch } from './rowFilter';
import { sortOrder, type Rows, type SortDirection } from './sortOrder';

export interface SortState {
  column: number;
  direction: SortDirection;
}

// Sorting 100,000 text cells takes a fraction of a second: flipping between a few sorts should not.
const CACHED_SORTS = 4;

/**
 * The sort and filter of one result and the row order they give. The order is computed here (the
 * extension host holds the rows) and sent to the grid, which only paints; copy and export read the
 * same order, so what the user sees is what they get.
 */
export class ResultView {
  private sortState: SortState | undefined;
  private filterText = '';
  private current: Uint32Array | undefined;
  private readonly sorts = new Map<string, Uint32Array>();
  private readonly search: RowSearch;

  constructor(
    readonly columns: readonly GridColumn[],
    readonly rows: Rows,
  ) {
    this.search = new RowSearch(rows);
  }

  get sort(): SortState | undefined {
    return this.sortState;
  }

  get filter(): string {
    return this.filterText;
  }

  /** Sorts by a column (undefined: the service's order). A column out of range is ignored. */
  setSort(sort: SortState | undefined): void {
    if (sort && !(sort.column >= 0 && sort.column < this.columns.length)) return;
    this.sortState = sort;
    this.current = undefined;
  }

  setFilter(text: string): void {
    this.filterText = text;
    this.current = undefined;
  }

  /** Row indexes in the order shown (not to be changed), or undefined when every row shows in the service's order. */
  order(): Uint32Array | undefined {
    const filtered = normalizeFilter(this.filterText) !== undefined;
    if (!filtered) return this.sortState && this.sorted(this.sortState);
    this.current ??= this.search.matching(this.filterText, this.sortState && this.sorted(this.sortState));
    return this.current;
  }

  /** Row indexes in the current sort, ignoring the filter (what an export writes). */
  sortedOrder(): Uint32Array | undefined {
    return this.sortState && this.sorted(this.sortState);
  }

  /** How many rows show. */
  get length(): number {
    return this.order()?.length ?? this.rows.length;
  }

  /** The row index at a position of the grid. */
  rowAt(position: number): number | undefined {
    const order = this.order();
    if (position < 0 || position >= (order?.length ?? this.rows.length)) return undefined;
    return order ? order[position] : position;
  }

  /** Row indexes shown at positions `top` to `bottom` (inclusive, clamped to the rows shown). */
  rowsAt(top: number, bottom: number): Uint32Array {
    const order = this.order();
    const end = Math.min(bottom + 1, order?.length ?? this.rows.length);
    if (top >= end) return new Uint32Array(0);
    return order ? order.slice(top, end) : Uint32Array.from({ length: end - top }, (_, i) => top + i);
  }

  private sorted(sort: SortState): Uint32Array {
    const key = `${sort.column}:${sort.direction}`;
    let order = this.sorts.get(key);
    if (order) this.sorts.delete(key);
    else order = sortOrder(this.rows, sort.column, this.columns[sort.column]?.kind ?? 'text', sort.direction);
    this.sorts.set(key, order);
    for (const oldest of this.sorts.keys()) {
      if (this.sorts.size <= CACHED_SORTS) break;
      this.sorts.delete(oldest);
    }
    return order;
  }
}
