/** Reads of jobs: list an agent's jobs by status, version, dates, metadata or text similarity; read many jobs' results at once. */
import * as z from 'zod';
import type { JobResultRecord } from '../client';
import { ALL_JOB_STATUS_CODES, jobStatusFromName, jobStatusName } from '../jobStatus';
import { sharedText, tellingLabel } from '../jobView/jobRow';
import { count, jobLine, JobSummarySchema, listText, resultSummary } from './answers';
import { defineTool, ToolRefusal, type ToolContext } from './toolTypes';

const STATUS_NAMES = ALL_JOB_STATUS_CODES.map((c) => jobStatusName(c)) as [string, ...string[]];

const JobList = z.object({
  /** How many jobs match, as the service counts them (null when it does not say). */
  total: z.number().nullable(),
  jobs: z.array(
    z.object({
      id: z.string(),
      status: z.string(),
      version: z.string().nullable(),
      created_at: z.string(),
      label: z.string().nullable(),
      metadata: z.record(z.string(), z.unknown()),
      inputs: z.record(z.string(), z.string().nullable()),
      corrected_verdict: z.string().nullable(),
    }),
  ),
});

const JobsRead = z.object({ jobs: z.array(JobSummarySchema), missing: z.array(z.string()) });

export const listJobs = defineTool({
  name: 'list_jobs',
  title: 'List jobs',
  kind: 'read',
  description:
    "Lists an agent's jobs, newest first, filtered by status, version name, creation dates, metadata (key:value) or text similar to a phrase. Returns one line per job: id, status, version, date and a label from its inputs (their first telling line, past an opening the jobs share). Reads only; costs nothing. Use read_jobs with the ids for outputs, verdicts, errors and cost.",
  input: z.strictObject({
    agent_id: z.string().min(1).max(200).describe('The agent id (from find_agents).'),
    status: z.enum(STATUS_NAMES).optional().describe('Only jobs with this status.'),
    version_name: z.string().max(200).optional().describe('Only jobs of this version name.'),
    created_from: z.string().max(40).optional().describe('ISO date: jobs created on or after.'),
    created_to: z.string().max(40).optional().describe('ISO date: jobs created on or before.'),
    metadata: z.string().max(500).optional().describe('key:value[,key:value...] the job metadata must hold.'),
    similar_to: z.string().max(1000).optional().describe('A phrase: jobs whose inputs are most similar first.'),
    limit: z.number().int().min(1).max(500).default(50).describe('The most jobs to answer.'),
  }),
  output: JobList,
  reads: (i) => `jobs of agent ${i.agent_id}`,
  async run(i, ctx) {
    const params = {
      status_code: i.status === undefined ? undefined : jobStatusFromName(i.status),
      version_name: i.version_name,
      created_from: i.created_from,
      created_to: i.created_to,
      metadata: i.metadata,
      semantic_string: i.similar_to,
      ordering: i.similar_to ? undefined : '-created_at',
      page_size: Math.min(i.limit, 100),
    };
    const jobs = [];
    let total: number | undefined;
    for await (const page of ctx.client.jobs.pages(i.agent_id, params, { signal: ctx.signal })) {
      total ??= page.count ?? undefined;
      jobs.push(...page.results);
      if (jobs.length >= i.limit) break;
    }
    const shown = jobs.slice(0, i.limit);
    // Labelled as the Agents view labels them: by the first telling input line, past an opening they all share.
    const shared = sharedText(shown);
    const labels = new Map(shown.map((j) => [j.id, tellingLabel(j, undefined, shared)]));
    const title = `${count(shown.length, 'job')}${total !== undefined && total > shown.length ? ` of ${total.toLocaleString('en-US')}` : ''} of agent ${i.agent_id}.`;
    const data = shown.map((j) => ({ id: j.id, status: jobStatusName(j.status_code), version: j.agent_version_name ?? null, created_at: j.created_at, label: labels.get(j.id) || null, metadata: j.metadata ?? {}, inputs: Object.fromEntries((j.job_inputs ?? []).map((x) => [x.key, x.value ?? x.file_name ?? null])), corrected_verdict: j.feedback_review?.corrected_verdict ?? null }));
    return { text: listText(title, shown.map((j) => jobLine(j, labels.get(j.id) ?? '')), 'read_jobs takes these ids for outputs, errors and cost.'), data: { total: total ?? null, jobs: data } };
  },
});

export const readJobs = defineTool({
  name: 'read_jobs',
  title: 'Read jobs',
  kind: 'read',
  description:
    "Reads many jobs at once (one bulk request per 100 ids): each job's status, outputs (long values clipped), the reviewer's corrected outputs, why it failed (or is retrying) as the service says it, cost and tokens. Reads only; costs nothing.",
  input: z.strictObject({ job_ids: z.array(z.string().min(1).max(200)).min(1).max(1000).describe('Job ids (from list_jobs).') }),
  output: JobsRead,
  reads: (i) => count(i.job_ids.length, 'job'),
  async run(i, ctx) {
    const ids = [...new Set(i.job_ids)];
    const results = await ctx.client.jobs.results(ids, { signal: ctx.signal });
    const reasons = await failureReasons(ctx, results);
    const byId = new Map(results.map((r) => [r.id, { ...resultSummary(r), ...(reasons.has(r.id) ? { reason: reasons.get(r.id) } : {}) }]));
    const missing = ids.filter((id) => !byId.has(id));
    if (byId.size === 0) throw new ToolRefusal(`No such job: ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? '…' : ''}.`);
    const lines = [...byId.values()].map((r) => {
      const outputs = Object.entries(r.outputs).slice(0, 3).map(([k, v]) => `${k}=${typeof v === 'string' ? v.slice(0, 80) : JSON.stringify(v)}`).join(', ');
      return `${r.id} · ${r.status ?? 'status ?'}${r.reason ? ` · ${r.reason}` : ''}${r.error ? ` · error ${r.error}` : ''}${outputs ? ` · ${outputs}` : ''}${typeof r.cost === 'number' ? ` · cost ${r.cost}` : ''}`;
    });
    const text = listText(`${count(byId.size, 'job')} read${missing.length ? `; no such job: ${missing.join(', ')}` : ''}.`, lines);
    return { text, data: { jobs: [...byId.values()], missing } };
  },
});

/** Statuses whose record says why: a failed job's reason, a retrying job's last one. */
const SAYS_WHY = new Set(['FAILURE', 'RETRY']);

/** Why the failed (and retrying) jobs among these did so: the results have no reason, the status records do (one request for all). */
async function failureReasons(ctx: ToolContext, results: readonly JobResultRecord[]): Promise<Map<string, string>> {
  const ids = results.filter((r) => SAYS_WHY.has(typeof r.status === 'number' ? jobStatusName(r.status) : String(r.status))).map((r) => r.id);
  const statuses = await ctx.client.jobs.statuses(ids, { signal: ctx.signal });
  return new Map(statuses.flatMap((s) => (s.error_message ? [[s.id, s.error_message] as const] : [])));
}
