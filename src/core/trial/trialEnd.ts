/**
 * How a trial ends: Publish (one new version of the real policy, refused when the policy moved on since
 * the trial began) or Discard, both removing the trial's entities; and Clean Up of the entities a crash
 * left behind anywhere in the organization, found by the marker the trial wrote.
 */
import type { ServiceClient } from '../client';
import { readMarker } from './trialMarker';
import { planLeftoverRemoval, planTrialRemoval, removeVerified, type LeftAlone, type MadeHere, type RemovalPlan } from './trialRemoval';
import { isDraftTrial, type DraftTrialRecord, type TrialEntity, type TrialRecord } from './trialRecord';
import type { AgentVersionDraft } from '../documents/agentVersionDraft';
import type { SaveTrial } from './trialSetup';
import type { VerifiedCopy } from './trialRemoval';
import type { WriteGround } from '../writeGate/writeGate';
import { assertTrialOfUser, triedContent } from './trialOwnership';

/** The user's yes to a list of copies to remove: the ground of deleting an unmarked one the list named. */
export type ConfirmedRemoval = (copy: VerifiedCopy) => WriteGround | undefined;

/** The real policy (or agent, for a draft) has a newer version than the one the trial began from. */
export class TrialConflict extends Error {
  constructor(
    /** The policy, or for a draft the agent. */
    readonly subjectName: string,
    readonly currentVersionId: string | null,
    draft = false,
  ) {
    super(
      draft
        ? `${subjectName} changed since the trial began (someone made a new version): publishing the draft would replace it. Open a new draft from the current version and try it again.`
        : `${subjectName} changed since the trial began (someone saved a new version): publishing would overwrite it. Try the edit again on the policy as it is now.`,
    );
    this.name = 'TrialConflict';
  }
}

/** What ending a trial removed, and what it left alone (named by the file, not marked by the service as this trial's). */
export interface RemovalOutcome {
  removed: number;
  leftAlone: LeftAlone[];
}

/**
 * Carries out a plan of {@link planTrialRemoval}: deletes the verified copies, then records the
 * entities the service has none of any more. Whatever the file names but the service does not mark is
 * left alone and answered.
 */
export async function executeTrialRemoval(client: ServiceClient, plan: RemovalPlan, save: SaveTrial, signal?: AbortSignal, confirmed?: ConfirmedRemoval): Promise<RemovalOutcome> {
  const { removed, refused } = await removeVerified(client, plan.remove, signal, confirmed);
  for (const entity of plan.settled) if (!refused.some((r) => r.id === entity.id)) entity.removed = true;
  await save();
  return { removed, leftAlone: [...plan.leftAlone, ...refused] };
}

/** Removes the trial's copies that the service confirms as this trial's (see trialRemoval.ts); agents first, then its policy. */
export async function removeTrialEntities(client: ServiceClient, record: TrialRecord, save: SaveTrial, madeHere?: MadeHere, signal?: AbortSignal): Promise<RemovalOutcome> {
  return executeTrialRemoval(client, await planTrialRemoval(client, record, madeHere, signal), save, signal);
}

/** Discard: the trial's entities are removed and the real policy is left as it was. */
export async function discardTrial(client: ServiceClient, record: TrialRecord, save: SaveTrial, madeHere?: MadeHere, signal?: AbortSignal): Promise<RemovalOutcome> {
  return finishDiscard(record, await removeTrialEntities(client, record, save, madeHere, signal), save);
}

/** Discard after a confirmed plan: the plan's copies go, then the trial is recorded as discarded. */
export async function discardPlanned(client: ServiceClient, record: TrialRecord, plan: RemovalPlan, save: SaveTrial, signal?: AbortSignal, confirmed?: ConfirmedRemoval): Promise<RemovalOutcome> {
  return finishDiscard(record, await executeTrialRemoval(client, plan, save, signal, confirmed), save);
}

async function finishDiscard(record: TrialRecord, outcome: RemovalOutcome, save: SaveTrial): Promise<RemovalOutcome> {
  record.state = 'discarded';
  await save();
  return outcome;
}

/** Throws a {@link TrialConflict} when the real policy's (or, for a draft, the real agent's) current version is not the one the trial began from. */
export async function checkNoConflict(client: ServiceClient, record: TrialRecord, signal?: AbortSignal): Promise<void> {
  if (isDraftTrial(record)) {
    const agent = await client.agents.get(record.agentId, { signal });
    if ((agent.current_version_id ?? null) !== record.baseVersionId) throw new TrialConflict(record.agentName, agent.current_version_id ?? null, true);
    return;
  }
  const policy = await client.policies.get(record.policyId, { signal });
  if (policy.current_version_id !== record.baseVersionId) throw new TrialConflict(record.policyName, policy.current_version_id);
}

/** The new version a draft trial publishes on the real agent: the draft as tried. */
export function draftBody(record: DraftTrialRecord): AgentVersionDraft {
  const draft = record.content as AgentVersionDraft;
  return { ...draft, input_definitions: draft.input_definitions.map((d) => ({ ...d })), engine_config: { ...draft.engine_config } };
}

/** What Publish needs besides the record: the user's confirmation of the real target, and what this process made. */
export interface PublishOptions {
  /** Issued by the write gate when the user confirmed publishing to the real policy (or agent): production's only ground (none: the gate refuses). */
  ground: WriteGround | undefined;
  madeHere?: MadeHere;
  signal?: AbortSignal;
  /** The name of the policy's new version (a draft names its own); none: the service names it. */
  versionName?: string;
}

/** The real target a publish writes: the policy, or for a draft the agent. */
export function publishTarget(record: TrialRecord): { kind: 'policy' | 'agent'; id: string } {
  return isDraftTrial(record) ? { kind: 'agent', id: record.agentId } : { kind: 'policy', id: record.policyId };
}

/**
 * What Publish would publish, checked: the record is the signed-in user's, the real policy (or agent)
 * is still at the version the trial began from, and the content is what was tried (this process's
 * record of its run, or the trial's own copies on the service — never the file's word).
 */
export async function publishable(client: ServiceClient, record: TrialRecord, signal?: AbortSignal): Promise<unknown> {
  await assertTrialOfUser(client, record, signal);
  await checkNoConflict(client, record, signal);
  return triedContent(client, record, signal);
}

/**
 * Publish: after {@link publishable}, one new version of the real policy with the content tried (or,
 * for a draft, one new version of the real agent: the draft) — the first change production sees, on
 * the user's confirmation only — then the trial's entities are removed. Answers the new version's id.
 */
export async function publishTrial(client: ServiceClient, record: TrialRecord, save: SaveTrial, o: PublishOptions): Promise<string> {
  if (record.state === 'published' && record.publishedVersionId) return record.publishedVersionId;
  const content = await publishable(client, record, o.signal);
  const opts = { signal: o.signal, ground: o.ground };
  const made = isDraftTrial(record) ? await client.agents.createVersion(record.agentId, draftBody({ ...record, content }), opts) : await client.policies.createVersion(record.policyId, { content, ...(record.baseVersionId ? { base_version_id: record.baseVersionId } : {}), ...(o.versionName ? { version_name: o.versionName } : {}) }, opts);
  await completePublish(client, record, made.id, save, o.madeHere, o.signal);
  return made.id;
}

/** After the real policy's new version was made (by {@link publishTrial} or an editor's save flow): the trial is published and its entities removed. */
export async function completePublish(client: ServiceClient, record: TrialRecord, versionId: string, save: SaveTrial, madeHere?: MadeHere, signal?: AbortSignal): Promise<RemovalOutcome> {
  record.publishedVersionId = versionId;
  record.state = 'published';
  await save();
  return removeTrialEntities(client, record, save, madeHere, signal);
}

/** A trial entity found on the service by its marker. */
export interface Leftover {
  kind: TrialEntity['kind'];
  id: string;
  name: string;
  trialId: string;
  user: string;
}

/** Every trial entity in the organization (by the marker in its description), optionally only one user's and not those of live trials. */
export async function findLeftovers(client: ServiceClient, options: { user?: string; keepTrialIds?: readonly string[] } = {}, signal?: AbortSignal): Promise<Leftover[]> {
  const keep = new Set(options.keepTrialIds ?? []);
  const found: Leftover[] = [];
  const consider = (kind: TrialEntity['kind'], item: { id: string; name: string; description?: string | null }): void => {
    const marker = readMarker(item.description);
    if (!marker || keep.has(marker.trialId) || (options.user !== undefined && marker.user !== options.user)) return;
    found.push({ kind, id: item.id, name: item.name, ...marker });
  };
  for await (const agent of client.agents.items({ include_job_stats: false }, { signal })) consider('agent', agent);
  for await (const policy of client.policies.items({}, { signal })) consider('policy', policy);
  return found;
}

/** Removes leftovers, each read again and removed only while the service still marks it; agents first (so their policies can go). */
export async function removeLeftovers(client: ServiceClient, leftovers: readonly Leftover[], signal?: AbortSignal, confirmed?: ConfirmedRemoval): Promise<RemovalOutcome> {
  const plan = await planLeftoverRemoval(client, leftovers, signal);
  const { removed, refused } = await removeVerified(client, plan.remove, signal, confirmed);
  return { removed, leftAlone: [...plan.leftAlone, ...refused] };
}
