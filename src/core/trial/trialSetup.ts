/**
 * Setting a trial up on the service: the trial policy with the edited content, then for each agent
 * that applies the real policy a duplicate whose new version names the trial policy. Production is
 * never touched: the real policy and agents are only read.
 */
import type { AgentVersion, BaseAgent, InputDefinitionInput, ServiceClient } from '../client';
import { isTrialEntity, trialMarker, trialName } from './trialMarker';
import type { DraftTrialRecord, PolicyTrialRecord, TrialEntity, TrialRecord } from './trialRecord';
import { DuplicateRenameError, duplicateAgentAs } from '../agentDuplicate';
import type { AgentVersionDraft } from '../documents/agentVersionDraft';
import { MADE_HERE, NEW_THING, trialCopy, type WriteGround } from '../writeGate/writeGate';
import { assertTrialOfUser, settleEntityIds } from './trialOwnership';

/** Saves the trial file; awaited before every request that creates something. */
export type SaveTrial = () => Promise<void>;

/** The policy a version applies (`engine_config.policy_id`), trimmed; undefined when it names none. */
export function policyIdOf(version: Pick<AgentVersion, 'engine_config'> | undefined): string | undefined {
  const config = version?.engine_config;
  const value = config !== null && typeof config === 'object' && Object.hasOwn(config, 'policy_id') ? (config as { policy_id?: unknown }).policy_id : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Every agent whose current version applies the policy, with that version (trial agents left out). */
export async function agentsApplying(client: ServiceClient, policyId: string, signal?: AbortSignal): Promise<{ agent: BaseAgent; version: AgentVersion }[]> {
  const found: { agent: BaseAgent; version: AgentVersion }[] = [];
  for await (const agent of client.agents.items({ include_job_stats: false }, { signal })) {
    if (isTrialEntity(agent)) continue;
    const version = await client.agents.currentVersion(agent.id, { signal }).catch(() => undefined);
    if (version && policyIdOf(version) === policyId) found.push({ agent, version });
  }
  return found;
}

/** The fields of a version as a new version takes them, with the policy it applies replaced. */
export function versionCopy(version: AgentVersion, policyId: string): { input_definitions: InputDefinitionInput[]; engine_config: Record<string, string> } {
  const engine = Object.create(null) as Record<string, string>;
  const config = version.engine_config !== null && typeof version.engine_config === 'object' ? (version.engine_config as Record<string, unknown>) : {};
  for (const key of Object.keys(config)) {
    const value = config[key];
    Object.defineProperty(engine, key, { value: typeof value === 'string' ? value : JSON.stringify(value), enumerable: true, writable: true, configurable: true });
  }
  engine.policy_id = policyId;
  const input_definitions = version.input_definitions.map((d): InputDefinitionInput => {
    const copy: InputDefinitionInput = { key: d.key, data_type: d.data_type ?? 'text/plain' };
    if (d.description) copy.description = d.description;
    if (d.example) copy.example = d.example;
    if (d.accepts_multiple_files) copy.accepts_multiple_files = true;
    return copy;
  });
  return { input_definitions, engine_config: { ...engine } };
}

/**
 * Creates what the trial needs, writing each entity in the record before asking for it; a record
 * that was interrupted continues where it stopped (what has an id is not made again). The ids of the
 * agent copies made go into `madeHere`, the process's own record of what it made.
 */
export async function setUpTrial(client: ServiceClient, record: PolicyTrialRecord, agents: readonly { agent: BaseAgent; version: AgentVersion }[], save: SaveTrial, madeHere?: Set<string>, signal?: AbortSignal): Promise<void> {
  await beforeSetUp(client, record, signal);
  const marker = trialMarker(record);
  const at = new Date(record.createdAt);
  let policy = record.entities.find((e) => e.kind === 'policy');
  if (!policy) {
    policy = { kind: 'policy', name: trialName(record.policyName, record.user, at) };
    record.entities.push(policy);
  }
  if (!policy.id) {
    await save();
    const made = await client.policies.create({ name: policy.name, description: marker, content: record.content }, { signal, ground: NEW_THING });
    policy.id = made.id;
    await save();
  }
  for (const { agent, version } of agents) {
    const entity = await copyAgent(client, record, agent, version.id, save, madeHere, signal);
    if (!entity.trialVersionId) {
      const made = await client.agents.createVersion(entity.id!, { ...versionCopy(version, policy.id), version_name: `trial of ${record.policyName}`, description: marker }, { signal, ground: copyGround(client, record, entity.id!) });
      entity.trialVersionId = made.id;
      await save();
    }
  }
  record.state = 'ready';
  await save();
}

/**
 * What every set-up does first: the record must be the signed-in user's, and the ids it holds are kept
 * only where this process made them or the service marks them as this trial's copies (a file's id is a
 * candidate, never a target: a crafted file naming a real agent gets a fresh copy, not a new version on
 * that agent).
 */
async function beforeSetUp(client: ServiceClient, record: TrialRecord, signal?: AbortSignal): Promise<void> {
  await assertTrialOfUser(client, record, signal);
  if (record.entities.some((e) => e.id)) await settleEntityIds(client, record, signal);
}

/** Why a trial copy may be written: this process made it, or the service marks it as this trial's (checked by the write gate). */
function copyGround(client: ServiceClient, record: TrialRecord, agentId: string): WriteGround {
  return client.gate?.madeHere({ kind: 'agent', id: agentId }) ? MADE_HERE : trialCopy(record);
}

/**
 * The trial's copy of an agent, made (and marked) unless the record has it already: the entity is
 * written in the record before the duplicate is asked for, and its id right after.
 */
async function copyAgent(client: ServiceClient, record: TrialRecord, agent: BaseAgent, versionId: string, save: SaveTrial, madeHere?: Set<string>, signal?: AbortSignal): Promise<TrialEntity> {
  let entity: TrialEntity | undefined = record.entities.find((e) => e.kind === 'agent' && e.sourceAgentId === agent.id);
  if (!entity) {
    entity = { kind: 'agent', name: trialName(agent.name, record.user, new Date(record.createdAt)), sourceAgentId: agent.id, sourceVersionId: versionId };
    record.entities.push(entity);
  }
  if (!entity.id) {
    await save();
    const found = entity;
    // Named and marked right after the copy is made (the live duplicate takes no body).
    const copy = await duplicateAgentAs(client, agent.id, { name: entity.name, description: trialMarker(record) }, signal).catch(async (error: unknown) => {
      // The copy exists: record it so that clean-up finds it, then fail as asked.
      if (error instanceof DuplicateRenameError) {
        found.id = error.copy.base_agent.id;
        // Unmarked (the rename carried the marker): only this process may say it is the trial's.
        madeHere?.add(found.id);
        await save();
      }
      throw error;
    });
    entity.id = copy.base_agent.id;
    // Until its marker is written, only this process may say the copy is the trial's (trialRemoval.ts).
    madeHere?.add(entity.id);
    await save();
  }
  return entity;
}

/**
 * Sets up a trial of an agent version draft: a copy of the agent (marked as the trial's) whose new
 * version is the draft. The real agent is only read; the draft's policy, if it names one, is applied
 * as it is (read by the copy's jobs, never changed). Continues an interrupted record like
 * {@link setUpTrial}.
 */
export async function setUpDraftTrial(client: ServiceClient, record: DraftTrialRecord, agent: BaseAgent, save: SaveTrial, madeHere?: Set<string>, signal?: AbortSignal): Promise<void> {
  await beforeSetUp(client, record, signal);
  const entity = await copyAgent(client, record, agent, record.baseVersionId ?? '', save, madeHere, signal);
  if (!entity.trialVersionId) {
    const draft = record.content as AgentVersionDraft;
    const name = draft.version_name ? `trial of ${draft.version_name}` : 'trial of a draft';
    const made = await client.agents.createVersion(entity.id!, { input_definitions: draft.input_definitions, engine_config: { ...draft.engine_config }, version_name: name.slice(0, 255), description: trialMarker(record) }, { signal, ground: copyGround(client, record, entity.id!) });
    entity.trialVersionId = made.id;
    await save();
  }
  record.state = 'ready';
  await save();
}
