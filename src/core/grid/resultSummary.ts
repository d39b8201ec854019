/** The words around a result: its row count, what the service read, how long it took, and whether rows are missing. */
import type { QueryResult } from '../client/schemas/database';
import { bytes, duration, nanoseconds } from '../format';

const count = (n: number): string => n.toLocaleString('en-US');

/** "No rows", "1 row", "100,000 rows". */
export function rowCountText(n: number): string {
  if (n === 0) return 'No rows';
  return `${count(n)} row${n === 1 ? '' : 's'}`;
}

/** How long the query ran: the service's own measure, else the span between its timestamps. */
export function elapsedText(result: Pick<QueryResult, 'summary' | 'start_timestamp' | 'end_timestamp'>): string {
  const ns = result.summary?.elapsed_ns;
  if (typeof ns === 'number' && ns >= 0) return nanoseconds(ns);
  const { start_timestamp: start, end_timestamp: end } = result;
  if (typeof start === 'number' && typeof end === 'number' && end >= start) return duration((end - start) * 1000);
  return '';
}

/** "read 1,234,567 rows, 45 MB" from the summary, or '' when the service did not say. */
export function readText(result: Pick<QueryResult, 'summary'>): string {
  const rows = result.summary?.read_rows;
  const size = result.summary?.read_bytes;
  const parts: string[] = [];
  if (typeof rows === 'number') parts.push(`${count(rows)} row${rows === 1 ? '' : 's'}`);
  if (typeof size === 'number') parts.push(bytes(size));
  return parts.length ? `read ${parts.join(', ')}` : '';
}

/** The status line: "100,000 rows · read 1,234,567 rows, 45 MB · 340 ms". */
export function statusLine(result: QueryResult): string {
  return [rowCountText(result.result_rows.length), readText(result), elapsedText(result)].filter((part) => part !== '').join(' · ');
}

/** Whether the service sent fewer rows than the query gave. */
export function isCutShort(result: Pick<QueryResult, 'truncated' | 'row_count' | 'result_rows'>): boolean {
  return result.truncated === true || result.row_count > result.result_rows.length;
}

/** A plain sentence when the service cut the rows short, else undefined. */
export function truncationNotice(result: Pick<QueryResult, 'truncated' | 'row_count' | 'result_rows'>): string | undefined {
  if (!isCutShort(result)) return undefined;
  const shown = result.result_rows.length;
  const advice = 'Narrow the query (a WHERE clause or a LIMIT) to see the rest.';
  if (shown === 0) return `The service cut the result short and sent no rows. ${advice}`;
  if (result.row_count > shown) {
    return `Showing only the first ${count(shown)} of ${count(result.row_count)} rows: the service cut the result short. Sorting, filtering and export cover these ${count(shown)} rows. ${advice}`;
  }
  return `Showing only the first ${rowCountText(shown)}: the service cut the result short and more rows exist. ${advice}`;
}

/** The tab label of a result among several: "Result 2 · 1,000 rows". */
export function resultTitle(index: number, result: Pick<QueryResult, 'result_rows'>): string {
  return `Result ${index + 1} · ${rowCountText(result.result_rows.length)}`;
}
