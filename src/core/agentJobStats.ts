/**
 * An agent's job statistics (job count, time of the last job) kept up to date from what its jobs list
 * learns: the list is read after the agents list, so it may know of jobs the agent row has not seen.
 */

/** The statistics an agent row shows. */
export interface AgentJobStats {
  job_count?: number | null;
  most_recent_job?: string | null;
}

/** What a jobs list knows after a read. */
export interface JobsListKnowledge {
  /** Total jobs the list matches (the service's `count`). */
  count: number;
  /** Creation times of the jobs loaded so far. */
  createdAt: readonly string[];
  /** True when no filter narrows the list, so its count is the agent's job count. */
  unfiltered: boolean;
}

/**
 * The statistics to show instead, or undefined when the list knows nothing newer. A count is taken
 * only from an unfiltered list and only when the service counts jobs for this row (not when job
 * statistics were skipped); the last job moves only forward in time.
 */
export function newerJobStats(current: AgentJobStats, list: JobsListKnowledge): AgentJobStats | undefined {
  const next: AgentJobStats = {};
  if (list.unfiltered && typeof current.job_count === 'number' && list.count !== current.job_count) next.job_count = list.count;
  const known = current.most_recent_job ? Date.parse(current.most_recent_job) : Number.NEGATIVE_INFINITY;
  let newest: string | undefined;
  for (const created of list.createdAt) {
    const time = Date.parse(created);
    if (time > known && (newest === undefined || time > Date.parse(newest))) newest = created;
  }
  if (newest !== undefined && (current.job_count !== null || current.most_recent_job !== null)) next.most_recent_job = newest;
  return Object.keys(next).length ? next : undefined;
}
