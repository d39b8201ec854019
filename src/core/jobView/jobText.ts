/** Short texts about a job that every place shows the same way (tree rows, tooltips, the job view). */
import type { AgentJob } from '../client';
import { duration, elapsedMs } from '../format';
import { JobStatus, isFinalStatus, jobStatusName } from '../jobStatus';

/** How long a job ran (final) or has been running (not final); the service's `duration_ms` when it sends one. */
export function jobDurationText(job: Pick<AgentJob, 'status_code' | 'created_at' | 'last_updated_at'>, now: number = Date.now()): string {
  const reported = (job as { duration_ms?: unknown }).duration_ms;
  if (typeof reported === 'number' && isFinalStatus(job.status_code)) return duration(reported);
  // A final job whose end is not known yet (a copy read before it ended) has no duration: "now" is not its end.
  if (isFinalStatus(job.status_code) && !job.last_updated_at) return '';
  const ms = elapsedMs(job.created_at, isFinalStatus(job.status_code) ? job.last_updated_at : undefined, now);
  return duration(ms);
}

/** The status as people read it: "SUCCESS", "RETRY (attempt 2)". */
export function jobStatusText(job: Pick<AgentJob, 'status_code' | 'status_events'>): string {
  const name = jobStatusName(job.status_code);
  if (job.status_code !== JobStatus.RETRY) return name;
  const retries = job.status_events?.filter((e) => e.status_code === JobStatus.RETRY).length ?? 0;
  return retries > 1 ? `${name} (attempt ${retries + 1})` : name;
}

/** The short ID users recognise (first 8 characters of the UUID). */
export function shortId(id: string): string {
  return id.slice(0, 8);
}
