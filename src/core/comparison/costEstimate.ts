/**
 * What a comparison will cost, said before anything runs: the jobs it starts, and the tokens and cost
 * those jobs are likely to take — from what the same cases cost before (the results the test set was
 * made from, or another target's run of the case), else from the agent's recent jobs. Only jobs that
 * ran count: a job answered from the cache cost nothing, and the jobs to start (a trial's copies are
 * new agents) will not be cached. Costs are in the service's credits (what it refuses a job for lacking),
 * with a range: the spread of the jobs it is estimated from. An estimate never blocks a start: with
 * nothing to go by it says so.
 */
import type { ServiceClient } from '../client';
import { JobStatus } from '../jobStatus';
import { casesToStart, type ComparisonRecord, type RunRecord } from './comparisonRecord';

/** What one job used, as the results endpoints report it. */
export interface JobUsage {
  cost: number | null | undefined;
  inputTokens: number | null | undefined;
  outputTokens: number | null | undefined;
  /** Answered from the cache: it ran nothing, so it tells nothing of what a run costs. */
  cached?: boolean;
}

export interface CostEstimate {
  jobs: number;
  /** Undefined when nothing tells what a job of this agent uses. */
  tokens?: number;
  cost?: number;
  /** The likely low and high of the cost (twice the spread of the jobs it is estimated from, summed over the jobs); absent with fewer than two such jobs. */
  costRange?: [number, number];
  /** What the figures come from: "the same cases before", "12 recent jobs of the agent". */
  basis?: string;
}

/** How many earlier jobs the estimate reads (one bulk request). */
export const ESTIMATE_SAMPLE = 100;
/** The agent's recent jobs the estimate falls back on. */
const RECENT_JOBS = 20;

/** Usage of a run the record already holds (finished with a cost or tokens), else undefined. */
function usageOf(run: RunRecord | undefined): JobUsage | undefined {
  if (!run || run.status === JobStatus.CACHED) return undefined;
  const known = typeof run.cost === 'number' || typeof run.inputTokens === 'number' || typeof run.outputTokens === 'number';
  return known ? { cost: run.cost, inputTokens: run.inputTokens, outputTokens: run.outputTokens } : undefined;
}

/**
 * The job ids whose usage would tell what the cases to start cost: for each such case, a run of it
 * the record has (any target) whose usage is not yet in the record. At most `ESTIMATE_SAMPLE`.
 */
export function estimateJobIds(record: ComparisonRecord): string[] {
  const ids = new Set<string>();
  for (const indexes of casesToStart(record).values()) {
    for (const index of indexes) {
      const runs = Object.values(record.cases[index]?.runs ?? {});
      if (runs.some((run) => usageOf(run))) continue;
      const run = runs.find((r) => r.jobId);
      if (run) ids.add(run.jobId);
      if (ids.size >= ESTIMATE_SAMPLE) return [...ids];
    }
  }
  return [...ids];
}

/**
 * The estimate: each case to start costs what a run of the same case cost (from the record, or from
 * `read`, usage by job id); cases with none cost the mean of `recent` (the agent's recent jobs).
 */
export function estimateCost(record: ComparisonRecord, read: ReadonlyMap<string, JobUsage>, recent: readonly JobUsage[]): CostEstimate {
  const starts = casesToStart(record);
  let jobs = 0;
  for (const indexes of starts.values()) jobs += indexes.length;
  if (!jobs) return { jobs: 0 };
  const ran = recent.filter(ranJob);
  const fallback = mean(ran);
  let tokens = 0;
  let cost = 0;
  let fromCases = 0;
  let fromRecent = 0;
  const costs: number[] = [];
  for (const indexes of starts.values()) {
    for (const index of indexes) {
      const runs = Object.values(record.cases[index]?.runs ?? {});
      const seen = runs.map((run) => usageOf(run) ?? read.get(run.jobId)).filter((u): u is JobUsage => u !== undefined && ranJob(u));
      const usage = seen.length ? mean(seen) : fallback;
      if (!usage) continue;
      if (seen.length) {
        fromCases++;
        costs.push(usage.cost);
      } else fromRecent++;
      tokens += usage.tokens;
      cost += usage.cost;
    }
  }
  const covered = fromCases + fromRecent;
  if (!covered) return { jobs };
  // Cases nothing tells about are counted at the mean of those something does.
  const scale = jobs / covered;
  const basis = [fromCases ? `${fromCases === jobs ? 'the same cases' : `${fromCases} of the cases`} before` : '', fromRecent ? `${ran.length} recent job${ran.length === 1 ? '' : 's'} of the agent` : '']
    .filter(Boolean)
    .join(' and ');
  const spread = costSpread([...costs, ...(fromRecent ? ran.map((u) => u.cost ?? 0) : [])]);
  return { jobs, tokens: Math.round(tokens * scale), cost: cost * scale, ...range(cost * scale, spread, jobs), basis };
}

/** True for a job that ran (and so tells what a run costs): known usage, not answered from the cache. */
function ranJob(u: JobUsage): boolean {
  return !u.cached && (typeof u.cost === 'number' || typeof u.inputTokens === 'number' || typeof u.outputTokens === 'number');
}

function mean(usages: readonly JobUsage[]): { tokens: number; cost: number } | undefined {
  const known = usages.filter(ranJob);
  if (!known.length) return undefined;
  const sum = known.reduce((acc, u) => ({ tokens: acc.tokens + (u.inputTokens ?? 0) + (u.outputTokens ?? 0), cost: acc.cost + (u.cost ?? 0) }), { tokens: 0, cost: 0 });
  return { tokens: sum.tokens / known.length, cost: sum.cost / known.length };
}

/** The standard deviation of one job's cost, from two jobs or more. */
function costSpread(costs: readonly number[]): number | undefined {
  if (costs.length < 2) return undefined;
  const m = costs.reduce((a, b) => a + b, 0) / costs.length;
  return Math.sqrt(costs.reduce((a, c) => a + (c - m) ** 2, 0) / (costs.length - 1));
}

/** The likely range of `jobs` jobs' total: twice the spread of one job, over the square root of the jobs (never below nothing). */
function range(total: number, spread: number | undefined, jobs: number): { costRange?: [number, number] } {
  if (spread === undefined) return {};
  const half = 2 * spread * Math.sqrt(jobs);
  return { costRange: [Math.max(0, total - half), total + half] };
}

/** "44 jobs, about 180k tokens, about 0.71 credits (likely 0.6–0.82; estimated from the same cases before)". */
export function estimateText(estimate: CostEstimate): string {
  const jobs = `${estimate.jobs.toLocaleString('en-US')} job${estimate.jobs === 1 ? '' : 's'}`;
  if (estimate.cost === undefined || estimate.tokens === undefined) return `${jobs}; no earlier job tells what they will cost`;
  const likely = estimate.costRange ? `likely ${costFigure(estimate.costRange[0])}–${costFigure(estimate.costRange[1])}; ` : '';
  return `${jobs}, about ${compactCount(estimate.tokens)} tokens, about ${costFigure(estimate.cost)} credits (${likely}estimated from ${estimate.basis})`;
}

/** Whether the estimate is over a ceiling (0 or less: no ceiling). */
export function overCeiling(estimate: CostEstimate, ceiling: number): boolean {
  return ceiling > 0 && estimate.cost !== undefined && estimate.cost > ceiling;
}

function compactCount(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/** A cost as the service counts it (no currency invented): two significant decimals past the first. */
export function costFigure(cost: number): string {
  if (cost === 0) return '0';
  if (cost >= 1) return cost.toFixed(2);
  return cost.toPrecision(2).replace(/0+$/, '').replace(/\.$/, '');
}

/** A results record's usage. */
export function usageOfResult(r: { cost?: number | null; input_tokens?: number | null; output_tokens?: number | null; status?: number | string | null }): JobUsage {
  const cached = r.status === JobStatus.CACHED || (typeof r.status === 'string' && r.status.toUpperCase() === 'CACHED');
  return { cost: r.cost, inputTokens: r.input_tokens, outputTokens: r.output_tokens, ...(cached ? { cached } : {}) };
}

/** The usage of the agent's recent finished jobs (one list request, one bulk results request). */
async function recentUsage(client: ServiceClient, agentId: string, signal?: AbortSignal): Promise<JobUsage[]> {
  const page = await client.jobs.list(agentId, { page_size: RECENT_JOBS, ordering: '-created_at' }, { signal });
  // Jobs that ran to an end: not those answered from the cache (they cost nothing) nor cancelled ones (a part of a run).
  const finished = page.results.filter((j) => j.status_code === JobStatus.SUCCESS || j.status_code === JobStatus.FAILURE).map((j) => j.id);
  return finished.length ? (await client.jobs.results(finished, { signal })).map(usageOfResult) : [];
}

/**
 * What the jobs a comparison record still has to start will cost: the same cases' earlier results
 * (one bulk read), and the agent's recent jobs for cases nothing is known of.
 */
export async function readCostEstimate(client: ServiceClient, record: ComparisonRecord, signal?: AbortSignal): Promise<CostEstimate> {
  const ids = estimateJobIds(record);
  const read = new Map<string, JobUsage>();
  if (ids.length) for (const r of await client.jobs.results(ids, { signal })) read.set(r.id, usageOfResult(r));
  const first = estimateCost(record, read, []);
  if (first.cost !== undefined && !first.basis?.includes('of the cases')) return first;
  return estimateCost(record, read, await recentUsage(client, record.agentId, signal));
}

/**
 * What `jobs` jobs of an agent will cost before any record exists (a trial being planned): the mean of
 * the results before of its cases when it has some, else of the agent's recent jobs.
 */
export async function estimatePlan(client: ServiceClient, plan: { agentId: string; jobs: number; beforeJobIds: readonly string[] }, signal?: AbortSignal): Promise<CostEstimate> {
  const before = plan.beforeJobIds.slice(0, ESTIMATE_SAMPLE);
  if (before.length) {
    const usages = (await client.jobs.results(before, { signal })).map(usageOfResult);
    const estimate = estimateJobs(plan.jobs, usages, 'the same cases before');
    // Before-results answered from the cache tell nothing: the agent's recent runs do then.
    if (estimate.cost !== undefined) return estimate;
  }
  const recent = await recentUsage(client, plan.agentId, signal);
  const ran = recent.filter(ranJob);
  return estimateJobs(plan.jobs, ran, `${ran.length} recent job${ran.length === 1 ? '' : 's'} of the agent`);
}

/** `jobs` jobs at the mean usage of `usages`. */
export function estimateJobs(jobs: number, usages: readonly JobUsage[], basis: string): CostEstimate {
  const usage = mean(usages);
  if (!usage || !jobs) return { jobs };
  const ran = usages.filter(ranJob);
  return { jobs, tokens: Math.round(usage.tokens * jobs), cost: usage.cost * jobs, ...range(usage.cost * jobs, costSpread(ran.map((u) => u.cost ?? 0)), jobs), basis };
}
