/** Judging a job with the sandbox's engine when it starts, and the stored outcome the result endpoints read. */
import type { AgentRow } from '../agents/agentStore';
import type { VersionRow } from '../agents/versionStore';
import { engineVerdicts } from '../engines';
import { policyFingerprint, runEngine, type EngineOutput, type EnginePolicy } from '../engine/engineRun';
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

/** What a job starting now will answer, and the cache key part of the policy it is judged by. */
export function judgeJob(
  db: SandboxDb,
  job: { id: string; createdMs: number; inputs: readonly JobInput[]; texts?: ReadonlyMap<string, string>; metadata: Record<string, unknown>; hash: string },
  agent: AgentRow,
  version: VersionRow,
): { outcome: StoredOutcome; engineKey: string } {
  const policy = policyOfVersion(db, agent.org_id, version);
  const inputs: EngineInput[] = job.inputs.map((i) => ({ key: i.key, text: job.texts?.get(i.key) ?? (i.file_name || i.value) }));
  const outcome = runEngine({
    inputs,
    policy,
    verdicts: engineVerdicts(agent.engine_class_id),
    inputsHash: job.hash,
    about: {
      agent: { id: agent.id, name: agent.name },
      job: { id: job.id, created_at: iso(job.createdMs) ?? '', agent_version_name: version.version_name, metadata: job.metadata },
    },
  });
  return {
    outcome: { disposition: outcome.disposition, outputs: outcome.outputs, input_tokens: outcome.inputTokens, output_tokens: outcome.outputTokens, cost: outcome.cost },
    engineKey: policyFingerprint(policy),
  };
}

/** The stored outcome of a job, or undefined (jobs of the seeded history have none). */
export function storedOutcome(resultJson: string | null): StoredOutcome | undefined {
  const parsed = parseJson<StoredOutcome>(resultJson);
  return parsed && Array.isArray(parsed.outputs) ? parsed : undefined;
}
