import { createHash } from 'node:crypto';
import type { SandboxDb } from '../store/database';
import type { InputDefinition } from '../agents/definitions';
import { CREATOR_COLUMNS, creatorObject } from '../users';
import { iso, parseJson } from '../util';

/** One input of a job, as the API shows it. */
export interface JobInput {
  key: string;
  description: string;
  data_type: string;
  value: string;
  file_name: string;
}

/**
 * A status event as stored: `[epoch ms, status code, error message?]`. Compact on purpose (a large
 * store holds hundreds of thousands of jobs); `count` and `error_details` are derived when shown.
 */
export type StoredEvent = [t: number, status: number, error?: string];

/** An input as stored: `[key, value, file name]`; description and data type come from the version's definitions. */
export type StoredInput = [key: string, value: string, fileName: string];

/** One remaining step of a running job's lifecycle. */
export interface PlanStep {
  s: number;
  e?: string;
  /** Steps of time to wait before this one (default 1): long demo jobs wait many. */
  w?: number;
}

/** A job row with the ids of its agent and version and its creator columns (see {@link JOB_COLUMNS}). */
export interface JobRow {
  pk: number;
  id: string;
  org_id: string;
  agent_pk: number;
  agent_version_name: string | null;
  status_code: number;
  created_ms: number;
  last_updated_ms: number;
  cost: number | null;
  duration_ms: number | null;
  grader_score: number | null;
  verdict: string | null;
  inputs: string;
  metadata: string;
  evaluation: string | null;
  feedback_review: string | null;
  events: string;
  agent_id: string;
  version_id: string;
  definitions: string;
  u_id: number | null;
  u_email: string | null;
  u_first: string | null;
  u_last: string | null;
  u_active: number | null;
}

export const JOB_COLUMNS = `j.pk, j.id, j.org_id, j.agent_pk, j.agent_version_name, j.status_code, j.created_ms, j.last_updated_ms,
  j.cost, j.duration_ms, j.grader_score, j.verdict, j.inputs, j.metadata, j.evaluation, j.feedback_review, j.events,
  a.id AS agent_id, v.id AS version_id, v.input_definitions AS definitions, ${CREATOR_COLUMNS}`;
export const JOB_FROM = `jobs j JOIN agents a ON a.pk = j.agent_pk JOIN agent_versions v ON v.pk = j.version_pk
  LEFT JOIN users u ON u.id = j.creator_id`;

/** A job of an organization, or undefined (another organization's job is never found). */
export function findJob(db: SandboxDb, orgId: string, jobId: string): JobRow | undefined {
  return db.get<JobRow>(`SELECT ${JOB_COLUMNS} FROM ${JOB_FROM} WHERE j.id = ? AND j.org_id = ?`, [jobId, orgId]);
}

/**
 * The status events as the API shows them: `count` says how often the job has been in that status
 * so far (the second RETRY has count 2); `error_details` of an error says which attempt failed.
 */
export function eventObjects(events: readonly StoredEvent[]): Record<string, unknown>[] {
  const seen = new Map<number, number>();
  return events.map(([t, status, error]) => {
    const count = (seen.get(status) ?? 0) + 1;
    seen.set(status, count);
    // Without an error, error_message and error_details are left out: the live description has them as
    // a string and an object, never null.
    const event: Record<string, unknown> = { timestamp: iso(t), status_code: status };
    if (error !== undefined) Object.assign(event, { error_message: error, error_details: { attempt: seen.get(1) ?? 0 } });
    event.count = count;
    return event;
  });
}

/** The job inputs as the API shows them, completed from the version's input definitions. */
export function inputObjects(stored: readonly StoredInput[], definitions: readonly InputDefinition[]): JobInput[] {
  return stored.map(([key, value, fileName]) => {
    const definition = definitions.find((d) => d.key === key);
    return { key, description: definition?.description ?? '', data_type: definition?.data_type ?? 'text/plain', value, file_name: fileName };
  });
}

/** The agent job object (interface section 2 plus the live service's extra fields). */
export function jobObject(row: JobRow): Record<string, unknown> {
  return {
    id: row.id,
    agent_id: row.agent_id,
    agent_version_id: row.version_id,
    agent_version_name: row.agent_version_name,
    status_code: row.status_code,
    status_events: eventObjects(parseJson<StoredEvent[]>(row.events) ?? []),
    created_at: iso(row.created_ms),
    last_updated_at: iso(row.last_updated_ms),
    duration_ms: row.duration_ms,
    cost: row.cost,
    evaluation: parseJson(row.evaluation),
    feedback_review: parseJson(row.feedback_review),
    job_inputs: inputObjects(parseJson<StoredInput[]>(row.inputs) ?? [], parseJson<InputDefinition[]>(row.definitions) ?? []),
    metadata: parseJson(row.metadata) ?? {},
    ui_fields: row.verdict === null ? {} : { verdict: row.verdict },
    creator: creatorObject(row),
  };
}

/** The last error message of a job in RETRY or FAILURE (absent otherwise, as the live service does). */
export function currentErrorMessage(statusCode: number, events: readonly StoredEvent[]): string | undefined {
  if (statusCode !== 2 && statusCode !== 4) return undefined;
  for (let i = events.length - 1; i >= 0; i--) {
    if (events[i]![1] === statusCode) return events[i]![2] ?? '';
  }
  return '';
}

/** A fingerprint of a job's inputs: equal inputs to the same version can be answered from the cache. */
export function inputsHash(inputs: readonly JobInput[]): string {
  const canonical = inputs.map((i) => [i.key, i.value, i.file_name]).sort((x, y) => (x[0]! < y[0]! ? -1 : x[0]! > y[0]! ? 1 : 0));
  // 64 bits are plenty to tell inputs apart within one agent version.
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex').slice(0, 16);
}
