import { jobStatusName } from '../jobStatus';

/** The parts of a job (as the client reads it) that a sample takes; extra fields of the live service are welcome. */
export interface JobForSample {
  id: string;
  created_at: string;
  last_updated_at?: string | null;
  status_code: number;
  agent_version_name?: string | null;
  job_inputs?: readonly { key: string; value?: string | null; file_name?: string | null }[];
  metadata?: Record<string, unknown> | null;
  feedback_review?: { corrected_verdict?: string | null } | null;
  [extra: string]: unknown;
}

/**
 * The sample with `agent` and `job` taken from a real job: its inputs (by key; a file input gives its
 * file name and location), metadata and status. When the job carries a verdict (`ui_fields.verdict` on
 * the live service, or a reviewer's corrected verdict), it becomes the sample's disposition too, with
 * the matching classification. Everything else the user put in the sample stays.
 */
export function sampleWithJob(sample: unknown, agent: { id: string; name: string }, job: JobForSample): Record<string, unknown> {
  const base: Record<string, unknown> = sample && typeof sample === 'object' && !Array.isArray(sample) ? { ...(sample as Record<string, unknown>) } : {};
  const inputs: Record<string, unknown> = {};
  for (const input of job.job_inputs ?? []) {
    const value = input.file_name ? { file_name: input.file_name, value: input.value ?? '' } : (input.value ?? '');
    // An input that accepts several files appears once per file: keep them all.
    const before = inputs[input.key];
    inputs[input.key] = before === undefined ? value : Array.isArray(before) ? [...(before as unknown[]), value] : [before, value];
  }
  base.agent = { id: agent.id, name: agent.name };
  base.job = {
    id: job.id,
    created_at: job.created_at,
    last_updated_at: job.last_updated_at ?? null,
    status: jobStatusName(job.status_code),
    status_code: job.status_code,
    agent_version_name: job.agent_version_name ?? null,
    inputs,
    metadata: job.metadata ?? {},
  };
  const verdict = verdictOf(job);
  if (verdict) {
    base.disposition = verdict;
    base.verdict = verdict;
    const known: unknown = Array.isArray(base.classifications) ? (base.classifications as unknown[]).find((c) => isNamed(c, verdict)) : undefined;
    base.classification = known ?? { name: verdict, description: '', prompt: '' };
  }
  return base;
}

function verdictOf(job: JobForSample): string | undefined {
  const corrected = job.feedback_review?.corrected_verdict;
  if (typeof corrected === 'string' && corrected.trim()) return corrected;
  const ui = job.ui_fields;
  const verdict = ui && typeof ui === 'object' ? (ui as Record<string, unknown>).verdict : undefined;
  return typeof verdict === 'string' && verdict.trim() ? verdict : undefined;
}

function isNamed(value: unknown, name: string): boolean {
  return !!value && typeof value === 'object' && String((value as Record<string, unknown>).name).toLowerCase() === name.toLowerCase();
}
