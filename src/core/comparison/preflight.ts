/**
 * What is learnt before the user is asked to start (or resume) a comparison, so the question is true:
 * each target's inputs checked (a target that cannot take them is marked failed), file inputs outside
 * the workspace marked refused, another agent's unfinished jobs marked left alone. Reads only.
 */
import { targetInputProblems, refusedInputs, type RefusedInput } from './comparisonInputs';
import { casesToStart, failTarget, refuseCase, unfinishedJobIds, type ComparisonRecord, type ComparisonTarget } from './comparisonRecord';
import { isRefusal, jobsToCancel, type ComparisonService } from './comparisonRunner';

/** What the checks need of the service and the workspace. */
export interface PreflightDeps {
  /** The input keys of a target's version (the current one, or the chosen one). */
  inputKeys(target: ComparisonTarget, signal: AbortSignal): Promise<string[]>;
  service: Pick<ComparisonService, 'results'>;
  folders: readonly string[];
  realpath: (p: string) => Promise<string>;
}

/** What the checks found (already marked in the record); `undo` takes back the refusals when the user says no. */
export interface Preflight {
  refused: RefusedInput[];
  foreign: string[];
  undo(): void;
}

/** Checks a comparison before asking: targets that cannot take the cases fail alone, refused cases and foreign jobs are named. */
export async function preflight(record: ComparisonRecord, deps: PreflightDeps, signal: AbortSignal): Promise<Preflight> {
  await checkTargets(record, deps, signal);
  const refused = await refusedInputs(record, deps.folders, deps.realpath);
  const marked = new Set<number>();
  for (const r of refused) {
    if (record.cases[r.caseIndex]?.refused === undefined) marked.add(r.caseIndex);
    refuseCase(record, r.caseIndex, r.reason);
  }
  const foreign = unfinishedJobIds(record).length ? (await jobsToCancel(record, deps.service, signal)).foreign : [];
  return {
    refused,
    foreign,
    undo: () => {
      for (const i of marked) delete record.cases[i]!.refused;
    },
  };
}

async function checkTargets(record: ComparisonRecord, deps: PreflightDeps, signal: AbortSignal): Promise<void> {
  const plan = casesToStart(record);
  const inputs: { targetId: string; keys: string[] }[] = [];
  for (const target of record.targets) {
    if (!plan.has(target.id) || target.kind === 'baseline') continue;
    try {
      inputs.push({ targetId: target.id, keys: await deps.inputKeys(target, signal) });
    } catch (error) {
      if (!isRefusal(error)) throw error;
      failTarget(record, target.id, `Its version could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const [targetId, reason] of targetInputProblems(record, inputs)) failTarget(record, targetId, reason);
}
