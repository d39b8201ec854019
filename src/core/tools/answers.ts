/** Small helpers that keep tool answers short and alike: lists capped with a pointer to more, job lines, ids. */
import * as z from 'zod';
import type { AgentJob, JobResultRecord } from '../client';
import { jobStatusName } from '../jobStatus';

/** At most this many items are listed in an answer's text; the structured form has them all (up to the page). */
export const TEXT_ITEMS = 25;

/** Lines of a list, capped, with how many more there are and how to get them. */
export function listText(title: string, lines: readonly string[], more?: string): string {
  const shown = lines.slice(0, TEXT_ITEMS);
  const rest = lines.length - shown.length;
  return [title, ...shown.map((l) => `- ${l}`), ...(rest > 0 ? [`…and ${rest} more in the structured result.`] : []), ...(more ? [more] : [])].join('\n');
}

/** Plural with a count: "1 job", "3 jobs". */
export function count(n: number, word: string, plural = `${word}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? word : plural}`;
}

/** A job as one line: id, status, version, when, and its label (what tells it apart: see jobLabels). */
export function jobLine(job: AgentJob, label: string): string {
  const verdict = job.feedback_review?.corrected_verdict ? `, corrected verdict ${job.feedback_review.corrected_verdict}` : '';
  return `${job.id} · ${jobStatusName(job.status_code)} · ${job.agent_version_name ?? 'version ?'} · ${job.created_at}${label ? ` · ${label}` : ''}${verdict}`;
}

/** A job's result as read_jobs answers it. */
export const JobSummarySchema = z.object({
  id: z.string(),
  status: z.string().nullable(),
  agent_id: z.string().nullable(),
  agent_version_id: z.string().nullable(),
  outputs: z.record(z.string(), z.unknown()),
  // The reviewer's corrected outputs, as the service lists them (key, value, …).
  corrected_outputs: z.array(z.record(z.string(), z.unknown())).optional(),
  cost: z.number().nullable(),
  input_tokens: z.number().nullable(),
  output_tokens: z.number().nullable(),
  /** The error code the results answer gives a failed job in place of outputs. */
  error: z.string().optional(),
  /** Why it failed (or is retrying), as its status record says. */
  reason: z.string().optional(),
});
export type JobSummary = z.infer<typeof JobSummarySchema>;

/** A job's result in a few fields: status, outputs (clipped), cost and tokens. */
export function resultSummary(r: JobResultRecord): JobSummary {
  const outputs = Object.fromEntries((r.result ?? []).map((o) => [o.key, typeof o.value === 'string' ? clip(o.value, 500) : o.value]));
  return {
    id: r.id,
    status: typeof r.status === 'number' ? jobStatusName(r.status) : r.status,
    agent_id: r.agent_id,
    agent_version_id: r.agent_version_id,
    outputs,
    corrected_outputs: r.corrected_outputs ?? undefined,
    cost: r.cost,
    input_tokens: r.input_tokens,
    output_tokens: r.output_tokens,
    ...(r.result_error ? { error: r.result_error } : {}),
  };
}

/** A text cut to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
