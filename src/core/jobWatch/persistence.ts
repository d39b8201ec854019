/**
 * The stored form of the watched jobs (kept by the extension in workspace or global state), and a
 * reader that accepts whatever is stored: this format, older ones (a bare array of IDs or of job
 * objects), or garbage, keeping every job it can read and dropping only fields it cannot.
 */
import type { WatchedJob } from './types';

export const WATCH_STATE_VERSION = 1;

/** More than any person watches; a corrupt state must not make us poll thousands of jobs. */
export const MAX_RESTORED_JOBS = 500;

/** Longest ID accepted; service IDs are UUIDs. */
const MAX_ID_LENGTH = 200;

/** Version 1 of the stored form. */
export interface SerializedWatchState {
  version: typeof WATCH_STATE_VERSION;
  jobs: SerializedJob[];
}

/**
 * What is stored per job. `lastError` and `notFound` are left out on purpose: a reload is a fresh
 * start, and a job the service did not know may be visible again (another connection, a glitch).
 */
export type SerializedJob = Omit<WatchedJob, 'lastError' | 'notFound'>;

/** The stored form of the jobs, plain JSON. */
export function serializeJobs(jobs: readonly WatchedJob[]): SerializedWatchState {
  return {
    version: WATCH_STATE_VERSION,
    jobs: jobs.map((job) => {
      const { lastError: _lastError, notFound: _notFound, ...kept } = job;
      return dropUndefined(kept);
    }),
  };
}

/** The jobs in stored data of any version, deduplicated by ID; [] for anything unreadable. `now` stands in for a missing watch time. */
export function parseWatchState(data: unknown, now: number): WatchedJob[] {
  const entries = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data.jobs) ? data.jobs : [];
  const seen = new Set<string>();
  const jobs: WatchedJob[] = [];
  for (const entry of entries) {
    const job = parseJob(entry, now);
    if (!job || seen.has(job.id)) continue;
    seen.add(job.id);
    jobs.push(job);
    if (jobs.length >= MAX_RESTORED_JOBS) break;
  }
  return jobs;
}

function parseJob(entry: unknown, now: number): WatchedJob | undefined {
  // The oldest form stored the IDs alone.
  if (typeof entry === 'string') return validId(entry) ? { id: entry.trim(), status: undefined, watchedAt: now } : undefined;
  if (!isRecord(entry) || !validId(entry.id)) return undefined;
  const status = entry.status;
  const job: WatchedJob = {
    id: entry.id.trim(),
    status: typeof status === 'number' && Number.isInteger(status) && status >= 0 ? status : undefined,
    watchedAt: finite(entry.watchedAt) ?? now,
    label: text(entry.label),
    agentId: text(entry.agentId),
    group: text(entry.group),
    errorMessage: text(entry.errorMessage),
    createdAt: text(entry.createdAt),
    lastUpdatedAt: text(entry.lastUpdatedAt),
    finishedAt: finite(entry.finishedAt),
    seenFinishedAt: finite(entry.seenFinishedAt),
    unseen: entry.unseen === true ? true : undefined,
  };
  // `status` stays even when undefined: it is a required key of WatchedJob.
  return { ...dropUndefined(job), status: job.status };
}

function validId(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0 && value.trim().length <= MAX_ID_LENGTH;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keeps the stored JSON and deep-equality checks free of `key: undefined`. */
function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
