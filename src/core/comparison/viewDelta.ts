/**
 * What the comparison page is sent while a comparison runs: the whole comparison once (and whenever its
 * shape changes: a new load, other targets, keys or cases), then only the rows whose cells changed, the
 * summaries when they changed, and the progress line. The extension keeps the page's state (what it
 * would have after every message) so a page that reloads gets all of it back. No dependencies: the
 * page's bundle uses this file to apply an update.
 */
import type { CellView, ComparisonHostMessage, RowView, SummaryView } from './viewProtocol';

export type ComparisonShown = Extract<ComparisonHostMessage, { type: 'comparison' }>;
export type ComparisonRowsUpdate = Extract<ComparisonHostMessage, { type: 'rows' }>;
/** A comparison as the extension computes it, before it is given a load. */
export type ComparisonContent = Omit<ComparisonShown, 'type' | 'load'>;

/**
 * The message that brings a page showing `before` to `after`, and the state the page then has: the
 * whole comparison when there is no `before`, when `newLoad` is asked for or the shape changed, else an
 * update (or nothing at all when nothing changed).
 */
export function nextComparisonMessage(
  before: ComparisonShown | undefined,
  after: ComparisonContent,
  newLoad: boolean,
): { shown: ComparisonShown; message: ComparisonShown | ComparisonRowsUpdate | undefined } {
  if (!before || newLoad || !sameShape(before, after)) {
    const shown: ComparisonShown = { type: 'comparison', load: (before?.load ?? 0) + (newLoad || !before ? 1 : 0), ...after };
    return { shown, message: shown };
  }
  const rows: ComparisonRowsUpdate['rows'] = [];
  after.rows.forEach((row, index) => {
    if (!sameRow(before.rows[index]!, row)) rows.push({ index, row });
  });
  const summaries = sameSummaries(before.summaries, after.summaries) ? null : after.summaries;
  const shown: ComparisonShown = { ...before, summaries: after.summaries, rows: after.rows, progress: after.progress };
  if (rows.length === 0 && summaries === null && sameProgress(before.progress, after.progress)) return { shown, message: undefined };
  return { shown, message: { type: 'rows', load: before.load, rows, summaries, progress: after.progress } };
}

/** The page's side: `shown` after an update of its load (rows replaced where they changed). */
export function applyRowsUpdate(shown: ComparisonShown, update: ComparisonRowsUpdate): ComparisonShown {
  if (update.load !== shown.load) return shown;
  const rows = shown.rows.slice();
  for (const { index, row } of update.rows) if (index < rows.length) rows[index] = row;
  return { ...shown, rows, summaries: update.summaries ?? shown.summaries, progress: update.progress };
}

function sameShape(a: ComparisonShown, b: ComparisonContent): boolean {
  return (
    a.title === b.title &&
    a.subtitle === b.subtitle &&
    a.rows.length === b.rows.length &&
    sameList(a.keys, b.keys, (x, y) => x === y) &&
    sameList(a.targets, b.targets, (x, y) => x.label === y.label && x.kind === y.kind)
  );
}

function sameList<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): boolean {
  return a.length === b.length && a.every((x, i) => same(x, b[i]!));
}

/** Whether two rows show the same (the views are rebuilt each time, so by value). */
export function sameRow(a: RowView, b: RowView): boolean {
  return (
    a.case === b.case &&
    a.tags === b.tags &&
    a.expected === b.expected &&
    a.reviewed === b.reviewed &&
    a.reviewDisagrees === b.reviewDisagrees &&
    a.changed === b.changed &&
    a.failed === b.failed &&
    a.mismatch === b.mismatch &&
    sameList(a.cells, b.cells, sameCell)
  );
}

function sameCell(a: CellView, b: CellView): boolean {
  return (
    a.state === b.state &&
    a.changed === b.changed &&
    a.mismatch === b.mismatch &&
    a.cost === b.cost &&
    a.tokens === b.tokens &&
    a.durationMs === b.durationMs &&
    sameList(a.values, b.values, (x, y) => x === y)
  );
}

function sameSummaries(a: readonly SummaryView[], b: readonly SummaryView[]): boolean {
  // A handful of targets with a few figures each: their text is the simplest exact comparison.
  return JSON.stringify(a) === JSON.stringify(b);
}

function sameProgress(a: ComparisonShown['progress'], b: ComparisonShown['progress']): boolean {
  return a === b || (a !== null && b !== null && a.text === b.text && a.running === b.running && a.cancellable === b.cancellable && a.action === b.action);
}
