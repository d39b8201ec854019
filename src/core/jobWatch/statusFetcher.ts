/**
 * Reads the statuses of many jobs from one source: with the bulk endpoint where the server has it,
 * else one request per job under a small concurrency cap.
 *
 * Detection: the first fetch tries the bulk endpoint. An answer saying the server lacks it
 * (`kind === 'unsupported'`, or HTTP 404/405/501 on that route) switches this fetcher to per-job
 * requests for good, and the same fetch goes on per job so the user does not wait an interval.
 * A fetcher belongs to one source: a new connection gets a new fetcher and probes again.
 * Any other bulk failure (network, 5xx, 401) says nothing about support and stays in bulk mode.
 */
import { isNotFound, isUnsupported } from '../serviceDecisions';
import type { JobStatusSource } from './types';

export { isNotFound, isUnsupported };

/** What one fetch learnt about one job. */
export type JobOutcome =
  | {
      kind: 'status';
      id: string;
      status: number;
      createdAt?: string;
      lastUpdatedAt?: string;
      /** The service's time of the last status change, in ms. */
      changedAt?: number;
      errorMessage?: string;
    }
  /** The service does not know the job (404, or left out of the bulk answer). */
  | { kind: 'missing'; id: string }
  | { kind: 'error'; id: string; error: unknown };

export type FetchMode = 'probe' | 'bulk' | 'perJob';

/** Per-job requests in flight at once: enough to be quick, few enough to stay polite. */
export const PER_JOB_CONCURRENCY = 4;
/** Ids per bulk request; more watched jobs take several requests. */
export const MAX_BULK_IDS = 100;

/** Fetches statuses from one source, remembering whether it has the bulk endpoint. */
export class StatusFetcher {
  private currentMode: FetchMode = 'probe';

  constructor(readonly source: JobStatusSource) {}

  /** 'probe' until the first bulk answer, then 'bulk' or 'perJob'. */
  get mode(): FetchMode {
    return this.currentMode;
  }

  /** One outcome per id, in order; never throws (failures come back as 'error' outcomes). */
  async fetch(ids: readonly string[], signal: AbortSignal): Promise<JobOutcome[]> {
    const outcomes: JobOutcome[] = [];
    for (let start = 0; start < ids.length; start += MAX_BULK_IDS) {
      const batch = ids.slice(start, start + MAX_BULK_IDS);
      if (this.currentMode === 'perJob') outcomes.push(...(await this.fetchEach(batch, signal)));
      else outcomes.push(...(await this.fetchBulk(batch, signal)));
    }
    return outcomes;
  }

  private async fetchBulk(ids: string[], signal: AbortSignal): Promise<JobOutcome[]> {
    let answer: Awaited<ReturnType<JobStatusSource['statuses']>>;
    try {
      answer = await this.source.statuses(ids, signal);
    } catch (error) {
      if (signal.aborted || !isUnsupported(error)) return ids.map((id) => ({ kind: 'error', id, error }));
      this.currentMode = 'perJob';
      return this.fetchEach(ids, signal);
    }
    this.currentMode = 'bulk';
    const byId = new Map<string, (typeof answer)[number]>();
    for (const item of Array.isArray(answer) ? answer : []) {
      if (item && typeof item.id === 'string' && Number.isInteger(item.status)) byId.set(item.id, item);
    }
    return ids.map((id): JobOutcome => {
      const item = byId.get(id);
      if (!item) return { kind: 'missing', id };
      return statusOutcome(id, item.status, item.timestamp, item.error_message, item.created_at, item.last_updated_at);
    });
  }

  private async fetchEach(ids: string[], signal: AbortSignal): Promise<JobOutcome[]> {
    const outcomes = new Array<JobOutcome | undefined>(ids.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < ids.length && !signal.aborted) {
        const index = next++;
        outcomes[index] = await this.fetchOne(ids[index] as string, signal);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PER_JOB_CONCURRENCY, ids.length) }, worker));
    // Ids never started because the fetch was aborted still get an outcome.
    return Array.from(ids, (id, i) => outcomes[i] ?? { kind: 'error', id, error: signal.reason as unknown });
  }

  private async fetchOne(id: string, signal: AbortSignal): Promise<JobOutcome> {
    try {
      const answer = await this.source.status(id, signal);
      if (!answer || !Number.isInteger(answer.status)) return { kind: 'error', id, error: new Error('The service sent no status.') };
      return statusOutcome(id, answer.status, answer.timestamp, answer.error_message);
    } catch (error) {
      return isNotFound(error) ? { kind: 'missing', id } : { kind: 'error', id, error };
    }
  }
}

function statusOutcome(
  id: string,
  status: number,
  timestamp: number | null | undefined,
  errorMessage: string | null | undefined,
  createdAt?: string | null,
  lastUpdatedAt?: string | null,
): JobOutcome {
  const outcome: JobOutcome = { kind: 'status', id, status };
  if (typeof timestamp === 'number' && Number.isFinite(timestamp)) outcome.changedAt = Math.round(timestamp * 1000);
  if (errorMessage) outcome.errorMessage = errorMessage;
  if (createdAt) outcome.createdAt = createdAt;
  if (lastUpdatedAt) outcome.lastUpdatedAt = lastUpdatedAt;
  return outcome;
}
