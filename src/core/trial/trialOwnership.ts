/**
 * A trial file names; the service decides. What a trial record says (whose it is, which ids are its
 * copies, what was tried) is checked against the signed-in user, the write gate's memory of what this
 * process made, and the markers the service holds — never taken from the file as it is.
 */
import type { ServiceClient } from '../client';
import { draftFromVersion, sameRun, type AgentVersionDraft } from '../documents/agentVersionDraft';
import { isFinalStatus } from '../jobStatus';
import { readMarker, trialUserName } from './trialMarker';
import { isDraftTrial, type TrialEntity, type TrialRecord } from './trialRecord';

/** A trial record of another user: only its file may be deleted. */
export class NotYourTrial extends Error {
  constructor(readonly owner: string) {
    super(`This trial file is ${owner}'s, not yours: nothing it names is touched (you can only delete the file).`);
    this.name = 'NotYourTrial';
  }
}

/** A trial whose comparison did not finish on its own copies: there is nothing tried to publish. */
export class NotTried extends Error {
  constructor(subject: string) {
    super(`${subject} has no finished comparison of its own (its copies and their jobs are not on the service, and this window did not run it): nothing was published. Try it again, then publish.`);
    this.name = 'NotTried';
  }
}

/** The name the signed-in user's trials carry. */
export async function signedInTrialUser(client: ServiceClient, signal?: AbortSignal): Promise<string> {
  return trialUserName(await client.users.current({ signal }).catch(() => undefined));
}

/** Throws {@link NotYourTrial} unless the record is the signed-in user's. */
export async function assertTrialOfUser(client: ServiceClient, record: Pick<TrialRecord, 'user'>, signal?: AbortSignal): Promise<void> {
  const me = await signedInTrialUser(client, signal);
  if (record.user !== me) throw new NotYourTrial(record.user);
}

type Item = { id: string; name: string; description?: string | null };

/** True when the service marks the item as a copy of this trial and this user's. */
function markedAsTrials(item: Item, record: Pick<TrialRecord, 'trialId' | 'user'>): boolean {
  const marker = readMarker(item.description);
  return marker !== undefined && marker.trialId === record.trialId && marker.user === record.user;
}

async function read(client: ServiceClient, kind: TrialEntity['kind'], id: string, signal?: AbortSignal): Promise<Item | undefined> {
  return (kind === 'agent' ? client.agents.get(id, { signal }) : client.policies.get(id, { signal })).catch(() => undefined);
}

/**
 * The id of a record's entity as the service and this process know it: the file's id only when this
 * process made it or the service marks it as this trial's copy; else the marked item of the entity's
 * exact name, if any; else none (the entity is made again). The file's id alone is never enough.
 */
export async function verifiedEntityId(client: ServiceClient, record: TrialRecord, entity: TrialEntity, signal?: AbortSignal): Promise<string | undefined> {
  if (entity.id) {
    if (entity.kind === 'agent' && client.gate?.madeHere({ kind: 'agent', id: entity.id })) return entity.id;
    const item = await read(client, entity.kind, entity.id, signal);
    if (item && markedAsTrials(item, record)) return item.id;
  }
  const list = entity.kind === 'agent' ? client.agents.items({ search: entity.name, include_job_stats: false }, { signal }) : client.policies.items({ search: entity.name }, { signal });
  for await (const item of list) if (item.name === entity.name && markedAsTrials(item, record)) return item.id;
  return undefined;
}

/**
 * Before a record is set up again (Resume, Try Again): each entity keeps only an id the service or this
 * process vouches for (see {@link verifiedEntityId}); an agent whose id goes loses its trial version too.
 */
export async function settleEntityIds(client: ServiceClient, record: TrialRecord, signal?: AbortSignal): Promise<void> {
  for (const entity of record.entities) {
    if (entity.removed) continue;
    const id = await verifiedEntityId(client, record, entity, signal);
    if (id === entity.id) continue;
    if (id === undefined) delete entity.id;
    else entity.id = id;
    delete entity.trialVersionId;
  }
}

/** True when an agent copy has a job that finished. */
async function hasFinishedJob(client: ServiceClient, agentId: string, signal?: AbortSignal): Promise<boolean> {
  const page = await client.jobs.list(agentId, { page_size: 50 }, { signal }).catch(() => undefined);
  return page?.results.some((job) => isFinalStatus(job.status_code)) ?? false;
}

/** The record's agent copies the service marks as this trial's, with a finished job each. */
async function triedCopies(client: ServiceClient, record: TrialRecord, signal?: AbortSignal): Promise<Item[]> {
  const copies: Item[] = [];
  for (const entity of record.entities.filter((e) => e.kind === 'agent' && e.id && !e.removed)) {
    const item = await read(client, 'agent', entity.id!, signal);
    if (item && markedAsTrials(item, record) && (await hasFinishedJob(client, item.id, signal))) copies.push(item);
  }
  return copies;
}

/**
 * What the trial tried, as this process or the service knows it — never the file's word: the content
 * this process ran to the end of its comparison, or else the content of the trial's own marked copies
 * on the service, whose jobs finished. For a draft the file's draft must run like the copy's marked
 * version (its names may differ). Throws {@link NotTried} when neither holds.
 */
export async function triedContent(client: ServiceClient, record: TrialRecord, signal?: AbortSignal): Promise<unknown> {
  const here = client.gate?.tried(record.trialId);
  if (here !== undefined) return here;
  const subject = isDraftTrial(record) ? `The trial of the draft of “${record.agentName}”` : `The trial of the edit of “${record.policyName}”`;
  const copies = await triedCopies(client, record, signal);
  if (copies.length === 0) throw new NotTried(subject);
  if (isDraftTrial(record)) {
    const versions = await client.agents.listVersions(copies[0]!.id, { signal });
    const tried = versions.find((v) => markedAsTrials({ id: v.id, name: v.name, description: v.description }, record));
    const draft = record.content as AgentVersionDraft;
    if (!tried || !sameRun(draft, draftFromVersion(tried))) throw new NotTried(subject);
    return draft;
  }
  const policy = record.entities.find((e) => e.kind === 'policy' && e.id && !e.removed);
  const item = policy ? await client.policies.get(policy.id!, { signal }).catch(() => undefined) : undefined;
  if (!item || !markedAsTrials(item, record) || !item.current_version_id) throw new NotTried(subject);
  return (await client.policies.getVersion(item.id, item.current_version_id, { signal })).content;
}
