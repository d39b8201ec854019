/**
 * How a trial ends: Publish (one new version of the real policy, refused when the policy moved on since
 * the trial began) or Discard, both removing the trial's entities; and Clean Up of the entities a crash
 * left behind anywhere in the organization, found by the marker the trial wrote.
 */
import { isServiceError, type ServiceClient } from '../client';
import { readMarker } from './trialMarker';
import type { TrialEntity, TrialRecord } from './trialRecord';
import type { SaveTrial } from './trialSetup';

/** The real policy has a newer version than the one the trial began from. */
export class TrialConflict extends Error {
  constructor(
    readonly policyName: string,
    readonly currentVersionId: string | null,
  ) {
    super(`${policyName} changed since the trial began (someone saved a new version): publishing would overwrite it. Try the edit again on the policy as it is now.`);
    this.name = 'TrialConflict';
  }
}

const gone = (error: unknown): boolean => isServiceError(error) && error.status === 404;

/** Finds an entity whose creation was asked for but whose id was never recorded, by its exact name. */
async function findUnrecorded(client: ServiceClient, entity: TrialEntity, signal?: AbortSignal): Promise<string[]> {
  const ids: string[] = [];
  const list = entity.kind === 'agent' ? client.agents.items({ search: entity.name, include_job_stats: false }, { signal }) : client.policies.items({ search: entity.name }, { signal });
  for await (const item of list) if (item.name === entity.name) ids.push(item.id);
  return ids;
}

async function removeOne(client: ServiceClient, kind: TrialEntity['kind'], id: string, signal?: AbortSignal): Promise<void> {
  try {
    if (kind === 'agent') await client.agents.delete(id, { signal });
    else await client.policies.delete(id, { signal });
  } catch (error) {
    if (!gone(error)) throw error;
  }
}

/** Removes the trial's agents, then its policy (a policy an agent still names cannot go); answers how many were removed. */
export async function removeTrialEntities(client: ServiceClient, record: TrialRecord, save: SaveTrial, signal?: AbortSignal): Promise<number> {
  let removed = 0;
  const order = [...record.entities.filter((e) => e.kind === 'agent'), ...record.entities.filter((e) => e.kind === 'policy')];
  for (const entity of order) {
    if (entity.removed) continue;
    const ids = entity.id ? [entity.id] : await findUnrecorded(client, entity, signal);
    for (const id of ids) await removeOne(client, entity.kind, id, signal);
    entity.removed = true;
    removed += ids.length;
    await save();
  }
  return removed;
}

/** Discard: the trial's entities are removed and the real policy is left as it was. */
export async function discardTrial(client: ServiceClient, record: TrialRecord, save: SaveTrial, signal?: AbortSignal): Promise<number> {
  const removed = await removeTrialEntities(client, record, save, signal);
  record.state = 'discarded';
  await save();
  return removed;
}

/** Throws a {@link TrialConflict} when the real policy's current version is not the one the trial began from. */
export async function checkNoConflict(client: ServiceClient, record: TrialRecord, signal?: AbortSignal): Promise<void> {
  const policy = await client.policies.get(record.policyId, { signal });
  if (policy.current_version_id !== record.baseVersionId) throw new TrialConflict(record.policyName, policy.current_version_id);
}

/**
 * Publish: after the conflict check, one new version of the real policy with the content tried (the
 * first change production sees), then the trial's entities are removed. Answers the new version's id.
 */
export async function publishTrial(client: ServiceClient, record: TrialRecord, save: SaveTrial, signal?: AbortSignal): Promise<string> {
  if (record.state === 'published' && record.publishedVersionId) return record.publishedVersionId;
  await checkNoConflict(client, record, signal);
  const body = record.baseVersionId ? { content: record.content, base_version_id: record.baseVersionId } : { content: record.content };
  const made = await client.policies.createVersion(record.policyId, body, { signal });
  await completePublish(client, record, made.id, save, signal);
  return made.id;
}

/** After the real policy's new version was made (by {@link publishTrial} or an editor's save flow): the trial is published and its entities removed. */
export async function completePublish(client: ServiceClient, record: TrialRecord, versionId: string, save: SaveTrial, signal?: AbortSignal): Promise<void> {
  record.publishedVersionId = versionId;
  record.state = 'published';
  await save();
  await removeTrialEntities(client, record, save, signal);
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

/** Removes leftovers, agents first (so their policies can go); answers how many were removed. */
export async function removeLeftovers(client: ServiceClient, leftovers: readonly Leftover[], signal?: AbortSignal): Promise<number> {
  const ordered = [...leftovers.filter((l) => l.kind === 'agent'), ...leftovers.filter((l) => l.kind === 'policy')];
  for (const leftover of ordered) await removeOne(client, leftover.kind, leftover.id, signal);
  return ordered.length;
}
