/**
 * What a comparison says: per case, whether the targets agree and whether each matches what was
 * expected; per target, accuracy, changes against the baseline, failures, cost, tokens and
 * duration percentiles, and how its dispositions are spread.
 */
import { JobStatus, isFinalStatus } from '../jobStatus';
import { outcomeName, rightWrong } from './transitionFilter';
import { runOf, type ComparisonCase, type ComparisonRecord, type ComparisonTarget, type RunRecord } from './comparisonRecord';

/** How one target did on one case. */
export type RunState = 'none' | 'running' | 'done' | 'failed';

export interface CaseTargetCell {
  state: RunState;
  /** The value of each compared key (null when the output is missing). */
  values: (string | null)[];
  /** Whether this target's outcome differs from the baseline's (both done). */
  changed: boolean;
  /** Whether it disagrees with what the case expects (undefined when nothing is expected or not done). */
  mismatch: boolean | undefined;
}

export interface CaseRow {
  index: number;
  cells: CaseTargetCell[];
  /** Any target done differs from another one done. */
  changed: boolean;
  failed: boolean;
  mismatch: boolean;
}

export interface TargetSummary {
  targetId: string;
  label: string;
  done: number;
  running: number;
  failures: number;
  /** Cases with an expectation that this target matched, of those it finished. */
  agree: number;
  expected: number;
  /** Share of `agree / expected`, undefined when nothing was expected. */
  accuracy: number | undefined;
  /** Outcomes different from the baseline's (undefined for the baseline itself). */
  changedVsBaseline: number | undefined;
  totalCost: number;
  totalTokens: number;
  /** Done jobs answered from the cache: their cost and time say nothing of a run. */
  cached: number;
  p50DurationMs: number | undefined;
  p95DurationMs: number | undefined;
  /** How many cases got each outcome (the first key's value; `(none)` when missing). */
  outcomes: Map<string, number>;
}

/** The value of an output key in a run, as text (null when missing). */
export function outputValue(run: RunRecord | undefined, key: string): string | null {
  const output = run?.outputs?.find((o) => o.key === key);
  return output?.value ?? null;
}

/** The state of a run: nothing started, still going, finished, or failed/cancelled. */
export function runState(run: RunRecord | undefined): RunState {
  if (!run) return 'none';
  if (run.error !== undefined) return 'failed';
  if (run.status === undefined || !isFinalStatus(run.status)) return 'running';
  if (run.status === JobStatus.FAILURE || run.status === JobStatus.CANCELLED) return 'failed';
  return run.outputs === undefined ? 'running' : 'done';
}

/** Whether a run's outputs agree with what the case expects; undefined when nothing is expected. */
export function matchesExpected(c: ComparisonCase, run: RunRecord | undefined, outcomeKey: string): boolean | undefined {
  const expected = c.expected;
  if (!expected || (expected.disposition === undefined && !expected.outputs)) return undefined;
  if (expected.disposition !== undefined && !sameOutcome(outputValue(run, outcomeKey), expected.disposition)) return false;
  for (const [key, value] of Object.entries(expected.outputs ?? {})) if (!sameOutcome(outputValue(run, key), value)) return false;
  return true;
}

/** Whether two outcomes are the same: dispositions are labels, so a reviewer's "Escalate" and the engine's "escalate " are. */
export function sameOutcome(a: string | null, b: string): boolean {
  return a !== null && a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** The row of one case: a cell per target, and what marks it. */
export function caseRow(record: ComparisonRecord, index: number): CaseRow {
  const c = record.cases[index]!;
  const baseline = runOf(c, record.baselineId);
  const baselineKey = runState(baseline) === 'done' ? outcomeKeyOf(baseline, record.keys) : undefined;
  const cells = record.targets.map((t): CaseTargetCell => {
    const run = runOf(c, t.id);
    const state = targetRunState(t, run, c.refused);
    const done = state === 'done';
    return {
      state,
      values: record.keys.map((k) => (done ? outputValue(run, k) : null)),
      changed: done && t.id !== record.baselineId && baselineKey !== undefined && outcomeKeyOf(run, record.keys) !== baselineKey,
      mismatch: done ? mismatchOf(matchesExpected(c, run, record.keys[0]!)) : undefined,
    };
  });
  const doneKeys = new Set(record.targets.flatMap((t) => (runState(runOf(c, t.id)) === 'done' ? [outcomeKeyOf(runOf(c, t.id), record.keys)] : [])));
  return {
    index,
    cells,
    changed: doneKeys.size > 1,
    failed: cells.some((cell) => cell.state === 'failed'),
    mismatch: cells.some((cell) => cell.mismatch === true),
  };
}

/** A case's state on a target: a failed target's cases with no job, and a refused case on a target that runs, are failed, not waiting. */
export function targetRunState(target: ComparisonTarget, run: RunRecord | undefined, refused?: string): RunState {
  return !run && (target.failed !== undefined || (refused !== undefined && target.kind !== 'baseline')) ? 'failed' : runState(run);
}

/** Why a case failed on a target (the job's error, the case's refusal, or the target's), if it did. */
export function failureReason(target: ComparisonTarget, run: RunRecord | undefined, refused?: string): string | undefined {
  return run?.error ?? (run ? undefined : (target.failed ?? (target.kind !== 'baseline' ? refused : undefined)));
}

function mismatchOf(matches: boolean | undefined): boolean | undefined {
  return matches === undefined ? undefined : !matches;
}

function outcomeKeyOf(run: RunRecord | undefined, keys: readonly string[]): string {
  return JSON.stringify(keys.map((k) => outputValue(run, k)));
}

/** Every case's row. */
export function caseRows(record: ComparisonRecord): CaseRow[] {
  return record.cases.map((_, i) => caseRow(record, i));
}

/** The header figures of each target. */
export function summarize(record: ComparisonRecord, rows: readonly CaseRow[] = caseRows(record)): TargetSummary[] {
  return record.targets.map((target, t) => {
    const summary: TargetSummary = {
      targetId: target.id,
      label: target.label,
      done: 0,
      running: 0,
      failures: 0,
      agree: 0,
      expected: 0,
      accuracy: undefined,
      changedVsBaseline: target.id === record.baselineId ? undefined : 0,
      totalCost: 0,
      totalTokens: 0,
      cached: 0,
      p50DurationMs: undefined,
      p95DurationMs: undefined,
      outcomes: new Map(),
    };
    const durations: number[] = [];
    rows.forEach((row) => {
      const c = record.cases[row.index]!;
      const run = runOf(c, target.id);
      const cell = row.cells[t]!;
      if (cell.state === 'running') summary.running++;
      if (cell.state === 'failed') summary.failures++;
      if (run?.status === JobStatus.CACHED) summary.cached++;
      else if (run) {
        summary.totalCost += finite(run.cost);
        summary.totalTokens += finite(run.inputTokens) + finite(run.outputTokens);
        if (typeof run.durationMs === 'number' && Number.isFinite(run.durationMs)) durations.push(run.durationMs);
      }
      if (cell.state !== 'done') return;
      summary.done++;
      const outcome = cell.values[0] ?? '(none)';
      summary.outcomes.set(outcome, (summary.outcomes.get(outcome) ?? 0) + 1);
      if (cell.mismatch !== undefined) {
        summary.expected++;
        if (!cell.mismatch) summary.agree++;
      }
      if (cell.changed && summary.changedVsBaseline !== undefined) summary.changedVsBaseline++;
    });
    summary.accuracy = summary.expected > 0 ? summary.agree / summary.expected : undefined;
    summary.p50DurationMs = quantile(durations, 0.5);
    summary.p95DurationMs = quantile(durations, 0.95);
    return summary;
  });
}

function finite(n: number | null | undefined): number {
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}

/** The q-quantile (nearest rank) of some numbers; undefined when there are none. */
export function quantile(values: readonly number[], q: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1];
}


/** A target's accuracy in words: "83% of 36 labelled", or "–" when no finished case is labelled. */
export function accuracyText(s: Pick<TargetSummary, 'accuracy' | 'expected'>): string {
  return s.accuracy === undefined ? '–' : `${Math.round(s.accuracy * 100)}% of ${s.expected} labelled`;
}

/** What going from one target to another did to correctness, on the labelled cases both finished. */
export interface Transitions {
  /** Case indexes by what happened: wrong then right, right then wrong, wrong on both, right on both. */
  becameRight: number[];
  becameWrong: number[];
  stayedWrong: number[];
  stayedRight: number[];
  /** How many of those cases went from each outcome to each outcome (most first). */
  outcomes: { from: string; to: string; count: number }[];
}

/** The transitions from target `from` to target `to` (indexes into `record.targets`), from the rows' own mismatch marks. */
export function transitions(record: ComparisonRecord, from: number, to: number, rows: readonly CaseRow[] = caseRows(record)): Transitions {
  const result: Transitions = { becameRight: [], becameWrong: [], stayedWrong: [], stayedRight: [], outcomes: [] };
  const counts = new Map<string, { from: string; to: string; count: number }>();
  for (const row of rows) {
    const a = row.cells[from];
    const b = row.cells[to];
    const move = rightWrong(a?.mismatch, b?.mismatch);
    if (!a || !b || !move) continue;
    result[move].push(row.index);
    const pair = { from: outcomeName(a.values[0]), to: outcomeName(b.values[0]) };
    const key = JSON.stringify(pair);
    const entry = counts.get(key) ?? { ...pair, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  result.outcomes = [...counts.values()].sort((x, y) => y.count - x.count || x.from.localeCompare(y.from) || x.to.localeCompare(y.to));
  return result;
}

/**
 * "accuracy 58% → 75%: 3 cases became right, 1 became wrong" for two targets' summaries and their
 * transitions. Both figures are of the same cases — the labelled ones both targets answered — so the
 * arrow never moves because one side failed a case; how many were left out for that is said.
 */
export function correctnessLine(before: TargetSummary, after: TargetSummary, t: Transitions): string {
  const both = t.becameRight.length + t.becameWrong.length + t.stayedRight.length + t.stayedWrong.length;
  const pct = (right: number): string => (both === 0 ? '–' : `${Math.round((right / both) * 100)}%`);
  const right = t.becameRight.length;
  const wrong = t.becameWrong.length;
  const moves = right === 0 && wrong === 0 ? 'no case changed between right and wrong' : `${right} case${right === 1 ? '' : 's'} became right, ${wrong} became wrong`;
  const oneSide = Math.max(0, before.expected - both) + Math.max(0, after.expected - both);
  const leftOut = oneSide > 0 ? ` (on the ${both} labelled case${both === 1 ? '' : 's'} both answered; ${oneSide} answered by one side only ${oneSide === 1 ? 'is' : 'are'} left out)` : '';
  return `accuracy ${pct(t.stayedRight.length + t.becameWrong.length)} → ${pct(t.stayedRight.length + right)}${leftOut}: ${moves}`;
}
