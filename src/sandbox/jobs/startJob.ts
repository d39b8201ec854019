import { JobStatus } from '../../core/jobStatus';
import type { AgentRow } from '../agents/agentStore';
import type { VersionRow } from '../agents/versionStore';
import type { SandboxApp } from '../context';
import { insertJob } from './jobInsert';
import { type JobInput, type StoredEvent, inputsHash } from './jobStore';
import { nextEvent, planFor } from './lifecycle';

interface CachedRow {
  status_code: number;
  verdict: string | null;
}

/**
 * Creates a job of the agent's current version. Unless the agent disables its cache, a job with
 * the same inputs to the same version that succeeded (or failed, when failed jobs are cached) answers
 * at once: the new job is CACHED. Otherwise it is PENDING and the lifecycle timer moves it on.
 */
export function startJob(
  app: SandboxApp,
  agent: AgentRow,
  version: VersionRow,
  inputs: JobInput[],
  metadata: Record<string, unknown>,
  creatorId: number,
): string {
  const { db } = app;
  const now = app.now();
  const hash = inputsHash(inputs);
  const cacheable = agent.cache_failed_jobs === 1 ? [JobStatus.SUCCESS, JobStatus.FAILURE] : [JobStatus.SUCCESS];
  const cached =
    agent.disable_cache === 1
      ? undefined
      : db.get<CachedRow>(
          `SELECT status_code, verdict FROM jobs WHERE version_pk = ? AND inputs_hash = ? AND status_code IN (${cacheable.join(', ')})
           ORDER BY created_ms DESC LIMIT 1`,
          [version.pk, hash],
        );
  const events: StoredEvent[] = [nextEvent(JobStatus.PENDING, now)];
  const base = {
    orgId: agent.org_id, agentPk: agent.pk, versionPk: version.pk, versionName: version.version_name, createdMs: now,
    lastUpdatedMs: now, graderScore: null, inputs, metadata, evaluation: null, feedbackReview: null, creatorId, hash,
  };
  return db.transaction(() => {
    if (cached) {
      events.push(nextEvent(JobStatus.CACHED, now));
      return insertJob(db, { ...base, status: JobStatus.CACHED, cost: 0, durationMs: 0, verdict: cached.verdict, events, plan: null, nextStepMs: null });
    }
    const plan = planFor(inputs.map((i) => i.value).join('\n'), hash);
    return insertJob(db, { ...base, status: JobStatus.PENDING, cost: null, durationMs: null, verdict: null, events, plan, nextStepMs: now + app.lifecycle.stepMs });
  });
}
