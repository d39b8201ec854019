/** What the job view hands on: the records as raw JSON, and the inputs of a job for running it again. */
import type { AgentJob, JobResultRecord } from '../client';
import type { JobViewSources } from './viewModel';
import { inputsFromResult } from './viewModel';

type Records = Pick<JobViewSources, 'agentId' | 'jobId' | 'job' | 'status' | 'result'>;

/** Everything the service sent about a job, as it sent it (the list's record, the status record, the result). */
export function rawJobJson(records: Records): string {
  const { agentId, jobId, job, status, result } = records;
  return `${JSON.stringify({ job_id: jobId, agent_id: agentId, job: job ?? null, status: status ?? null, result: result ?? null }, null, 2)}\n`;
}

/** The arguments of "new run file" for running a job again: its agent and version, inputs by key, and metadata. */
export interface RunAgainArgs {
  agentId: string;
  versionId?: string;
  inputs: Record<string, string>;
  metadata?: Record<string, unknown>;
}

/** The job's inputs (file inputs by their file name) and metadata, to start a run file from. */
export function runAgainArgs(records: Records): RunAgainArgs {
  const list = records.job?.job_inputs?.length ? records.job.job_inputs : inputsFromResult(records.result?.inputs);
  const inputs = Object.fromEntries(list.map((input) => [input.key, input.file_name || input.value || '']));
  const metadata = records.job?.metadata && Object.keys(records.job.metadata).length ? records.job.metadata : undefined;
  const versionId = records.result?.agent_version_id ?? undefined;
  return { agentId: records.agentId, ...(versionId ? { versionId } : {}), inputs, ...(metadata ? { metadata } : {}) };
}

/**
 * A job record made from what the by-ID endpoints give (status record and bulk result), for a job no
 * list has shown: no status events, evaluation or metadata, which only the list carries.
 */
export function jobFromRecords(jobId: string, status: { status: number; timestamp?: number | null }, result: JobResultRecord | null): AgentJob {
  const at = typeof status.timestamp === 'number' ? new Date(status.timestamp * 1000).toISOString() : new Date(0).toISOString();
  return { id: jobId, status_code: status.status, created_at: at, last_updated_at: at, job_inputs: inputsFromResult(result?.inputs), metadata: {} };
}
