/** Words and counts for the status bar: one job shows its status and elapsed time, several show counts per group. */
import { clipAtWord, duration } from '../format';
import { isActiveStatus, isFinalStatus, JobStatus, jobStatusName } from '../jobStatus';
import type { JobWatchSummary, WatchedJob } from './types';

/**
 * Groups the status bar counts by. "checking" is a job watched by ID whose first answer has not come;
 * "unknown" is a job the service no longer knows. A code the interface does not list is not final,
 * so it is still polled and counts as running.
 */
export type StatusGroup = 'running' | 'checking' | 'failed' | 'cancelled' | 'done' | 'unknown';

const GROUP_WORDS: readonly (readonly [StatusGroup, string])[] = [
  ['running', 'running'],
  ['checking', 'checking'],
  ['failed', 'failed'],
  ['cancelled', 'cancelled'],
  ['done', 'done'],
  ['unknown', 'not found'],
];

const STATUS_WORDS: Record<number, string> = {
  [JobStatus.PENDING]: 'pending',
  [JobStatus.STARTED]: 'running',
  [JobStatus.RETRY]: 'retrying',
  [JobStatus.SUCCESS]: 'succeeded',
  [JobStatus.FAILURE]: 'failed',
  [JobStatus.CANCELLED]: 'cancelled',
  [JobStatus.CACHED]: 'done (cached)',
};

/** Longest label shown in the status bar before it is cut with an ellipsis ("Support Call QA · v4 – refund promise"). */
const MAX_TITLE = 48;

/** True while the watcher still polls this job: not final and still known to the service. */
export function isPolled(job: WatchedJob): boolean {
  return !job.notFound && (job.status === undefined || !isFinalStatus(job.status));
}

/** The status bar group a job counts in. */
export function statusGroup(job: WatchedJob): StatusGroup {
  if (job.notFound && (job.status === undefined || !isFinalStatus(job.status))) return 'unknown';
  switch (job.status) {
    case undefined:
      return 'checking';
    case JobStatus.FAILURE:
      return 'failed';
    case JobStatus.CANCELLED:
      return 'cancelled';
    case JobStatus.SUCCESS:
    case JobStatus.CACHED:
      return 'done';
    default:
      return 'running';
  }
}

/** The job's state in a word or two: "pending", "running", "retrying", "failed", "checking…", "not found". */
export function statusWord(job: WatchedJob): string {
  if (statusGroup(job) === 'unknown') return 'not found';
  if (job.status === undefined) return 'checking…';
  return STATUS_WORDS[job.status] ?? jobStatusName(job.status).toLowerCase();
}

/** The label, cut at a word to fit the status bar, or the first 8 characters of the ID. */
export function jobTitle(job: WatchedJob): string {
  return clipAtWord(jobFullTitle(job), MAX_TITLE);
}

/** The whole label (for tooltips, where nothing is cut), or the first 8 characters of the ID. */
export function jobFullTitle(job: WatchedJob): string {
  return job.label?.replace(/\s+/g, ' ').trim() || job.id.slice(0, 8);
}

/**
 * How long the job has run: from its creation (or, unknown, from when the user started watching)
 * until now, or until it finished. '' when a final job's end time is unknown or the service lost it.
 * Server and local clocks may disagree, so a negative span shows as 0 s.
 */
export function elapsedText(job: WatchedJob, now: number): string {
  if (statusGroup(job) === 'unknown') return '';
  const created = job.createdAt ? Date.parse(job.createdAt) : NaN;
  const start = Number.isNaN(created) ? job.watchedAt : created;
  let end = now;
  const final = job.status !== undefined && isFinalStatus(job.status);
  // Watched after it ended: when it was watched says nothing of how long it ran (its record tells, once read).
  if (final && Number.isNaN(created)) return '';
  if (final) {
    const updated = job.lastUpdatedAt ? Date.parse(job.lastUpdatedAt) : NaN;
    end = job.finishedAt ?? updated;
    if (Number.isNaN(end)) return '';
  }
  const ms = Math.max(0, end - start);
  const shown = ms < 1000 ? '0 s' : duration(Math.floor(ms / 1000) * 1000);
  // A finished job shows how long it ran by the service's times, which may be less than the count shown
  // while it ran (that count ran on until a poll saw the end): "took" says it is not the same clock.
  return final ? `took ${shown}` : shown;
}

/** A watched job with the times its record gives where the watcher has none (a job watched by ID, after it ended). */
export function withRecordTimes(job: WatchedJob, record: { created_at?: string; last_updated_at?: string | null; status_events?: unknown } | undefined): WatchedJob {
  // Only a record the service sent (it has its events): a stub made from a status has no creation time of its own.
  if (!record || !Array.isArray(record.status_events) || (job.createdAt && job.lastUpdatedAt)) return job;
  return { ...job, createdAt: job.createdAt ?? record.created_at, lastUpdatedAt: job.lastUpdatedAt ?? record.last_updated_at ?? undefined };
}

/** The status bar's summary of the watched jobs, at time `now`. */
export function summarize(jobs: readonly WatchedJob[], now: number): JobWatchSummary {
  const byStatus: Record<number, number> = {};
  const groups = new Map<StatusGroup, number>();
  let running = 0;
  for (const job of jobs) {
    if (job.status !== undefined) byStatus[job.status] = (byStatus[job.status] ?? 0) + 1;
    if (job.status !== undefined && isActiveStatus(job.status)) running++;
    const group = statusGroup(job);
    groups.set(group, (groups.get(group) ?? 0) + 1);
  }
  return { running, byStatus, text: summaryText(jobs, groups, now), anyRunning: jobs.some(isPolled) };
}

function summaryText(jobs: readonly WatchedJob[], groups: Map<StatusGroup, number>, now: number): string {
  const only = jobs.length === 1 ? jobs[0] : undefined;
  if (only) {
    const elapsed = elapsedText(only, now);
    return `${jobTitle(only)}: ${statusWord(only)}${elapsed ? ` · ${elapsed}` : ''}`;
  }
  return GROUP_WORDS.filter(([group]) => groups.has(group))
    .map(([group, word]) => `${groups.get(group)} ${word}`)
    .join(' · ');
}
