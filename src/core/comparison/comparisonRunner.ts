/**
 * Drives a comparison against the service: starts the cases that have no job (one batch request per
 * target per chunk), applies statuses as they come, reads results in bulk, cancels what is not
 * finished. The record is saved before every request that writes and after every answer, so an
 * interruption at any point resumes without starting a case twice.
 */
import { hasFileInput } from '../client/resources/runBody';
import { isOutcomeUnknown, outcomeUnknownMessage } from '../outcomeUnknown';
import { isFinalStatus } from '../jobStatus';
import {
  agentOfTarget,
  applyToRuns,
  casesToStart,
  chunk,
  dropPending,
  failTarget,
  jobIdsWithoutResults,
  markSent,
  recordStarted,
  runOf,
  unfinishedJobIds,
  type ComparisonRecord,
  type ComparisonTarget,
  type PendingBatch,
  type RunOutput,
} from './comparisonRecord';

/** Cases per batch request: one request per target per chunk. */
export const BATCH_SIZE = 100;
/** Job ids per bulk results request. */
export const RESULTS_CHUNK = 100;

/** One item of the bulk results answer, as far as a comparison needs it. */
export interface ResultItem {
  id: string;
  /** The agent the job belongs to, when the service says. */
  agent_id?: string | null;
  status?: number | null;
  result?: RunOutput[] | null;
  corrected_outputs?: RunOutput[] | null;
  cost?: number | null;
  input_tokens?: number | null;
  output_tokens?: number | null;
}

/** A job status as the status fetcher gives it. */
export interface StatusItem {
  id: string;
  status: number;
  createdAt?: string;
  lastUpdatedAt?: string;
  errorMessage?: string;
}

/** What the runner needs of the service; the extension adapts the client to it. */
export interface ComparisonService {
  /** Starts one job per input set on the agent's current version; job ids in the same order. */
  runMany(agentId: string, inputs: Record<string, unknown>[], signal: AbortSignal): Promise<string[]>;
  /** Starts one job of a chosen version. */
  runVersion(agentId: string, versionId: string, inputs: Record<string, unknown>, signal: AbortSignal): Promise<string>;
  /** Starts one job of the agent's current version (a case with a file: a batch takes text and JSON only). */
  runOne(agentId: string, inputs: Record<string, unknown>, signal: AbortSignal): Promise<string>;
  results(jobIds: string[], signal: AbortSignal): Promise<ResultItem[]>;
  cancel(jobId: string, signal: AbortSignal): Promise<void>;
  /** The statuses of jobs with their times (the results before take their durations from them). */
  statuses?(jobIds: string[], signal: AbortSignal): Promise<StatusItem[]>;
}

/** A batch whose answer was lost: it may or may not have started jobs. */
export class BatchOutcomeUnknown extends Error {
  constructor(
    readonly batch: PendingBatch,
    cause: unknown,
  ) {
    const n = batch.caseIndexes.length;
    super(outcomeUnknownMessage({ happened: `the batch of ${n} case${n === 1 ? '' : 's'} started`, readAgain: "the agent's jobs" }, cause), { cause });
    this.name = 'BatchOutcomeUnknown';
  }
}


/** The service refused the request itself (bad inputs, unknown version): the same request would be refused again. */
export function isRefusal(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 408 && status !== 429;
}

/** What startMissing reports as it goes. */
export interface StartEvents {
  /** Cases started so far, and the ids just started (to follow at once). */
  onStarted?(count: number, jobIds: readonly string[], agentId: string): void;
  /** A target was marked failed (the service refused its request); the others went on. */
  onTargetFailed?(targetId: string, reason: string): void;
  /** A batch is about to be sent, or its answer came (or was lost): the batches in flight now. */
  onInFlight?(batches: readonly PendingBatch[]): void;
}

/**
 * Starts every case that has no job yet. `save` is awaited before each request goes out (the batch is
 * marked as sent) and after its answer (the job ids). A lost answer leaves the batch marked and
 * throws `BatchOutcomeUnknown`: nothing is resent until the user decides. A target whose request the
 * service refuses is marked failed with the reason, and the other targets go on.
 */
export async function startMissing(record: ComparisonRecord, service: ComparisonService, save: () => Promise<void>, signal: AbortSignal, events: StartEvents = {}): Promise<void> {
  let started = 0;
  const inFlight: PendingBatch[] = [];
  const flying = (batch: PendingBatch, on: boolean): void => {
    if (on) inFlight.push(batch);
    else inFlight.splice(inFlight.indexOf(batch), 1);
    events.onInFlight?.([...inFlight]);
  };
  for (const [targetId, caseIndexes] of casesToStart(record)) {
    const target = record.targets.find((t) => t.id === targetId)!;
    for (const part of startParts(record, target, caseIndexes)) {
      signal.throwIfAborted();
      const batch = markSent(record, targetId, part);
      flying(batch, true);
      let ids: string[];
      try {
        await save();
        ids = await startBatch(record, target, part, service, signal);
      } catch (error) {
        flying(batch, false);
        if (isOutcomeUnknown(error)) {
          await save();
          throw new BatchOutcomeUnknown(batch, error);
        }
        dropPending(record, batch);
        if (!isRefusal(error)) {
          await save();
          throw error;
        }
        const reason = error instanceof Error ? error.message : String(error);
        failTarget(record, targetId, reason);
        await save();
        events.onTargetFailed?.(targetId, reason);
        break;
      }
      flying(batch, false);
      recordStarted(record, batch, ids);
      await save();
      started += part.length;
      events.onStarted?.(started, ids, agentOfTarget(record, target));
    }
  }
}

/**
 * The requests a target's cases go in: the live service batches only text and JSON inputs on the
 * current version, so there the cases without a file go in batches and each case with a file alone;
 * a chosen version starts one job a request.
 */
function startParts(record: ComparisonRecord, target: ComparisonTarget, caseIndexes: readonly number[]): number[][] {
  if (target.kind !== 'current') return chunk([...caseIndexes], 1);
  const withFile = caseIndexes.filter((i) => hasFileInput(record.cases[i]!.inputs));
  const batchable = caseIndexes.filter((i) => !withFile.includes(i));
  return [...chunk(batchable, BATCH_SIZE), ...withFile.map((i) => [i])];
}

async function startBatch(record: ComparisonRecord, target: ComparisonTarget, caseIndexes: number[], service: ComparisonService, signal: AbortSignal): Promise<string[]> {
  const inputs = caseIndexes.map((i) => record.cases[i]!.inputs);
  if (target.kind === 'current' && caseIndexes.length === 1 && hasFileInput(inputs[0]!)) return [await service.runOne(agentOfTarget(record, target), inputs[0]!, signal)];
  if (target.kind === 'current') return service.runMany(agentOfTarget(record, target), inputs, signal);
  if (target.kind === 'version') return [await service.runVersion(record.agentId, target.agentVersionId, inputs[0]!, signal)];
  throw new Error('A baseline target has nothing to start.');
}

/** The client's job statuses as the comparison runner takes them (unknown statuses left out). */
export function statusItems(statuses: readonly { id: string; status?: unknown; created_at?: string | null; last_updated_at?: string | null }[]): StatusItem[] {
  return statuses.flatMap((s) => (typeof s.status === 'number' ? [{ id: s.id, status: s.status, createdAt: s.created_at ?? undefined, lastUpdatedAt: s.last_updated_at ?? undefined }] : []));
}

/** Applies a round of statuses; answers whether anything changed. */
export function applyStatuses(record: ComparisonRecord, statuses: readonly StatusItem[]): boolean {
  let changed = false;
  for (const s of statuses) {
    const durationMs = isFinalStatus(s.status) ? durationBetween(s.createdAt, s.lastUpdatedAt) : undefined;
    for (const c of record.cases) {
      for (const run of Object.values(c.runs)) {
        if (run.jobId !== s.id || (run.status === s.status && durationMs === undefined)) continue;
        if (run.status !== s.status) changed = true;
        run.status = s.status;
        if (durationMs !== undefined) run.durationMs = durationMs;
      }
    }
  }
  return changed;
}

function durationBetween(from: string | undefined, to: string | undefined): number | undefined {
  const a = from ? Date.parse(from) : NaN;
  const b = to ? Date.parse(to) : NaN;
  return Number.isNaN(a) || Number.isNaN(b) ? undefined : Math.max(0, b - a);
}

/** Reads, in bulk, the results of every final job not read yet; answers how many were read. */
export async function readResults(record: ComparisonRecord, service: ComparisonService, signal: AbortSignal): Promise<number> {
  const ids = jobIdsWithoutResults(record);
  let read = 0;
  for (const part of chunk(ids, RESULTS_CHUNK)) {
    const items = await service.results(part, signal);
    const byId = new Map(items.map((item) => [item.id, item]));
    for (const id of part) {
      const item = byId.get(id);
      if (!item) {
        applyToRuns(record, id, { outputs: null, error: 'The service gave no result for this job.' });
        continue;
      }
      const foreign = otherAgent(record, item);
      if (foreign) {
        applyToRuns(record, id, { outputs: null, error: foreign });
        continue;
      }
      // A baseline job is read without being followed: its status comes with its result.
      const status = typeof item.status === 'number' ? { status: item.status } : {};
      if (typeof item.status === 'number' && !isFinalStatus(item.status)) {
        applyToRuns(record, id, { ...status, outputs: null, error: 'The job had not finished when its result was read.' });
        continue;
      }
      // What the agent answered; a reviewer's correction is kept beside it (shown next to the case's label), never in its place.
      const reviewed = reviewedOutcome(record, item);
      applyToRuns(record, id, { ...status, outputs: item.result ?? null, cost: item.cost ?? null, inputTokens: item.input_tokens ?? null, outputTokens: item.output_tokens ?? null, ...(reviewed === undefined ? {} : { reviewed }) });
      read++;
    }
    await readBaselineDurations(record, part, service, signal);
  }
  return read;
}

// The bulk results carry no times: a past job's duration comes from its status (created → last updated).
async function readBaselineDurations(record: ComparisonRecord, ids: readonly string[], service: ComparisonService, signal: AbortSignal): Promise<void> {
  const baseline = new Set(record.targets.filter((t) => t.kind === 'baseline').flatMap((t) => record.cases.map((c) => runOf(c, t.id)?.jobId)));
  const wanted = ids.filter((id) => baseline.has(id));
  if (!wanted.length || !service.statuses) return;
  try {
    applyStatuses(record, await service.statuses(wanted, signal));
  } catch {
    // A duration is a figure, not a result: without it the results stand.
    signal.throwIfAborted();
  }
}

/** The outcome a reviewer corrected a job's to (the outcome key of its corrected outputs), if any. */
export function reviewedOutcome(record: Pick<ComparisonRecord, 'keys'>, item: Pick<ResultItem, 'corrected_outputs'>): string | undefined {
  const key = record.keys[0] ?? 'disposition';
  const value = item.corrected_outputs?.find((o) => o.key === key)?.value;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Why a job is not shown as this comparison's: it belongs to another agent (undefined when it is the comparison's own). */
export function otherAgent(record: ComparisonRecord, item: Pick<ResultItem, 'agent_id'>): string | undefined {
  const agent = item.agent_id;
  const own = (id: string): boolean => id === record.agentId || record.targets.some((t) => t.kind === 'current' && t.agentId === id);
  return typeof agent === 'string' && agent !== '' && !own(agent) ? `This job belongs to another agent (${agent}): it is not shown and never cancelled from this comparison.` : undefined;
}

/** Cancel requests in flight at once. */
export const CANCEL_CONCURRENCY = 4;

/** The jobs Cancel would stop: not final, not a baseline's; those of another agent are named apart (after asking the service). */
export async function jobsToCancel(record: ComparisonRecord, service: Pick<ComparisonService, 'results'>, signal: AbortSignal): Promise<{ ids: string[]; foreign: string[] }> {
  const baselineJobs = new Set(record.cases.flatMap((c) => record.targets.filter((t) => t.kind === 'baseline').map((t) => c.runs[t.id]?.jobId)));
  const candidates = unfinishedJobIds(record).filter((id) => !baselineJobs.has(id));
  const foreign: string[] = [];
  const ids: string[] = [];
  for (const part of chunk(candidates, RESULTS_CHUNK)) {
    const byId = new Map((await service.results(part, signal)).map((item) => [item.id, item]));
    for (const id of part) {
      const item = byId.get(id);
      // A job the service does not list for us cannot be shown to be the agent's: it is left alone.
      const why = item ? otherAgent(record, item) : 'The service gave nothing for this job, so it cannot be shown to be this agent\'s: it was left alone.';
      if (why) {
        foreign.push(id);
        applyToRuns(record, id, { error: why });
      } else ids.push(id);
    }
  }
  return { ids, foreign };
}

/** Cancels these jobs, a few requests at a time; answers how many were asked to stop. */
export async function cancelJobs(ids: readonly string[], service: ComparisonService, signal: AbortSignal): Promise<number> {
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < ids.length) {
      const id = ids[next++]!;
      await service.cancel(id, signal).then(
        () => void done++,
        () => undefined,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(CANCEL_CONCURRENCY, ids.length) }, worker));
  return done;
}

/** Cancels every job of the comparison's agent that is not final; answers how many were asked to stop, and the ids left alone. */
export async function cancelUnfinished(record: ComparisonRecord, service: ComparisonService, signal: AbortSignal): Promise<{ cancelled: number; foreign: string[] }> {
  const { ids, foreign } = await jobsToCancel(record, service, signal);
  return { cancelled: await cancelJobs(ids, service, signal), foreign };
}
