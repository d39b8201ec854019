/**
 * The comparison of a trial: the test set on the real agent's current version (or the results before,
 * at no cost) against the trial agent, driven to its end with the one comparison runner; and what it
 * will cost, estimated before anything runs.
 */
import type { ServiceClient } from '../client';
import { groundsWith, type Grounds } from '../writeGate/grounds';
import { MADE_HERE, trialCopy } from '../writeGate/writeGate';
import { wait } from '../wait';
import { matchesExpected } from '../comparison/compare';
import { isComplete, newComparison, unfinishedJobIds, type ComparisonRecord, type ComparisonTarget } from '../comparison/comparisonRecord';
import { applyStatuses, readResults, startMissing, statusItems, type ComparisonService, type StartEvents } from '../comparison/comparisonRunner';
import type { TestCase } from '../comparison/testSet';
import { isDraftTrial, type TrialEntity, type TrialRecord } from './trialRecord';

/** The id of the trial's target in its comparison. */
export const TRIAL_TARGET_ID = 'trial';

/**
 * The comparison service over the client (the comparison runner's view of the service). Each run and
 * cancel states its ground: the caller's (`grounds`: the agents a user confirmed, a trial's copies), else
 * what this process made.
 */
export function clientComparisonService(client: ServiceClient, grounds: Grounds = {}): Required<ComparisonService> {
  const ground = groundsWith(client, grounds);
  return {
    runMany: (agentId, inputs, signal) => client.agents.runMany(agentId, inputs, { signal, ground: ground.agent(agentId) }),
    runVersion: (agentId, versionId, inputs, signal) => client.agents.runVersion(agentId, versionId, { inputs }, { signal, ground: ground.agent(agentId) }),
    runOne: (agentId, inputs, signal) => client.agents.run(agentId, { inputs }, { signal, ground: ground.agent(agentId) }),
    results: async (jobIds, signal) => (await client.jobs.results(jobIds, { signal })).map((r) => ({ ...r, status: typeof r.status === 'number' ? r.status : null })),
    cancel: (jobId, signal) => client.jobs.cancel(jobId, { signal, ground: ground.job(jobId) }),
    statuses: async (jobIds, signal) => statusItems(await client.jobs.statuses(jobIds, { signal })),
  };
}

/**
 * The grounds of a trial's comparison: its own copies (made here, or marked by the service as this trial's:
 * the gate reads them before each run), then what the caller vouches for (the real agents the user
 * confirmed, whose current version is the baseline).
 */
export function trialGrounds(client: ServiceClient, trial: TrialRecord, caller: Grounds = {}): Grounds {
  const copies = new Set(trial.entities.filter((e) => e.kind === 'agent' && e.id).map((e) => e.id!));
  return {
    agent: (id) => (copies.has(id) ? (client.gate?.madeHere({ kind: 'agent', id }) ? MADE_HERE : trialCopy(trial)) : caller.agent?.(id)),
    job: (id) => caller.job?.(id),
  };
}

/** A comparison of the cases on one trial agent: the baseline first ("before" when every case has it, else the current version now), then the trial. */
export function trialComparison(trial: TrialRecord, entity: TrialEntity, cases: readonly TestCase[], testSet: string, baseline: 'before' | 'now' = trialPlan(cases).baseline): ComparisonRecord {
  if (!entity.id || !entity.sourceAgentId) throw new Error(`The trial agent ${entity.name} was not created.`);
  const first: ComparisonTarget = baseline === 'before' ? { id: 'before', label: 'Results before', kind: 'baseline' } : { id: 'now', label: 'Current version now', kind: 'current' };
  const draft = isDraftTrial(trial);
  const trialTarget: ComparisonTarget = { id: TRIAL_TARGET_ID, label: `Trial of the ${draft ? 'draft' : 'edit'} (${entity.name})`, kind: 'current', agentId: entity.id };
  const agentName = entity.name.split(' · trial ')[0];
  const title = draft ? `${trial.agentName}: trial of a draft version` : `${trial.policyName}: trial of an edit on ${agentName}`;
  return newComparison({ title, agentId: entity.sourceAgentId, agentName, testSet, cases, targets: [first, trialTarget] });
}

/** Runs a comparison until every job is final and read: starts what has no job, then polls statuses in bulk. */
export async function runToEnd(record: ComparisonRecord, client: ServiceClient, save: () => Promise<void>, options: { pollMs?: number; signal?: AbortSignal; events?: StartEvents; grounds?: Grounds } = {}): Promise<void> {
  const signal = options.signal ?? new AbortController().signal;
  const service = clientComparisonService(client, options.grounds);
  await startMissing(record, service, save, signal, options.events);
  while (!isComplete(record)) {
    const ids = unfinishedJobIds(record);
    if (ids.length > 0) {
      const statuses = await client.jobs.statuses(ids, { signal });
      if (applyStatuses(record, statusItems(statuses))) await save();
    }
    if ((await readResults(record, service, signal)) > 0) await save();
    if (isComplete(record)) break;
    if (!(await wait(options.pollMs ?? 500, signal))) signal.throwIfAborted();
  }
  await save();
}

/** The cases with an expected outcome that the trial now gives otherwise (what makes CI fail). */
export function disagreements(record: ComparisonRecord, targetId = TRIAL_TARGET_ID): number[] {
  const key = record.keys[0] ?? 'disposition';
  return record.cases.flatMap((c, i) => (c.expected && matchesExpected(c, c.runs[targetId], key) === false ? [i] : []));
}

/** What a trial of these cases will run, before anything exists: its baseline, the jobs it starts, the results before it reads. */
export function trialPlan(cases: readonly TestCase[]): { baseline: 'before' | 'now'; jobs: number; beforeJobIds: string[] } {
  const before = cases.length > 0 && cases.every((c) => c.sourceJobId);
  return { baseline: before ? 'before' : 'now', jobs: cases.length * (before ? 1 : 2), beforeJobIds: before ? cases.map((c) => c.sourceJobId!) : [] };
}


