/**
 * What a job row says, so that fifty runs of the same version can be told apart: a chosen metadata
 * field or a short summary of the inputs as the label, and the verdict once there is one.
 */
import type { AgentJob } from '../client';
import { clip, relativeTime } from '../format';
import { jobDurationText, jobStatusText, shortId } from './jobText';

/** How long a row's label may be: short enough that the verdict beside it stays in sight in a side bar. */
export const ROW_LABEL_CHARS = 40;

export interface JobRowText {
  label: string;
  description: string;
  /** The verdict alone ('' when there is none), for tooltips. */
  verdict: string;
}

/**
 * The label and description of a job row. `labelField` names a metadata key whose value labels the
 * row (a setting); without it, or when a job lacks that key, the first input that has a value does.
 */
export function jobRowText(job: AgentJob, labelField?: string, now: number = Date.now()): JobRowText {
  const version = clip(job.agent_version_name);
  const label = metadataLabel(job, labelField) || inputSummary(job) || version || `job ${shortId(job.id)}`;
  const verdict = jobVerdict(job);
  const parts = [verdict && `→ ${verdict}`, jobStatusText(job), label === version ? '' : version, relativeTime(job.created_at, now), jobDurationText(job, now)];
  return { label, description: parts.filter(Boolean).join(' · '), verdict };
}

/** The verdict of a job: a reviewer's corrected verdict wins over the agent's own (`ui_fields.verdict`). */
export function jobVerdict(job: AgentJob): string {
  const corrected = job.feedback_review?.corrected_verdict;
  if (corrected) return `${clip(corrected, 40)} (corrected)`;
  const ui = (job as { ui_fields?: unknown }).ui_fields;
  const verdict = ui && typeof ui === 'object' ? (ui as Record<string, unknown>).verdict : undefined;
  return typeof verdict === 'string' || typeof verdict === 'number' ? clip(String(verdict), 40) : '';
}

function metadataLabel(job: AgentJob, field: string | undefined): string {
  const key = field?.trim();
  if (!key || !job.metadata || !Object.hasOwn(job.metadata, key)) return '';
  const value = job.metadata[key];
  if (value === null || value === undefined || value === '') return '';
  return clip(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`, ROW_LABEL_CHARS);
}

/** The first input with something in it: a file by its name, text by its start (on one line). */
function inputSummary(job: AgentJob): string {
  for (const input of job.job_inputs ?? []) {
    const text = input.file_name || input.value;
    if (!text?.trim()) continue;
    return input.file_name ? clip(`file: ${text}`, ROW_LABEL_CHARS) : `“${clip(text, ROW_LABEL_CHARS - 2)}”`;
  }
  return '';
}
