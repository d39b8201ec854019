/**
 * Which rows and columns the grid paints for a scroll position. Rows have one fixed height; browsers
 * cap how tall an element can be (about 33 million pixels in Chromium), so past a cap the scroll
 * range is mapped onto the rows proportionally instead of one pixel per pixel.
 */

/** Tallest scroll area the grid makes, well under every engine's limit. */
export const MAX_CANVAS_PX = 8_000_000;

export interface RowLayout {
  rowHeight: number;
  rowCount: number;
  /** Height of the visible part of the rows (without the header). */
  viewportHeight: number;
  maxCanvas?: number;
}

/** Rows to paint: `first` to `last` inclusive (none when last < first), `first` drawn at `offsetY`. */
export interface RowWindow {
  first: number;
  last: number;
  offsetY: number;
}

/** Height of the scrollable area of the rows. */
export function canvasHeight(layout: RowLayout): number {
  return Math.min(layout.rowCount * layout.rowHeight, layout.maxCanvas ?? MAX_CANVAS_PX);
}

/** How far (in rows' own pixels) the rows are scrolled for a scroll position of the canvas. */
function contentTop(scrollTop: number, layout: RowLayout): number {
  const content = layout.rowCount * layout.rowHeight;
  const canvas = canvasHeight(layout);
  if (content === canvas) return scrollTop;
  const range = canvas - layout.viewportHeight;
  return range <= 0 ? 0 : (Math.max(0, Math.min(range, scrollTop)) / range) * (content - layout.viewportHeight);
}

/** The rows visible at a scroll position, plus `overscan` rows either side. */
export function rowWindow(scrollTop: number, layout: RowLayout, overscan = 0): RowWindow {
  if (layout.rowCount === 0 || layout.rowHeight <= 0) return { first: 0, last: -1, offsetY: 0 };
  const top = contentTop(scrollTop, layout);
  const visibleFirst = Math.min(layout.rowCount - 1, Math.floor(top / layout.rowHeight));
  const visibleLast = Math.min(layout.rowCount - 1, Math.floor((top + Math.max(0, layout.viewportHeight - 1)) / layout.rowHeight));
  const first = Math.max(0, visibleFirst - overscan);
  const last = Math.min(layout.rowCount - 1, visibleLast + overscan);
  // Where row `first` lands in canvas pixels: the canvas scroll position minus how far into the rows we are.
  const offsetY = scrollTop - (top - first * layout.rowHeight);
  return { first, last, offsetY };
}

/** The scroll position that shows `row` fully, moving as little as possible from `scrollTop`. */
export function scrollTopFor(row: number, scrollTop: number, layout: RowLayout): number {
  const { rowHeight, viewportHeight } = layout;
  const top = contentTop(scrollTop, layout);
  const rowTop = row * rowHeight;
  let wanted = top;
  if (rowTop < top) wanted = rowTop;
  else if (rowTop + rowHeight > top + viewportHeight) wanted = rowTop + rowHeight - viewportHeight;
  if (wanted === top) return scrollTop;
  const content = layout.rowCount * rowHeight;
  const canvas = canvasHeight(layout);
  if (content === canvas) return Math.max(0, wanted);
  const range = canvas - viewportHeight;
  return Math.max(0, Math.min(range, (wanted / (content - viewportHeight)) * range));
}

/** Left edges of the columns (and the total width as the last entry) for their widths. */
export function columnOffsets(widths: readonly number[]): number[] {
  const offsets = [0];
  for (const width of widths) offsets.push((offsets[offsets.length - 1] as number) + width);
  return offsets;
}

/** Columns overlapping the horizontal range [left, left + width), plus `overscan` either side. */
export function columnWindow(offsets: readonly number[], left: number, width: number, overscan = 0): { first: number; last: number } {
  const count = offsets.length - 1;
  if (count <= 0) return { first: 0, last: -1 };
  const first = Math.max(0, lastAtOrBefore(offsets, left, count) - overscan);
  const last = Math.min(count - 1, lastAtOrBefore(offsets, left + Math.max(0, width - 1), count) + overscan);
  return { first, last };
}

/** The last column whose left edge is at or before `x` (binary search). */
function lastAtOrBefore(offsets: readonly number[], x: number, count: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((offsets[mid] as number) <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
