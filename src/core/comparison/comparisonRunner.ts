/**
 * Drives a comparison against the service: starts the cases that have no job (one batch request per
 * target per chunk), applies statuses as they come, reads results in bulk, cancels what is not
 * finished. The record is saved before every request that writes and after every answer, so an
 * interruption at any point resumes without starting a case twice.
 */
import { isFinalStatus } from '../jobStatus';
import {
  applyToRuns,
  casesToStart,
  chunk,
  dropPending,
  jobIdsWithoutResults,
  markSent,
  recordStarted,
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
  results(jobIds: string[], signal: AbortSignal): Promise<ResultItem[]>;
  cancel(jobId: string, signal: AbortSignal): Promise<void>;
}

/** A batch whose answer was lost: it may or may not have started jobs. */
export class BatchOutcomeUnknown extends Error {
  constructor(
    readonly batch: PendingBatch,
    cause: unknown,
  ) {
    super(`The service may have started ${batch.caseIndexes.length} job${batch.caseIndexes.length === 1 ? '' : 's'}, but its answer was lost.`, { cause });
    this.name = 'BatchOutcomeUnknown';
  }
}

function isOutcomeUnknown(error: unknown): boolean {
  return (error as { outcomeUnknown?: unknown } | null)?.outcomeUnknown === true;
}

/**
 * Starts every case that has no job yet. `save` is awaited before each request goes out (the batch is
 * marked as sent) and after its answer (the job ids). A lost answer leaves the batch marked and
 * throws `BatchOutcomeUnknown`: nothing is resent until the user decides. `onStarted` reports
 * progress (cases started so far).
 */
export async function startMissing(
  record: ComparisonRecord,
  service: ComparisonService,
  save: () => Promise<void>,
  signal: AbortSignal,
  onStarted: (count: number) => void = () => undefined,
): Promise<void> {
  let started = 0;
  for (const [targetId, caseIndexes] of casesToStart(record)) {
    const target = record.targets.find((t) => t.id === targetId)!;
    const size = target.kind === 'current' ? BATCH_SIZE : 1;
    for (const part of chunk(caseIndexes, size)) {
      signal.throwIfAborted();
      const batch = markSent(record, targetId, part);
      await save();
      let ids: string[];
      try {
        ids = await startBatch(record, target, part, service, signal);
      } catch (error) {
        if (isOutcomeUnknown(error)) {
          await save();
          throw new BatchOutcomeUnknown(batch, error);
        }
        dropPending(record, batch);
        await save();
        throw error;
      }
      recordStarted(record, batch, ids);
      await save();
      started += part.length;
      onStarted(started);
    }
  }
}

// The live service batches only on the current version: a chosen version starts one job a request.
async function startBatch(record: ComparisonRecord, target: ComparisonTarget, caseIndexes: number[], service: ComparisonService, signal: AbortSignal): Promise<string[]> {
  const inputs = caseIndexes.map((i) => record.cases[i]!.inputs);
  if (target.kind === 'current') return service.runMany(record.agentId, inputs, signal);
  if (target.kind === 'version') return [await service.runVersion(record.agentId, target.agentVersionId, inputs[0]!, signal)];
  throw new Error('A baseline target has nothing to start.');
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
      // What the agent answered, not a reviewer's correction: corrections become a case's expectation instead.
      applyToRuns(record, id, { outputs: item.result ?? null, cost: item.cost ?? null, inputTokens: item.input_tokens ?? null, outputTokens: item.output_tokens ?? null });
      read++;
    }
  }
  return read;
}

/** Cancels every job of the comparison that is not final; answers how many were asked to stop. */
export async function cancelUnfinished(record: ComparisonRecord, service: ComparisonService, signal: AbortSignal): Promise<number> {
  const baselineJobs = new Set(record.cases.flatMap((c) => record.targets.filter((t) => t.kind === 'baseline').map((t) => c.runs[t.id]?.jobId)));
  const ids = unfinishedJobIds(record).filter((id) => !baselineJobs.has(id));
  const settled = await Promise.allSettled(ids.map((id) => service.cancel(id, signal)));
  return settled.filter((s) => s.status === 'fulfilled').length;
}
