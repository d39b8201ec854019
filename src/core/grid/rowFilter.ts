/** Finding the rows that contain a text, fast enough to run on every keystroke over 100,000 rows. */
import type { Rows } from './sortOrder';

// Joins the cells of a row in its search text, so a term never matches across two cells.
const CELL_BREAK = '\u0000';

/** The filter as typed, or undefined when it filters nothing (empty or only spaces). */
export function normalizeFilter(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  return text.split(CELL_BREAK).join('').toLowerCase();
}

/**
 * Text search over the rows of one result: a row matches when one of its cells contains the term,
 * ignoring case. NULL cells contain nothing. The lower-cased text of each row is built on the first
 * search and kept (about the size of the rows themselves), so later keystrokes only scan.
 */
export class RowSearch {
  private haystacks: string[] | undefined;

  constructor(private readonly rows: Rows) {}

  /** The entries of `order` (every row in its own order when omitted) whose row contains `term`. */
  matching(term: string, order?: Uint32Array): Uint32Array {
    const needle = normalizeFilter(term);
    const n = order ? order.length : this.rows.length;
    if (needle === undefined) return order ? order.slice() : Uint32Array.from({ length: n }, (_, i) => i);
    const haystacks = this.index();
    const found = new Uint32Array(n);
    let count = 0;
    for (let i = 0; i < n; i++) {
      const row = order ? (order[i] as number) : i;
      if ((haystacks[row] as string).includes(needle)) found[count++] = row;
    }
    return found.slice(0, count);
  }

  private index(): string[] {
    this.haystacks ??= this.rows.map((row) => row.map((cell) => cell ?? '').join(CELL_BREAK).toLowerCase());
    return this.haystacks;
  }
}
