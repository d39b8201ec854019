/**
 * The messages between the comparison page and the extension. The extension owns the comparison and
 * sends what the page shows, already reduced to text and numbers; the page sorts, filters, paints and
 * asks. Both sides check every message on arrival. No dependencies: the page's bundle uses this file.
 */
import { type Checks, arrayOf, isBoolean, isFiniteNumber, isIndex, isMessage, isNullableNumber, isNullableString, isString, shaped } from '../messageShape';

export type CellState = 'none' | 'running' | 'done' | 'failed';

/** One target's part of a case row. */
export interface CellView {
  state: CellState;
  /** The compared output values, in the order of `keys` (null: missing or not done). */
  values: (string | null)[];
  changed: boolean;
  /** null when nothing is expected or the job is not done. */
  mismatch: boolean | null;
  cost: number | null;
  tokens: number | null;
  durationMs: number | null;
  /** Answered from the cache: no cost, no time of its own. */
  cached: boolean;
}

export interface RowView {
  case: string;
  tags: string;
  expected: string | null;
  /** A reviewer's correction the service records for the case's job, and whether the label says otherwise. */
  reviewed: string | null;
  reviewDisagrees: boolean;
  changed: boolean;
  failed: boolean;
  mismatch: boolean;
  /** For a changed case, the rules whose result differs (when the outputs say which matched). */
  why: string | null;
  cells: CellView[];
}

export interface TargetView {
  label: string;
  kind: string;
}

/** The header figures of one target. */
export interface SummaryView {
  label: string;
  done: number;
  running: number;
  failures: number;
  /** "92% of 50 labelled" or "–". */
  accuracy: string;
  /** Outcomes changed against the baseline; null for the baseline itself. */
  changed: number | null;
  cost: number;
  tokens: number;
  /** Jobs answered from the cache (left out of cost, tokens and durations). */
  cached: number;
  p50Ms: number | null;
  p95Ms: number | null;
  /** Outcome → how many cases (the disposition chart). */
  outcomes: [string, number][];
  /** Why the target runs nothing more (it refused the inputs), or null. */
  failed: string | null;
  /** Whether the target may be dropped from the comparison (not the baseline; two targets stay). */
  droppable: boolean;
}

export interface ProgressView {
  /** "Starting 120 of 1,000 cases", "Waiting for 37 jobs", "Interrupted: …". */
  text: string;
  running: boolean;
  /** Whether Cancel applies (jobs are not finished). */
  cancellable: boolean;
  /** The button that starts what has no job: Start (nothing ran yet), Resume (it ran before), or none. */
  action: 'start' | 'resume' | null;
}

export type ComparisonHostMessage =
  | {
      type: 'comparison';
      load: number;
      title: string;
      subtitle: string;
      keys: string[];
      targets: TargetView[];
      summaries: SummaryView[];
      rows: RowView[];
      progress: ProgressView | null;
    }
  /** While a comparison runs: the rows whose cells changed, the summaries when they changed, the progress line (see viewDelta.ts). */
  | { type: 'rows'; load: number; rows: { index: number; row: RowView }[]; summaries: SummaryView[] | null; progress: ProgressView | null }
  | { type: 'progress'; load: number; progress: ProgressView | null }
  | { type: 'notice'; text: string; error: boolean }
  /** The labelling pass: the dispositions a number key picks (the policy's, then the outcomes the targets gave). */
  | { type: 'dispositions'; load: number; values: string[] }
  /** Start the labelling pass (the Label Cases… command). */
  | { type: 'startPass'; load: number }
  /** The labelling pass: a case's inputs as text, by key. */
  | { type: 'inputs'; load: number; index: number; inputs: [string, string][] };

export type ExportFormat = 'csv' | 'json' | 'markdown';

export type ComparisonPageMessage =
  | { type: 'ready' }
  /** Show a case's full outputs of two targets side by side (VS Code's diff editor). */
  | { type: 'openCase'; load: number; index: number; left: number; right: number }
  | { type: 'openJob'; load: number; index: number; target: number }
  | { type: 'cancel'; load: number }
  | { type: 'resume'; load: number }
  | { type: 'dropTarget'; load: number; target: number }
  | { type: 'export'; load: number; format: ExportFormat }
  /** Label a case: its target's cell is right, or Set Expected… (of the compared output `key`; 0 is the outcome). */
  | { type: 'label'; load: number; index: number; target: number; key: number; action: 'right' | 'set' }
  /** The labelling pass starts: the dispositions to pick from, please. */
  | { type: 'labelMode'; load: number }
  /** The labelling pass: the case expects this disposition (a number key). */
  | { type: 'labelAs'; load: number; index: number; value: string }
  /** The labelling pass: a case's inputs, please. */
  | { type: 'inputs'; load: number; index: number };

const isState = (v: unknown): boolean => v === 'none' || v === 'running' || v === 'done' || v === 'failed';
const isNullableIndex = (v: unknown): boolean => v === null || isIndex(v);

const isCell = (v: unknown): boolean =>
  shaped(v, {
    state: isState,
    values: arrayOf(isNullableString),
    changed: isBoolean,
    mismatch: (m) => m === null || typeof m === 'boolean',
    cost: isNullableNumber,
    tokens: isNullableNumber,
    durationMs: isNullableNumber,
    cached: isBoolean,
  });
const isRow = (v: unknown): boolean =>
  shaped(v, { case: isString, tags: isString, expected: isNullableString, reviewed: isNullableString, reviewDisagrees: isBoolean, changed: isBoolean, failed: isBoolean, mismatch: isBoolean, why: isNullableString, cells: arrayOf(isCell) });
const isTarget = (v: unknown): boolean => shaped(v, { label: isString, kind: isString });
const isOutcome = (v: unknown): boolean => Array.isArray(v) && v.length === 2 && isString(v[0]) && isIndex(v[1]);
const isSummary = (v: unknown): boolean =>
  shaped(v, {
    label: isString,
    done: isIndex,
    running: isIndex,
    failures: isIndex,
    accuracy: isString,
    changed: isNullableIndex,
    cost: isFiniteNumber,
    tokens: isFiniteNumber,
    cached: isIndex,
    p50Ms: isNullableNumber,
    p95Ms: isNullableNumber,
    outcomes: arrayOf(isOutcome),
    failed: isNullableString,
    droppable: isBoolean,
  });
const isProgress = (v: unknown): boolean => v === null || shaped(v, { text: isString, running: isBoolean, cancellable: isBoolean, action: (a) => a === null || a === 'start' || a === 'resume' });

const HOST_MESSAGES: Record<ComparisonHostMessage['type'], Checks> = {
  comparison: {
    load: isIndex,
    title: isString,
    subtitle: isString,
    keys: arrayOf(isString),
    targets: arrayOf(isTarget),
    summaries: arrayOf(isSummary),
    rows: arrayOf(isRow),
    progress: isProgress,
  },
  rows: {
    load: isIndex,
    rows: arrayOf((v) => shaped(v, { index: isIndex, row: isRow })),
    summaries: (v) => v === null || arrayOf(isSummary)(v),
    progress: isProgress,
  },
  progress: { load: isIndex, progress: isProgress },
  notice: { text: isString, error: isBoolean },
  dispositions: { load: isIndex, values: arrayOf(isString) },
  startPass: { load: isIndex },
  inputs: { load: isIndex, index: isIndex, inputs: arrayOf((v) => Array.isArray(v) && v.length === 2 && isString(v[0]) && isString(v[1])) },
};

const PAGE_MESSAGES: Record<ComparisonPageMessage['type'], Checks> = {
  ready: {},
  openCase: { load: isIndex, index: isIndex, left: isIndex, right: isIndex },
  openJob: { load: isIndex, index: isIndex, target: isIndex },
  cancel: { load: isIndex },
  resume: { load: isIndex },
  dropTarget: { load: isIndex, target: isIndex },
  export: { load: isIndex, format: (f) => f === 'csv' || f === 'json' || f === 'markdown' },
  label: { load: isIndex, index: isIndex, target: isIndex, key: isIndex, action: (a) => a === 'right' || a === 'set' },
  labelMode: { load: isIndex },
  labelAs: { load: isIndex, index: isIndex, value: (v) => isString(v) && (v as string).trim() !== '' && (v as string).length <= 200 },
  inputs: { load: isIndex, index: isIndex },
};

/** A message from the page, or undefined when it is not one of ours. */
export function parseComparisonPageMessage(value: unknown): ComparisonPageMessage | undefined {
  return isMessage<ComparisonPageMessage>(PAGE_MESSAGES, value) ? value : undefined;
}

/** Whether a message has the shape the page expects. */
export function isComparisonHostMessage(value: unknown): value is ComparisonHostMessage {
  return isMessage<ComparisonHostMessage>(HOST_MESSAGES, value);
}
