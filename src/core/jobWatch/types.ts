/** The shapes the job watcher works with: where statuses come from, time, and what a watched job holds. */

/** One item of the bulk answer (`POST /v1/agents/jobs/statuses/`). */
export interface BulkJobStatus {
  id: string;
  status: number;
  created_at?: string | null;
  last_updated_at?: string | null;
  /** Unix time in seconds (fractional) of the last status change. */
  timestamp?: number | null;
  error_message?: string | null;
}

/** One answer of the per-job endpoint (`GET /v1/agents/jobs/{id}/status/`). */
export interface SingleJobStatus {
  status: number;
  timestamp?: number | null;
  error_message?: string | null;
}

/** Where the watcher reads job statuses; the extension adapts the service client to it. */
export interface JobStatusSource {
  /** Bulk: one request for many jobs. Throw an error with `kind === 'unsupported'` or `status` 404/405 when the server lacks it. */
  statuses(ids: string[], signal: AbortSignal): Promise<BulkJobStatus[]>;
  /** One job. Throw an error with `status` 404 when the service does not know it. */
  status(id: string, signal: AbortSignal): Promise<SingleJobStatus>;
}

/** Time and timers, injectable so tests control them. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** A job the user watches, as the status bar and the job list show it. */
export interface WatchedJob {
  id: string;
  label?: string;
  agentId?: string;
  /** Jobs started together (a batch) share a group: they are told about as one. */
  group?: string;
  /** Last known status code; undefined until the first answer when the job was watched by ID alone. */
  status: number | undefined;
  /** The service's message for RETRY or FAILURE. */
  errorMessage?: string;
  /** Local time (ms) the user started watching. */
  watchedAt: number;
  createdAt?: string;
  lastUpdatedAt?: string;
  /** Time (ms) the job reached its final status: the service's timestamp when it sent one, else when we saw it. */
  finishedAt?: number;
  /** Local time (ms) a poll first saw the job final: a job watched long after it ended is "new" from then. */
  seenFinishedAt?: number;
  /** It finished while watched and the user has not looked at it since (its job view not opened): Show Result stays offered. */
  unseen?: boolean;
  /** Why the last poll gave nothing for this job (request failed, or the service does not know the job). */
  lastError?: string;
  /** The service stopped knowing this job (several polls in a row); it is no longer polled until watched again. */
  notFound?: boolean;
}

/** What the user passes to start watching. */
export interface WatchRequest {
  id: string;
  label?: string;
  agentId?: string;
  group?: string;
  status?: number;
  createdAt?: string;
}

/** Polling settings. */
export interface JobWatcherOptions {
  /** Time between polls while the window is focused (the user's setting); at least 1 s. */
  intervalMs: number;
  /** Multiplies the interval while the window is not focused. Default 4. */
  unfocusedFactor?: number;
  /** Upper bound of the error backoff. Default 5 minutes. */
  maxBackoffMs?: number;
}

/** The status bar's view of all watched jobs. */
export interface JobWatchSummary {
  /** Jobs in PENDING, STARTED or RETRY. */
  running: number;
  /** Count of jobs per known status code. */
  byStatus: Record<number, number>;
  /** "build: running · 3 min 05 s" for one job, "2 running · 1 failed" for several, '' for none. */
  text: string;
  /** True while any job is still being polled (spin the icon). */
  anyRunning: boolean;
}

/** Something to stop listening with. */
export interface Subscription {
  dispose(): void;
}

/** Real timers; they never keep a Node process alive on their own. */
export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
