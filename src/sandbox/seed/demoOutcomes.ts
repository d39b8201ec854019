/** What the demo's jobs answered: the engine's outcome, judged as it would have been when each job ran. */
import { JobStatus } from '../../core/jobStatus';
import { findAgent } from '../agents/agentStore';
import { findVersion } from '../agents/versionStore';
import { runEngine } from '../engine/engineRun';
import { engineVerdicts } from '../engines';
import type { NewJob } from '../jobs/jobInsert';
import { judgeJob } from '../jobs/jobOutcome';
import { inputsHash } from '../jobs/jobStore';
import type { SandboxDb } from '../store/database';
import { iso } from '../util';

/** A seeded policy with its versions, oldest first. */
export interface SeededPolicy {
  id: string;
  name: string;
  versions: { id: string; name: string; content: unknown; createdMs: number }[];
}

/**
 * The outcome of a finished demo job of an agent that applies `policy`: judged by the policy version
 * current when the job was created, so the history agrees with what the engine answers today for the
 * same policy content. The job's verdict becomes the engine's disposition. Other jobs stay as they are.
 */
export function historyOutcome(policy: SeededPolicy | undefined, agent: { id: string; name: string; engine: string }, job: NewJob & { id: string }): Partial<NewJob> {
  if (!policy || (job.status !== JobStatus.SUCCESS && job.status !== JobStatus.CACHED)) return {};
  const version = [...policy.versions].reverse().find((v) => v.createdMs <= job.createdMs) ?? policy.versions[0];
  if (!version) return {};
  const outcome = runEngine({
    inputs: job.inputs.map((i) => ({ key: i.key, text: i.file_name || i.value })),
    policy: { id: policy.id, name: policy.name, versionId: version.id, versionName: version.name, content: version.content },
    verdicts: engineVerdicts(agent.engine),
    inputsHash: inputsHash(job.inputs),
    about: { agent: { id: agent.id, name: agent.name }, job: { id: job.id, created_at: iso(job.createdMs) ?? '', agent_version_name: job.versionName, metadata: job.metadata } },
  });
  const stored = { disposition: outcome.disposition, outputs: outcome.outputs, input_tokens: outcome.inputTokens, output_tokens: outcome.outputTokens, cost: outcome.cost };
  return { verdict: outcome.disposition, result: JSON.stringify(stored) };
}

/** The engine's outcome of a job still running in the demo, so that it ends with the policy's disposition like a new run. */
export function runningOutcome(db: SandboxDb, job: NewJob & { id: string }): Partial<NewJob> {
  const agentId = db.value('SELECT id FROM agents WHERE pk = ?', [job.agentPk]);
  const versionId = db.value('SELECT id FROM agent_versions WHERE pk = ?', [job.versionPk]);
  const agent = typeof agentId === 'string' ? findAgent(db, job.orgId, agentId) : undefined;
  const version = agent && typeof versionId === 'string' ? findVersion(db, agent.pk, versionId) : undefined;
  if (!agent || !version) return {};
  const { outcome, engineKey } = judgeJob(db, { id: job.id, createdMs: job.createdMs, inputs: job.inputs, metadata: job.metadata, hash: inputsHash(job.inputs) }, agent, version);
  return { result: JSON.stringify(outcome), engineKey };
}
