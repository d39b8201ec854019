/** Judging a job with the sandbox's engine when it starts, and the stored outcome the result endpoints read. */
import type { AgentRow } from '../agents/agentStore';
import type { VersionRow } from '../agents/versionStore';
import { engineVerdicts } from '../engines';
import { policyFingerprint, runEngine, type EngineOutcome, type EngineOutput, type EnginePolicy, type EngineRequest } from '../engine/engineRun';
import type { JobEngine } from '../engine/engineThreads';
import type { EngineInput } from '../engine/ruleMatching';
import { findPolicy, findPolicyVersion, policyIdOf } from '../policies/policyStore';
import type { SandboxDb } from '../store/database';
import { iso, parseJson } from '../util';
import type { JobInput } from './jobStore';

/** The engine's outcome as kept on the job (`jobs.result`), shown once the job succeeds. */
export interface StoredOutcome {
  disposition: string;
  outputs: EngineOutput[];
  input_tokens: number;
  output_tokens: number;
  cost: number;
  /** Full results the outputs name by key (GET …/artifacts/result/); never part of the result endpoints. */
  artifacts?: Record<string, unknown>;
}

/** The policy a version applies (`engine_config.policy_id`), at its current version; undefined when none or not found. */
export function policyOfVersion(db: SandboxDb, orgId: string, version: Pick<VersionRow, 'engine_config'>): EnginePolicy | undefined {
  const policyId = policyIdOf(parseJson(version.engine_config));
  if (!policyId) return undefined;
  const policy = findPolicy(db, orgId, policyId);
  const current = policy?.current_version_id ? findPolicyVersion(db, policy.pk, policy.current_version_id) : undefined;
  if (!policy || !current) return undefined;
  return { id: policy.id, name: policy.name, versionId: current.id, versionName: current.version_name, content: parseJson(current.content) };
}

/** A job as the engine is asked about it. */
export interface JobToJudge {
  id: string;
  createdMs: number;
  inputs: readonly JobInput[];
  texts?: ReadonlyMap<string, string>;
  metadata: Record<string, unknown>;
  hash: string;
}

/** What a job's judgement is: the engine's outcome as stored, and the cache key part of the policy it was judged by. */
export interface Judgement {
  outcome: StoredOutcome;
  engineKey: string;
}

/** What the engine is asked about a job starting now (read from the store: the version's policy at its current content). */
export function engineRequestOf(db: SandboxDb, job: JobToJudge, agent: AgentRow, version: VersionRow): { request: EngineRequest; policy: EnginePolicy | undefined } {
  const policy = policyOfVersion(db, agent.org_id, version);
  const inputs: EngineInput[] = job.inputs.map((i) => ({ key: i.key, text: job.texts?.get(i.key) ?? (i.file_name || i.value) }));
  const request: EngineRequest = {
    inputs,
    policy,
    verdicts: engineVerdicts(agent.engine_class_id),
    inputsHash: job.hash,
    about: {
      agent: { id: agent.id, name: agent.name },
      job: { id: job.id, created_at: iso(job.createdMs) ?? '', agent_version_name: version.version_name, metadata: job.metadata },
    },
  };
  return { request, policy };
}

function judgementOf(outcome: EngineOutcome, policy: EnginePolicy | undefined): Judgement {
  return {
    outcome: {
      disposition: outcome.disposition, outputs: outcome.outputs, input_tokens: outcome.inputTokens, output_tokens: outcome.outputTokens, cost: outcome.cost,
      ...(outcome.artifacts ? { artifacts: outcome.artifacts } : {}),
    },
    engineKey: policyFingerprint(policy),
  };
}

/** What a job starting now will answer, judged on this thread (seeds, which judge before anyone asks). */
export function judgeJob(db: SandboxDb, job: JobToJudge, agent: AgentRow, version: VersionRow): Judgement {
  const { request, policy } = engineRequestOf(db, job, agent, version);
  return judgementOf(runEngine(request), policy);
}

/** What a job starting now will answer, judged in the engine's threads: the request's thread stays free for everyone else. */
export async function judgeJobOffThread(engine: JobEngine, db: SandboxDb, job: JobToJudge, agent: AgentRow, version: VersionRow): Promise<Judgement> {
  const { request, policy } = engineRequestOf(db, job, agent, version);
  return judgementOf(await engine.judge(agent.org_id, request), policy);
}

/** The stored outcome of a job, or undefined (jobs of the seeded history have none). */
export function storedOutcome(resultJson: string | null): StoredOutcome | undefined {
  const parsed = parseJson<StoredOutcome>(resultJson);
  return parsed && Array.isArray(parsed.outputs) ? parsed : undefined;
}
