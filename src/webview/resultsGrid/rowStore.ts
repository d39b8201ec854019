// The rows of one result as they arrive in blocks, and the order the extension says to show them in.
import { RowBlock } from '../../core/grid/rowBlocks';
import type { GridSort, ResultHeader } from '../../core/grid/protocol';

export class RowStore {
  private readonly blocks: RowBlock[] = [];
  private last: RowBlock | undefined;
  /** Rows received so far. */
  loaded = 0;
  /** Row indexes in the order shown, or null for the service's order. */
  order: number[] | null = null;
  sort: GridSort | null = null;
  filter = '';
  /** Version of the order (sent back with a copy, so the extension copies what was seen). */
  version = 0;

  constructor(readonly header: ResultHeader) {}

  /** Adds a block; blocks arrive in order, each starting where the previous ended. */
  add(start: number, count: number, cells: string): void {
    if (start !== this.loaded) throw new Error(`Rows ${start}… arrived, but ${this.loaded} were expected next.`);
    this.blocks.push(new RowBlock(start, count, this.header.columns.length, cells));
    this.loaded += count;
  }

  get complete(): boolean {
    return this.loaded >= this.header.rowCount;
  }

  /** How many rows show (after the filter). */
  get length(): number {
    return this.order ? this.order.length : this.header.rowCount;
  }

  /** The row index at a position of the grid. */
  rowAt(position: number): number {
    return this.order ? (this.order[position] ?? -1) : position;
  }

  /** A cell, or undefined while its row has not arrived. */
  cell(row: number, column: number): string | null | undefined {
    if (row < 0 || row >= this.loaded) return undefined;
    const block = this.blockOf(row);
    return block?.cell(row, column);
  }

  /** The first rows received, for sizing the columns. */
  sample(limit: number): (string | null)[][] {
    const rows: (string | null)[][] = [];
    for (let r = 0; r < Math.min(limit, this.loaded); r++) rows.push(this.header.columns.map((_, c) => this.cell(r, c) ?? null));
    return rows;
  }

  private blockOf(row: number): RowBlock | undefined {
    // Painting asks for neighbouring rows: the last block found usually holds the next one too.
    const last = this.last;
    if (last && row >= last.start && row < last.start + last.count) return last;
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.blocks[mid] as RowBlock).start <= row) lo = mid;
      else hi = mid - 1;
    }
    this.last = this.blocks[lo];
    return this.last;
  }
}
