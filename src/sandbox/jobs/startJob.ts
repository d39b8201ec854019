import { JobStatus } from '../../core/jobStatus';
import type { AgentRow } from '../agents/agentStore';
import type { VersionRow } from '../agents/versionStore';
import type { SandboxApp } from '../context';
import { newId } from '../util';
import { insertJob } from './jobInsert';
import { HttpError } from '../http/errors';
import { type Judgement, judgeJobOffThread } from './jobOutcome';
import { type JobInput, type StoredEvent, inputsHash } from './jobStore';
import { nextEvent, planFor } from './lifecycle';

interface CachedRow {
  status_code: number;
  verdict: string | null;
  result: string | null;
}

/** One job to start: validated inputs, the text of sent text files by input key, and metadata. */
export interface JobStart {
  inputs: JobInput[];
  metadata: Record<string, unknown>;
  /** Text of file inputs the engine can read (text files), by input key. */
  texts?: ReadonlyMap<string, string>;
}

/** How a job is started: on the lifecycle timer, or finished at once (the synchronous run). */
export interface StartOptions {
  finishNow?: boolean;
}

/** A job judged and ready to be stored. */
export interface JudgedStart {
  id: string;
  createdMs: number;
  start: JobStart;
  hash: string;
  judgement: Judgement;
}

/**
 * Judges a job about to start, in the engine's threads, with the policy the version names at its
 * current content (see jobOutcome.ts); nothing is stored yet.
 */
export async function judgeStart(app: SandboxApp, agent: AgentRow, version: VersionRow, start: JobStart): Promise<JudgedStart> {
  const createdMs = app.now();
  const hash = inputsHash(start.inputs);
  const id = newId();
  const job = { id, createdMs, inputs: start.inputs, texts: start.texts, metadata: start.metadata, hash };
  let judgement: Judgement;
  try {
    judgement = await judgeJobOffThread(app.engine, app.db, job, agent, version);
  } catch (error) {
    throw new HttpError(503, { detail: `The job could not be judged: ${(error as Error).message}` });
  }
  return { id, createdMs, start, hash, judgement };
}

/** Judges and stores one job (see {@link storeJob}); answers its id. */
export async function startJob(app: SandboxApp, agent: AgentRow, version: VersionRow, start: JobStart, creatorId: number, options: StartOptions = {}): Promise<string> {
  const judged = await judgeStart(app, agent, version, start);
  return storeJob(app, agent, version, judged, creatorId, options);
}

/**
 * Stores a judged job of a version; the outcome shows once the job succeeds. Unless the agent
 * disables its cache, a job with the same inputs to the same version, judged by the same policy
 * content, that succeeded (or failed, when failed jobs are cached) answers at once: the new job is
 * CACHED. Otherwise it is PENDING and the lifecycle timer moves it on.
 */
export function storeJob(app: SandboxApp, agent: AgentRow, version: VersionRow, judged: JudgedStart, creatorId: number, options: StartOptions = {}): string {
  const { db } = app;
  const { id, hash, createdMs: now } = judged;
  const { inputs, metadata } = judged.start;
  const { outcome, engineKey } = judged.judgement;
  const cacheable = agent.cache_failed_jobs === 1 ? [JobStatus.SUCCESS, JobStatus.FAILURE] : [JobStatus.SUCCESS];
  const cached =
    agent.disable_cache === 1
      ? undefined
      : db.get<CachedRow>(
          `SELECT status_code, verdict, result FROM jobs WHERE version_pk = ? AND inputs_hash = ? AND coalesce(engine_key, '') = ?
             AND status_code IN (${cacheable.join(', ')})
           ORDER BY created_ms DESC LIMIT 1`,
          [version.pk, hash, engineKey],
        );
  const events: StoredEvent[] = [nextEvent(JobStatus.PENDING, now)];
  const base = {
    id, orgId: agent.org_id, agentPk: agent.pk, versionPk: version.pk, versionName: version.version_name, createdMs: now,
    lastUpdatedMs: now, graderScore: null, inputs, metadata, evaluation: null, feedbackReview: null, creatorId, hash, engineKey,
  };
  return db.transaction(() => {
    if (cached) {
      events.push(nextEvent(JobStatus.CACHED, now));
      const result = cached.result ?? JSON.stringify(outcome);
      return insertJob(db, { ...base, status: JobStatus.CACHED, cost: 0, durationMs: 0, verdict: cached.verdict, events, plan: null, nextStepMs: null, result });
    }
    if (options.finishNow) {
      events.push(nextEvent(JobStatus.STARTED, now), nextEvent(JobStatus.SUCCESS, now));
      return insertJob(db, {
        ...base, status: JobStatus.SUCCESS, cost: outcome.cost, durationMs: 0, verdict: outcome.disposition, events, plan: null, nextStepMs: null,
        result: JSON.stringify(outcome),
      });
    }
    const plan = planFor(inputs.map((i) => i.value).join('\n'), hash);
    return insertJob(db, {
      ...base, status: JobStatus.PENDING, cost: null, durationMs: null, verdict: null, events, plan, nextStepMs: now + app.lifecycle.stepMs,
      result: JSON.stringify(outcome),
    });
  });
}
