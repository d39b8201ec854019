/** How one poll's answers change the watched jobs. */
import { isFinalStatus } from '../jobStatus';
import type { JobOutcome } from './statusFetcher';
import type { WatchedJob } from './types';

/** A watched job plus what only the watcher needs. */
export interface JobRecord extends WatchedJob {
  /** Polls in a row that found the service not knowing the job. */
  misses: number;
  /** The user watches it (status bar, notifications, saved list); false for a job only kept up to date for a view. */
  watched: boolean;
  /** Views that keep the job up to date (see `JobWatcher.track`). */
  trackers: Set<string>;
}

/**
 * Polls in a row the service may fail to know a job before we stop polling it. More than one,
 * because a job just started may not be visible yet everywhere (replicas), and a proxy may answer
 * a stray 404 during a deploy.
 */
export const MAX_MISSES = 3;

export const NOT_FOUND_MESSAGE = 'The service does not know this job (deleted, or in another organization).';

/** A status change seen by a poll. */
export interface Transition {
  job: JobRecord;
  from: number | undefined;
  to: number;
}

/** The public copy of a record: no internal fields, no `key: undefined` except `status`. */
export function publicJob(record: JobRecord): WatchedJob {
  const { misses: _misses, watched: _watched, trackers: _trackers, ...job } = record;
  const kept = Object.fromEntries(Object.entries(job).filter(([, v]) => v !== undefined)) as unknown as WatchedJob;
  return { ...kept, status: record.status };
}

/** Applies one outcome to its job; says whether anything the UI shows changed and which status change happened. */
export function applyOutcome(job: JobRecord, outcome: JobOutcome, now: number): { changed: boolean; transition?: Transition } {
  const before = snapshot(job);
  let transition: Transition | undefined;
  if (outcome.kind === 'status') {
    const from = job.status;
    job.misses = 0;
    job.status = outcome.status;
    job.errorMessage = outcome.errorMessage;
    job.lastError = undefined;
    job.notFound = undefined;
    if (outcome.createdAt) job.createdAt = outcome.createdAt;
    if (outcome.lastUpdatedAt) job.lastUpdatedAt = outcome.lastUpdatedAt;
    if (!isFinalStatus(outcome.status)) {
      job.finishedAt = undefined;
      job.seenFinishedAt = undefined;
    } else if (from !== outcome.status || job.finishedAt === undefined) {
      job.finishedAt = outcome.changedAt ?? now;
      job.seenFinishedAt = now;
    }
    if (from !== outcome.status) transition = { job, from, to: outcome.status };
  } else if (outcome.kind === 'missing') {
    job.misses++;
    job.lastError = NOT_FOUND_MESSAGE;
    if (job.misses >= MAX_MISSES) job.notFound = true;
  } else {
    job.lastError = errorText(outcome.error);
  }
  return { changed: snapshot(job) !== before, transition };
}

/** A job's visible fields as one comparable string. */
function snapshot(job: JobRecord): string {
  return JSON.stringify(publicJob(job));
}

/** One line for an error of any shape. */
export function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'The status request failed.';
}

/** How long the service asked us to wait (a ServiceError's `retryAfterMs`), or 0. */
export function retryAfterOf(error: unknown): number {
  const ms = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? ms : 0;
}
