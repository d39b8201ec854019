/**
 * What a trial may delete, decided by the service and never by a file. A trial file (or a leftover
 * found by a list) only names candidates; each candidate is read again and deleted only when the
 * service says it is a copy of that trial:
 *
 * - **Marked**: its description carries the marker of the trial's id and user. Policies are created
 *   with the marker in the same request, so an unmarked policy is never a trial copy.
 * - **Unmarked agent** (the gap: a duplicate is made, then its marker written by a second request):
 *   deleted only when this process recorded its id when it made it, or when all of these hold — its
 *   name is exactly the trial's generated name (`… · trial <stamp> · <user>` of this trial's start),
 *   it was created after the trial began (give or take ten minutes of clock difference), it has no
 *   job, and it has at most the one version a
 *   duplicate makes (every other version carries the marker).
 * - Anything else is left alone and listed with the reason, so the user can decide.
 */
import { isServiceError, type ServiceClient } from '../client';
import { isWriteRefused, MADE_HERE, trialCopy, type TrialIdentity, type WriteGround } from '../writeGate/writeGate';
import { readMarker, trialName } from './trialMarker';
import type { TrialEntity, TrialRecord } from './trialRecord';
import { assertTrialOfUser } from './trialOwnership';

export type { TrialIdentity } from '../writeGate/writeGate';

/** Why a copy may be deleted. */
export type RemovalGround = 'marked' | 'madeHere' | 'unmarkedCopy';

/** A copy the service confirmed as the trial's, with what the confirmation shows. */
export interface VerifiedCopy {
  kind: TrialEntity['kind'];
  id: string;
  name: string;
  createdAt: string | null;
  /** Jobs the agent has (undefined for policies, or when they could not be counted). */
  jobs?: number;
  ground: RemovalGround;
  /** The trial whose marker it carries (a marked copy). */
  trial?: TrialIdentity;
}

/** Something named as a trial's that is not deleted, and why. */
export interface LeftAlone {
  kind: TrialEntity['kind'];
  id?: string;
  name: string;
  why: string;
}

/** What removing a trial's entities will do, after every candidate was read. */
export interface RemovalPlan {
  remove: VerifiedCopy[];
  leftAlone: LeftAlone[];
  /** Entities of the record with nothing left alone: once `remove` is done, the service has none of them. */
  settled: TrialEntity[];
}

/** Ids of copies this process made itself (never read from a file): the only unmarked ids it may delete outright. */
export type MadeHere = ReadonlySet<string>;

/** Options of a check: the ids this process made, and when the trial began (for the unmarked-copy rule). */
export interface CheckOptions {
  madeHere?: MadeHere;
  /** The trial record the candidate is named by (its start and generated names), when there is one. */
  record?: Pick<TrialRecord, 'createdAt' | 'user'>;
  /** The exact name the record gave the entity. */
  expectedName?: string;
}

const gone = (error: unknown): boolean => isServiceError(error) && error.status === 404;
/** The service's clock and this machine's may differ: a copy may look made a little before its trial began. */
const CLOCK_SKEW_MS = 10 * 60_000;
const NOT_MARKED = 'not marked as a trial copy: left alone';

/** True when `name` is a name a trial of `record` generates (its start and its user), and exactly the one expected. */
function isGeneratedName(name: string, options: CheckOptions): boolean {
  const { record, expectedName } = options;
  if (!record || name !== expectedName) return false;
  const began = new Date(record.createdAt);
  if (Number.isNaN(began.getTime())) return false;
  const suffix = trialName('', record.user, began);
  return name.length > suffix.length && name.endsWith(suffix);
}

/** Jobs of an agent, by the count of a one-item page; undefined when the count cannot be read. */
async function jobCount(client: ServiceClient, agentId: string, signal?: AbortSignal): Promise<number | undefined> {
  try {
    return (await client.jobs.list(agentId, { page_size: 1 }, { signal })).count;
  } catch (error) {
    if (gone(error)) return 0;
    return undefined;
  }
}

/** The unmarked-copy rule for an agent the service does not mark (see the module's comment). */
async function isUnmarkedCopy(client: ServiceClient, agent: { id: string; name: string; created_at: string }, trial: TrialIdentity, options: CheckOptions, jobs: number | undefined, signal?: AbortSignal): Promise<boolean> {
  if (!isGeneratedName(agent.name, options)) return false;
  const began = Date.parse(options.record!.createdAt);
  const created = Date.parse(agent.created_at);
  if (Number.isNaN(created) || created < began - CLOCK_SKEW_MS) return false;
  if (jobs !== 0) return false;
  const versions = await client.agents.listVersions(agent.id, { signal });
  const unmarked = versions.filter((v) => !sameTrial(readMarker(v.description), trial));
  return unmarked.length <= 1;
}

function sameTrial(marker: TrialIdentity | undefined, trial: TrialIdentity): boolean {
  return marker !== undefined && marker.trialId === trial.trialId && marker.user === trial.user;
}

/**
 * Reads one candidate and says whether it is a copy of `trial`: a {@link VerifiedCopy}, a
 * {@link LeftAlone} with the reason, or `'gone'` when the service no longer has it.
 */
export async function checkCandidate(client: ServiceClient, kind: TrialEntity['kind'], id: string, trial: TrialIdentity, options: CheckOptions = {}, signal?: AbortSignal): Promise<VerifiedCopy | LeftAlone | 'gone'> {
  let item: { id: string; name: string; description?: string | null; created_at?: string | null };
  try {
    item = kind === 'agent' ? await client.agents.get(id, { signal }) : await client.policies.get(id, { signal });
  } catch (error) {
    if (gone(error)) return 'gone';
    throw error;
  }
  const jobs = kind === 'agent' ? await jobCount(client, item.id, signal) : undefined;
  const copy = (ground: RemovalGround): VerifiedCopy => ({ kind, id: item.id, name: item.name, createdAt: item.created_at ?? null, ...(jobs !== undefined ? { jobs } : {}), ground, ...(ground === 'marked' ? { trial: { trialId: trial.trialId, user: trial.user } } : {}) });
  const marker = readMarker(item.description);
  if (sameTrial(marker, trial)) return copy('marked');
  if (marker) return { kind, id: item.id, name: item.name, why: `marked as another trial's copy (${marker.user}'s): left alone` };
  if (kind === 'agent' && options.madeHere?.has(item.id)) return copy('madeHere');
  if (kind === 'agent' && (await isUnmarkedCopy(client, { id: item.id, name: item.name, created_at: item.created_at ?? '' }, trial, options, jobs, signal))) return copy('unmarkedCopy');
  return { kind, id: item.id, name: item.name, why: NOT_MARKED };
}

/** Ids the service has under an entity's exact name: candidates only, each checked like any other. */
async function candidatesByName(client: ServiceClient, entity: TrialEntity, signal?: AbortSignal): Promise<string[]> {
  const ids: string[] = [];
  const list = entity.kind === 'agent' ? client.agents.items({ search: entity.name, include_job_stats: false }, { signal }) : client.policies.items({ search: entity.name }, { signal });
  for await (const item of list) if (item.name === entity.name && !ids.includes(item.id)) ids.push(item.id);
  return ids;
}

/** Adds a check's answer to a plan; answers false when the candidate is left alone. */
function addTo(plan: RemovalPlan, answer: VerifiedCopy | LeftAlone | 'gone'): boolean {
  if (answer === 'gone') return true;
  if (!('ground' in answer)) {
    plan.leftAlone.push(answer);
    return false;
  }
  if (!plan.remove.some((r) => r.id === answer.id && r.kind === answer.kind)) plan.remove.push(answer);
  return true;
}

/** Reads every entity a trial record names and plans what may go (agents first, so their policy can go after). */
export async function planTrialRemoval(client: ServiceClient, record: TrialRecord, madeHere?: MadeHere, signal?: AbortSignal): Promise<RemovalPlan> {
  // Another user's trial file names nothing this user may remove (NotYourTrial: only the file may go).
  await assertTrialOfUser(client, record, signal);
  const plan: RemovalPlan = { remove: [], leftAlone: [], settled: [] };
  const trial = { trialId: record.trialId, user: record.user };
  const order = [...record.entities.filter((e) => e.kind === 'agent'), ...record.entities.filter((e) => e.kind === 'policy')];
  for (const entity of order) {
    if (entity.removed) continue;
    const ids = entity.id ? [entity.id] : await candidatesByName(client, entity, signal);
    let settled = true;
    for (const id of ids) settled = addTo(plan, await checkCandidate(client, entity.kind, id, trial, { madeHere, record, expectedName: entity.name }, signal)) && settled;
    if (settled) plan.settled.push(entity);
  }
  return plan;
}

/** Plans the removal of leftovers found by their marker: each is read again before it may go. */
export async function planLeftoverRemoval(client: ServiceClient, leftovers: readonly (TrialIdentity & { kind: TrialEntity['kind']; id: string })[], signal?: AbortSignal): Promise<RemovalPlan> {
  const plan: RemovalPlan = { remove: [], leftAlone: [], settled: [] };
  const ordered = [...leftovers.filter((l) => l.kind === 'agent'), ...leftovers.filter((l) => l.kind === 'policy')];
  for (const leftover of ordered) addTo(plan, await checkCandidate(client, leftover.kind, leftover.id, leftover, {}, signal));
  return plan;
}

/** What deleting verified copies did: how many went, and those the service refused to delete (a policy an agent still applies). */
export interface Removed {
  removed: number;
  refused: LeftAlone[];
}

/**
 * The ground of deleting a verified copy: the service's marker (read again by the write gate right before
 * the delete), this process having made it, or — for an unmarked copy the rule found — the user's
 * confirmation of the list that named it (`confirmed`); none: it is left alone.
 */
function removalGround(copy: VerifiedCopy, confirmed?: (copy: VerifiedCopy) => WriteGround | undefined): WriteGround | undefined {
  if (copy.ground === 'marked' && copy.trial) return trialCopy(copy.trial);
  if (copy.ground === 'madeHere') return MADE_HERE;
  return confirmed?.(copy);
}

/**
 * Deletes the verified copies of a plan, agents first; a copy already gone counts as removed. A policy
 * the service keeps because an agent still applies it (409: an agent left alone uses it) is answered as
 * refused, not thrown: the rest still goes. Each delete states its ground (see {@link removalGround});
 * one the write gate refuses is left alone with the gate's reason.
 */
export async function removeVerified(client: ServiceClient, copies: readonly VerifiedCopy[], signal?: AbortSignal, confirmed?: (copy: VerifiedCopy) => WriteGround | undefined): Promise<Removed> {
  const ordered = [...copies.filter((c) => c.kind === 'agent'), ...copies.filter((c) => c.kind === 'policy')];
  const done: Removed = { removed: 0, refused: [] };
  for (const copy of ordered) {
    const ground = removalGround(copy, confirmed);
    if (!ground && client.gate) {
      done.refused.push({ kind: copy.kind, id: copy.id, name: copy.name, why: 'not marked as a trial copy, and no one confirmed its removal: left alone' });
      continue;
    }
    try {
      if (copy.kind === 'agent') await client.agents.delete(copy.id, { signal, ground });
      else await client.policies.delete(copy.id, { signal, ground });
    } catch (error) {
      if (isWriteRefused(error)) {
        done.refused.push({ kind: copy.kind, id: copy.id, name: copy.name, why: `${error.message}: left alone` });
        continue;
      }
      if (copy.kind === 'policy' && isServiceError(error) && error.status === 409) {
        done.refused.push({ kind: copy.kind, id: copy.id, name: copy.name, why: 'still used by an agent that is not removed: left alone' });
        continue;
      }
      if (!gone(error)) throw error;
    }
    done.removed++;
  }
  return done;
}

/** One line of a confirmation: what a copy is, its id, when it was made and its jobs. */
export function describeCopy(copy: VerifiedCopy): string {
  const when = copy.createdAt ? `, created ${copy.createdAt.slice(0, 16).replace('T', ' ')} UTC` : '';
  const jobs = copy.kind === 'agent' ? (copy.jobs === undefined ? ', jobs not counted' : `, ${copy.jobs} job${copy.jobs === 1 ? '' : 's'}`) : '';
  return `${copy.kind === 'agent' ? 'Agent' : 'Policy'} “${copy.name}” (${copy.id}${when}${jobs})`;
}

/** One line naming something left alone and why. */
export function describeLeftAlone(item: LeftAlone): string {
  return `${item.kind === 'agent' ? 'Agent' : 'Policy'} “${item.name}”${item.id ? ` (${item.id})` : ''}: ${item.why}`;
}
