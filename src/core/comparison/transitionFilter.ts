/**
 * What going from one target to another did to each case, as the comparison page filters by it: the
 * labelled cases that became right, became wrong, stayed wrong or stayed right, and every case both
 * targets finished by its outcome on each. No dependencies: the page's bundle uses this file, and the
 * core's own figures (compare.ts) sort cases with the same rule.
 */
import type { RowView } from './viewProtocol';

export type RightWrong = 'becameRight' | 'becameWrong' | 'stayedWrong' | 'stayedRight';

/** Where a labelled case went, from its mismatch mark on each target; undefined when either is not judged (no label, or not done). */
export function rightWrong(fromMismatch: boolean | null | undefined, toMismatch: boolean | null | undefined): RightWrong | undefined {
  if (typeof fromMismatch !== 'boolean' || typeof toMismatch !== 'boolean') return undefined;
  if (fromMismatch) return toMismatch ? 'stayedWrong' : 'becameRight';
  return toMismatch ? 'becameWrong' : 'stayedRight';
}

/** An outcome as a transition names it (a missing output is "(none)"). */
export function outcomeName(value: string | null | undefined): string {
  return value ?? '(none)';
}

/** A filter of the case table by transition between targets `from` and `to` (indexes into the targets). */
export type TransitionFilter = { from: number; to: number } & ({ kind: RightWrong } | { kind: 'outcomes'; fromOutcome: string; toOutcome: string });

/** Counts of the cases between two targets: right/wrong moves of the labelled ones, and outcome pairs of all that both finished. */
export interface TransitionCounts {
  rightWrong: Record<RightWrong, number>;
  /** Labelled cases both targets finished. */
  judged: number;
  /** Outcome on `from` × outcome on `to`, for every case both finished (most first). */
  outcomes: { from: string; to: string; count: number }[];
}

/** Whether a row is one the filter keeps. */
export function matchesTransition(row: RowView, filter: TransitionFilter): boolean {
  const a = row.cells[filter.from];
  const b = row.cells[filter.to];
  if (!a || !b) return false;
  if (filter.kind !== 'outcomes') return rightWrong(a.mismatch, b.mismatch) === filter.kind;
  return a.state === 'done' && b.state === 'done' && outcomeName(a.values[0]) === filter.fromOutcome && outcomeName(b.values[0]) === filter.toOutcome;
}

/** The counts the page shows as filters for two targets. */
export function transitionCounts(rows: readonly RowView[], from: number, to: number): TransitionCounts {
  const counts: TransitionCounts = { rightWrong: { becameRight: 0, becameWrong: 0, stayedWrong: 0, stayedRight: 0 }, judged: 0, outcomes: [] };
  const pairs = new Map<string, { from: string; to: string; count: number }>();
  for (const row of rows) {
    const a = row.cells[from];
    const b = row.cells[to];
    if (!a || !b || a.state !== 'done' || b.state !== 'done') continue;
    const move = rightWrong(a.mismatch, b.mismatch);
    if (move) {
      counts.rightWrong[move]++;
      counts.judged++;
    }
    const pair = { from: outcomeName(a.values[0]), to: outcomeName(b.values[0]) };
    const key = JSON.stringify([pair.from, pair.to]);
    const entry = pairs.get(key) ?? { ...pair, count: 0 };
    entry.count++;
    pairs.set(key, entry);
  }
  counts.outcomes = [...pairs.values()].sort((x, y) => y.count - x.count || x.from.localeCompare(y.from) || x.to.localeCompare(y.to));
  return counts;
}
