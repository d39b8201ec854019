/**
 * The labelling pass of the comparison page: which case comes next (the unlabelled ones, in test set
 * order, from where the pass is), how far it got, and which target's outcome Enter agrees with. No
 * dependencies: the page's bundle uses this file.
 */
import type { RowView, TargetView } from './viewProtocol';

/** The first unlabelled case at or after `from` (wrapping round), or undefined when every case is labelled. */
export function nextUnlabelled(rows: readonly RowView[], from: number, skipped: ReadonlySet<number> = new Set()): number | undefined {
  for (let step = 0; step < rows.length; step++) {
    const i = (Math.max(0, from) + step) % rows.length;
    if (rows[i]!.expected === null && !skipped.has(i)) return i;
  }
  return undefined;
}

/** "12 of 40 labelled". */
export function labelProgress(rows: readonly RowView[]): string {
  const labelled = rows.filter((r) => r.expected !== null).length;
  return `${labelled.toLocaleString('en-US')} of ${rows.length.toLocaleString('en-US')} labelled`;
}

/** The target whose outcome Enter agrees with: the first one compared with the baseline that finished with an outcome, else the baseline. */
export function shownTarget(targets: readonly TargetView[], row: RowView): number | undefined {
  const withOutcome = (t: number): boolean => row.cells[t]?.state === 'done' && row.cells[t]?.values[0] != null;
  const order = [...targets.keys()].sort((a, b) => Number(targets[a]!.kind === 'baseline') - Number(targets[b]!.kind === 'baseline'));
  return order.find(withOutcome);
}
