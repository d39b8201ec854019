/**
 * How rows travel to the grid page: a block of rows is one string, each cell ended by U+0000. One
 * string per block is cheap to send (no array of a million small strings to serialise and rebuild)
 * and the page cuts out only the cells it paints. Shared by the extension (encoding) and the page
 * (decoding), and tested in Node.
 */
import type { Rows } from './sortOrder';

const CELL_END = '\u0000';
const ESCAPE = '\u0001';
// A cell that is SQL NULL; a text cannot encode to this because a real U+0001 is escaped.
const NULL_CELL = `${ESCAPE}N`;
const ESCAPED_END = `${ESCAPE}0`;
const ESCAPED_ESCAPE = `${ESCAPE}1`;
const ESCAPED_CODE = new RegExp(`${ESCAPE}([01])`, 'g');

/** One cell as it is written in a block. */
export function encodeCell(value: string | null): string {
  if (value === null) return NULL_CELL;
  if (!value.includes(CELL_END) && !value.includes(ESCAPE)) return value;
  return value.replaceAll(ESCAPE, ESCAPED_ESCAPE).replaceAll(CELL_END, ESCAPED_END);
}

/** A cell as it was before {@link encodeCell}. */
export function decodeCell(encoded: string): string | null {
  if (!encoded.includes(ESCAPE)) return encoded;
  if (encoded === NULL_CELL) return null;
  return encoded.replace(ESCAPED_CODE, (_, code: string) => (code === '0' ? CELL_END : ESCAPE));
}

/** Rows `start` to `end` (exclusive), `width` cells each (missing cells are NULL), as one block. */
export function encodeRows(rows: Rows, start: number, end: number, width: number): string {
  const parts: string[] = [];
  for (let r = start; r < end; r++) {
    const row = rows[r] ?? [];
    for (let c = 0; c < width; c++) parts.push(encodeCell(row[c] ?? null));
  }
  return parts.length ? parts.join(CELL_END) + CELL_END : '';
}

/** A received block: finds where each cell starts once, then cuts cells out on demand. */
export class RowBlock {
  private readonly starts: Uint32Array;

  /** Throws when the text does not hold exactly `count` rows of `width` cells. */
  constructor(
    readonly start: number,
    readonly count: number,
    private readonly width: number,
    private readonly text: string,
  ) {
    const cells = count * width;
    this.starts = new Uint32Array(cells + 1);
    let at = 0;
    for (let i = 0; i < cells; i++) {
      const end = text.indexOf(CELL_END, at);
      if (end < 0) throw new Error(`A block of ${count} rows ended after ${i} of ${cells} cells.`);
      this.starts[i] = at;
      at = end + 1;
    }
    if (at !== text.length) throw new Error(`A block of ${count} rows holds more than ${cells} cells.`);
    this.starts[cells] = at;
  }

  /** The cell of a row of the result (not of the block) and a column. */
  cell(row: number, column: number): string | null {
    const i = (row - this.start) * this.width + column;
    const from = this.starts[i] as number;
    return decodeCell(this.text.slice(from, (this.starts[i + 1] as number) - 1));
  }
}

/** One block as sent: rows `start` to `start + count` of a result, encoded. */
export interface EncodedBlock {
  start: number;
  count: number;
  cells: string;
}

// The first block is small so the first rows paint at once; later blocks aim at about 1 MB of text.
const FIRST_BLOCK_ROWS = 200;
const BLOCK_CHARS = 1_000_000;

/** The rows of a result in blocks: a small first one, then blocks of about 1 MB sized from the rows seen so far. */
export function* rowBlocks(rows: Rows, width: number): Generator<EncodedBlock> {
  let size = FIRST_BLOCK_ROWS;
  for (let start = 0; start < rows.length; ) {
    const end = Math.min(rows.length, start + size);
    const cells = encodeRows(rows, start, end, width);
    yield { start, count: end - start, cells };
    size = Math.max(1000, Math.min(50_000, Math.round((BLOCK_CHARS * (end - start)) / Math.max(1, cells.length))));
    start = end;
  }
}
