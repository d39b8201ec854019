import type { SandboxDb, SqlParams } from '../store/database';
import { newId } from '../util';
import { type JobInput, type PlanStep, type StoredEvent, type StoredInput, inputsHash } from './jobStore';

/** What a new job is made of. */
export interface NewJob {
  id?: string;
  orgId: string;
  agentPk: number;
  versionPk: number;
  versionName: string | null;
  status: number;
  createdMs: number;
  lastUpdatedMs: number;
  cost: number | null;
  durationMs: number | null;
  graderScore: number | null;
  verdict: string | null;
  inputs: JobInput[];
  metadata: Record<string, unknown>;
  evaluation: Record<string, unknown> | null;
  feedbackReview: Record<string, unknown> | null;
  events: StoredEvent[];
  creatorId: number | null;
  plan: PlanStep[] | null;
  nextStepMs: number | null;
  hash?: string;
  /** The engine's outcome (JSON of a StoredOutcome), shown once the job succeeds. */
  result?: string | null;
  /** The cache key part of the policy the job was judged by ('' or absent: none). */
  engineKey?: string | null;
}

/** A metadata value as the filters compare it: text as is, anything else as its JSON text. */
const METADATA_VALUE_SQL = `CASE m.type WHEN 'text' THEN m.value WHEN 'true' THEN 'true' WHEN 'false' THEN 'false'
  WHEN 'null' THEN 'null' ELSE json(m.value) END`;

/**
 * The rows derived from jobs, written for both one job and a bulk seed (one definition): the
 * metadata pairs the `metadata` filters look up, and the case-folded text `search` and
 * `semantic_string` read (id, version name, input values and file names, metadata values, verdict).
 * The text is folded here, not by an SQL function: sql.js hands a function's text result back
 * through its 5 MB stack, and an input may be larger than that.
 */
function writeDerivedRows(db: SandboxDb, where: string, params: SqlParams): void {
  db.run(
    `INSERT INTO job_metadata (agent_pk, job_pk, key, value)
     SELECT j.agent_pk, j.pk, m.key, ${METADATA_VALUE_SQL} FROM jobs j, json_each(j.metadata) m WHERE ${where}`,
    params,
  );
  const texts = db.all<{ agent_pk: number; pk: number; text: string }>(
    `SELECT j.agent_pk, j.pk, j.id || char(10) || coalesce(j.agent_version_name, '') || char(10)
       || coalesce((SELECT group_concat((e.value ->> 1) || ' ' || (e.value ->> 2), char(10)) FROM json_each(j.inputs) e), '') || char(10)
       || coalesce((SELECT group_concat(${METADATA_VALUE_SQL}, char(10)) FROM json_each(j.metadata) m), '')
       || coalesce(char(10) || j.verdict, '') AS text
     FROM jobs j WHERE ${where}`,
    params,
  );
  for (const row of texts) db.run('INSERT INTO job_text (agent_pk, job_pk, text) VALUES (?, ?, ?)', [row.agent_pk, row.pk, foldCase(row.text)]);
}

/** Case folding of the searchable text: JavaScript's rules (é, Ä, …), where SQLite's lower() folds ASCII only. */
export function foldCase(text: string): string {
  return text.toLowerCase();
}

/**
 * Inserts a job. Unless `bulk` is given, also its derived rows and the agent's denormalised job
 * count and most recent job time; a bulk seed passes its own pks and calls
 * {@link finishBulkJobs} once at the end instead.
 */
export function insertJob(db: SandboxDb, job: NewJob, bulk?: { pk: number }): string {
  const id = job.id ?? newId();
  const stored: StoredInput[] = job.inputs.map((i) => [i.key, i.value, i.file_name]);
  db.run(
    `INSERT INTO jobs (pk, id, org_id, agent_pk, version_pk, agent_version_name, status_code, created_ms, last_updated_ms, cost,
       duration_ms, grader_score, verdict, inputs, inputs_hash, metadata, evaluation, feedback_review, events, creator_id,
       plan, next_step_ms, result, engine_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [bulk?.pk ?? null, id, job.orgId, job.agentPk, job.versionPk, job.versionName, job.status, job.createdMs, job.lastUpdatedMs, job.cost,
      job.durationMs, job.graderScore, job.verdict, JSON.stringify(stored), job.hash ?? inputsHash(job.inputs),
      JSON.stringify(job.metadata), job.evaluation ? JSON.stringify(job.evaluation) : null,
      job.feedbackReview ? JSON.stringify(job.feedbackReview) : null, JSON.stringify(job.events), job.creatorId,
      job.plan ? JSON.stringify(job.plan) : null, job.nextStepMs, job.result ?? null, job.engineKey || null],
  );
  if (bulk) return id;
  const pk = db.lastInsertId();
  writeDerivedRows(db, 'j.pk = ?', [pk]);
  db.run('UPDATE agents SET job_count = job_count + 1, most_recent_ms = max(coalesce(most_recent_ms, 0), ?) WHERE pk = ?', [job.createdMs, job.agentPk]);
  return id;
}

/** The pk the next bulk-inserted job should take. */
export function nextJobPk(db: SandboxDb): number {
  return Number(db.value('SELECT coalesce(max(pk), 0) + 1 FROM jobs'));
}

/** After a bulk insert from `firstPk` on: writes the derived rows and recounts every agent's job statistics. */
export function finishBulkJobs(db: SandboxDb, firstPk: number): void {
  writeDerivedRows(db, 'j.pk >= ?', [firstPk]);
  db.run(`UPDATE agents SET job_count = s.c, most_recent_ms = s.m
          FROM (SELECT agent_pk, COUNT(*) AS c, MAX(created_ms) AS m FROM jobs GROUP BY agent_pk) AS s
          WHERE s.agent_pk = agents.pk`);
}
