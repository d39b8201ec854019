/**
 * The comparison file (`*.comparison.json`): what was compared, the job ids as they were created,
 * then the results. It is the only state of a comparison, so a comparison resumes from it after a
 * reload, reopens offline, and can be committed as the record of a change.
 */
import { isFinalStatus } from '../jobStatus';
import { checkComparisonText } from './comparisonSchema';
import type { Expected, TestCase } from './testSet';

export const COMPARISON_KIND = 'agent-workbench.comparison';
export const COMPARISON_FORMAT_VERSION = 1;

/** An output of a job as the results endpoints give it. */
export interface RunOutput {
  key: string;
  value: string | null;
  data_type?: string | null;
  description?: string | null;
}

/** What one target gave for one case. */
export interface RunRecord {
  jobId: string;
  /** The job status code once known. */
  status?: number;
  outputs?: RunOutput[] | null;
  cost?: number | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
  durationMs?: number | null;
  /** Why the job could not be read, or its error. */
  error?: string;
  /** A reviewer's correction of the job's outcome, as the service records it (its corrected outputs). */
  reviewed?: string;
}

/** Why a target runs nothing more (it refused the inputs, say); its cases without a job are failed. */
interface TargetState {
  failed?: string;
}

/** What a comparison runs the cases on. */
export type ComparisonTarget =
  | ({ id: string; label: string; kind: 'version'; agentVersionId: string } & TargetState)
  /** The agent's current version at the moment each job starts. */
  | ({ id: string; label: string; kind: 'current'; /** Another agent's current version (a trial's copy); default the comparison's agent. */ agentId?: string } & TargetState)
  /** The results the same inputs had before: the jobs the test set was made from. Nothing is run. */
  | ({ id: string; label: string; kind: 'baseline' } & TargetState);

/** A case as the comparison keeps it (a copy, so the record reads alone). */
export interface ComparisonCase {
  name?: string;
  line: number;
  tags: string[];
  inputs: Record<string, unknown>;
  expected?: Expected;
  runs: Record<string, RunRecord>;
  /** Why the case is never sent (a file input outside the workspace): it fails on every target that runs, the others go on. */
  refused?: string;
}

/** A batch whose request was sent and whose answer was not (yet) recorded. */
export interface PendingBatch {
  targetId: string;
  caseIndexes: number[];
  sentAt: string;
}

export interface ComparisonRecord {
  kind: typeof COMPARISON_KIND;
  version: typeof COMPARISON_FORMAT_VERSION;
  title: string;
  agentId: string;
  agentName?: string;
  /** The test set's path relative to the comparison file's folder. */
  testSet: string;
  createdAt: string;
  /** Output keys compared between targets (the first is the outcome, e.g. `disposition`). */
  keys: string[];
  targets: ComparisonTarget[];
  /** The target the others are measured against ("changed" means changed against it). */
  baselineId: string;
  cases: ComparisonCase[];
  pending: PendingBatch[];
}

/** A new comparison of a test set's cases on targets; no job exists yet. */
export function newComparison(options: {
  title: string;
  agentId: string;
  agentName?: string;
  testSet: string;
  cases: readonly TestCase[];
  targets: readonly ComparisonTarget[];
  keys?: readonly string[];
  now?: Date;
}): ComparisonRecord {
  if (options.targets.length < 2) throw new Error('A comparison needs at least two targets.');
  const baseline = options.targets.find((t) => t.kind === 'baseline') ?? options.targets[0];
  const cases = options.cases.map((c): ComparisonCase => {
    const runs = dataMap<RunRecord>();
    if (options.targets.some((t) => t.kind === 'baseline') && c.sourceJobId) {
      for (const t of options.targets) if (t.kind === 'baseline') runs[t.id] = { jobId: c.sourceJobId };
    }
    const made: ComparisonCase = { line: c.line, tags: [...c.tags], inputs: dataCopy(c.inputs), runs };
    if (c.name !== undefined) made.name = c.name;
    if (c.expected) made.expected = c.expected;
    return made;
  });
  return {
    kind: COMPARISON_KIND,
    version: COMPARISON_FORMAT_VERSION,
    title: options.title,
    agentId: options.agentId,
    agentName: options.agentName,
    testSet: options.testSet,
    createdAt: (options.now ?? new Date()).toISOString(),
    keys: options.keys && options.keys.length > 0 ? [...options.keys] : ['disposition'],
    targets: [...options.targets],
    baselineId: baseline!.id,
    cases,
    pending: [],
  };
}

/** Which cases each runnable target still has to start: the ones with no job and no batch in flight. */
export function casesToStart(record: ComparisonRecord): Map<string, number[]> {
  const plan = new Map<string, number[]>();
  for (const target of record.targets) {
    if (target.kind === 'baseline' || target.failed !== undefined) continue;
    const inFlight = new Set(record.pending.filter((p) => p.targetId === target.id).flatMap((p) => p.caseIndexes));
    const todo = record.cases.flatMap((c, i) => (c.runs[target.id] || inFlight.has(i) || c.refused !== undefined ? [] : [i]));
    if (todo.length > 0) plan.set(target.id, todo);
  }
  return plan;
}

/** Splits case indexes into batches of at most `size` (one batch request each). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (size < 1) throw new Error('The chunk size must be at least 1.');
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Notes that a batch is about to be sent: written to the file before the request goes out. */
export function markSent(record: ComparisonRecord, targetId: string, caseIndexes: readonly number[], now = new Date()): PendingBatch {
  const batch: PendingBatch = { targetId, caseIndexes: [...caseIndexes], sentAt: now.toISOString() };
  record.pending.push(batch);
  return batch;
}

/** Records the job ids a batch was answered with (in the order of its cases) and clears it. */
export function recordStarted(record: ComparisonRecord, batch: PendingBatch, jobIds: readonly string[]): void {
  if (jobIds.length !== batch.caseIndexes.length) {
    throw new Error(`The service answered ${jobIds.length} job ids for ${batch.caseIndexes.length} cases.`);
  }
  batch.caseIndexes.forEach((caseIndex, i) => {
    const c = record.cases[caseIndex];
    if (c) c.runs[batch.targetId] = { jobId: jobIds[i]! };
  });
  dropPending(record, batch);
}

/** Forgets a batch that was never sent, or whose outcome the user chose to give up on. */
export function dropPending(record: ComparisonRecord, batch: PendingBatch): void {
  // A batch read back from the file is another object: the same target, time and cases make it the same batch
  // (two batches can share a millisecond, so the time alone is not enough).
  const same = (p: PendingBatch): boolean => p.targetId === batch.targetId && p.sentAt === batch.sentAt && p.caseIndexes.join() === batch.caseIndexes.join();
  record.pending = record.pending.filter((p) => p !== batch && !same(p));
}

/**
 * Every job id of the record that is not final yet (to follow with bulk statuses). A baseline's jobs are
 * past jobs: they are read, never waited on, so they are not here even before their status is known.
 */
export function unfinishedJobIds(record: ComparisonRecord): string[] {
  const ids = new Set<string>();
  for (const { run, baseline } of runsOf(record)) if (!baseline && run.error === undefined && (run.status === undefined || !isFinalStatus(run.status))) ids.add(run.jobId);
  return [...ids];
}

/** Every job id whose outputs are still to read with bulk results: final ones, and every baseline job (its answer carries its status). */
export function jobIdsWithoutResults(record: ComparisonRecord): string[] {
  const ids = new Set<string>();
  for (const { run, baseline } of runsOf(record)) {
    const final = run.status !== undefined && isFinalStatus(run.status);
    if ((final || baseline) && run.outputs === undefined && run.error === undefined) ids.add(run.jobId);
  }
  return [...ids];
}

function* runsOf(record: ComparisonRecord): Generator<{ run: RunRecord; baseline: boolean }> {
  for (const t of record.targets) {
    for (const c of record.cases) {
      const run = runOf(c, t.id);
      if (run) yield { run, baseline: t.kind === 'baseline' };
    }
  }
}

/** The agent whose jobs a target starts: the comparison's, or another (a trial's copy). */
export function agentOfTarget(record: Pick<ComparisonRecord, 'agentId'>, target: ComparisonTarget): string {
  return target.kind === 'current' && target.agentId ? target.agentId : record.agentId;
}

/** The agents the comparison would start jobs on now (each once, in the order of its targets): what its confirmation names and grants. */
export function agentsToStart(record: ComparisonRecord): string[] {
  const plan = casesToStart(record);
  return [...new Set(record.targets.filter((t) => plan.has(t.id)).map((t) => agentOfTarget(record, t)))];
}

/** The agent of each job the comparison started or reads (its target's agent). */
export function jobAgents(record: ComparisonRecord): Map<string, string> {
  const agents = new Map<string, string>();
  for (const t of record.targets) for (const c of record.cases) {
    const run = runOf(c, t.id);
    if (run) agents.set(run.jobId, agentOfTarget(record, t));
  }
  return agents;
}

/** A case's run on a target (own keys only: a target id like `constructor` is data). */
export function runOf(c: ComparisonCase, targetId: string): RunRecord | undefined {
  return Object.hasOwn(c.runs, targetId) ? c.runs[targetId] : undefined;
}

/** Marks a target failed with its reason: nothing more is started on it, its cases without a job count as failed. */
export function failTarget(record: ComparisonRecord, targetId: string, reason: string): void {
  const target = record.targets.find((t) => t.id === targetId);
  if (target) target.failed = reason;
}

/** Marks a case as never sent, with the reason: it fails on each target that runs, and the other cases go on. */
export function refuseCase(record: ComparisonRecord, caseIndex: number, reason: string): void {
  const c = record.cases[caseIndex];
  if (c) c.refused = reason;
}

/** Whether the comparison ever ran: a job on a target that runs, or a batch sent (a failed target or a refused case is no start). */
export function hasStarted(record: ComparisonRecord): boolean {
  const runs = record.targets.filter((t) => t.kind !== 'baseline');
  return record.pending.length > 0 || record.cases.some((c) => runs.some((t) => runOf(c, t.id)));
}

/** Removes a target and its runs from the comparison (never the baseline; at least two targets stay). */
export function dropTarget(record: ComparisonRecord, targetId: string): void {
  if (targetId === record.baselineId) throw new Error('The baseline is what the others are measured against: it cannot be dropped.');
  if (record.targets.length <= 2) throw new Error('A comparison needs at least two targets: this one cannot be dropped.');
  record.targets = record.targets.filter((t) => t.id !== targetId);
  record.pending = record.pending.filter((p) => p.targetId !== targetId);
  for (const c of record.cases) if (Object.hasOwn(c.runs, targetId)) delete c.runs[targetId];
}

/** Applies what the service said about jobs to every run that has one of those ids. */
export function applyToRuns(record: ComparisonRecord, jobId: string, patch: Partial<Omit<RunRecord, 'jobId'>>): void {
  for (const { run } of runsOf(record)) if (run.jobId === jobId) Object.assign(run, patch);
}

/** Whether every job of the comparison is final and read (nothing left to follow or start). */
export function isComplete(record: ComparisonRecord): boolean {
  return casesToStart(record).size === 0 && record.pending.length === 0 && unfinishedJobIds(record).length === 0 && jobIdsWithoutResults(record).length === 0;
}

/** Reads a comparison file, checked whole; throws a `ComparisonFileProblem` (with its line) when it is not one. */
export function parseComparison(text: string): ComparisonRecord {
  let value: ComparisonRecord;
  try {
    value = checkComparisonText(text) as ComparisonRecord;
  } catch (error) {
    if (error instanceof SyntaxError) throw new Error(`The comparison file is not valid JSON: ${error.message}`);
    throw error;
  }
  const cases = value.cases.map((c): ComparisonCase => {
    const made: ComparisonCase = { ...c, inputs: dataCopy(c.inputs), runs: dataCopy(c.runs) };
    if (c.expected?.outputs) made.expected = { ...c.expected, outputs: dataCopy(c.expected.outputs) };
    return made;
  });
  return { ...value, cases, pending: value.pending ?? [], keys: value.keys && value.keys.length > 0 ? value.keys : ['disposition'] };
}

/** An object whose keys are data (`__proto__`, `constructor`): no prototype, so nothing is inherited or set by a key. */
export function dataMap<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** A copy of an object as a data map (own enumerable keys, defined, never assigned). */
export function dataCopy<T>(source: Readonly<Record<string, T>>): Record<string, T> {
  const out = dataMap<T>();
  for (const key of Object.keys(source)) Object.defineProperty(out, key, { value: source[key], enumerable: true, writable: true, configurable: true });
  return out;
}

/** The file text of a record (stable, readable diffs in a pull request). */
export function serializeComparison(record: ComparisonRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}
