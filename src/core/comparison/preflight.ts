/**
 * What is learnt before the user is asked to start (or resume) a comparison, so the question is true:
 * each target's inputs checked (a target that cannot take them is marked failed), file inputs outside
 * the workspace marked refused, another agent's unfinished jobs marked left alone. Reads only.
 */
import { targetInputProblems, refusedInputs, type RefusedInput } from './comparisonInputs';
import { casesToStart, failTarget, refuseCase, unfinishedJobIds, type ComparisonRecord, type ComparisonTarget } from './comparisonRecord';
import { isRefusal, jobsToCancel, type ComparisonService } from './comparisonRunner';
import { inputKind } from '../runs/runFileSchema';
import { isFileInput } from '../client/resources/runBody';

/** What the checks read of an input definition. */
export interface InputDefinitionLike {
  key: string;
  data_type?: string | null;
}

/** What the checks need of the service and the workspace. */
export interface PreflightDeps {
  /** The input definitions of a target's version (the current one, or the chosen one). */
  inputDefinitions(target: ComparisonTarget, signal: AbortSignal): Promise<readonly InputDefinitionLike[]>;
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
  const fileKeys = await checkTargets(record, deps, signal);
  const refused = [...textForFiles(record, fileKeys), ...(await refusedInputs(record, deps.folders, deps.realpath))];
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

/** Marks the targets that cannot take the cases; answers the input keys that take a file (with their type) on the targets that run. */
async function checkTargets(record: ComparisonRecord, deps: PreflightDeps, signal: AbortSignal): Promise<Map<string, string>> {
  const plan = casesToStart(record);
  const inputs: { targetId: string; keys: string[] }[] = [];
  const fileKeys = new Map<string, string>();
  for (const target of record.targets) {
    if (!plan.has(target.id) || target.kind === 'baseline') continue;
    try {
      const definitions = await deps.inputDefinitions(target, signal);
      inputs.push({ targetId: target.id, keys: definitions.map((d) => d.key) });
      for (const d of definitions) if (inputKind({ data_type: d.data_type ?? undefined }) === 'file') fileKeys.set(d.key, d.data_type ?? '');
    } catch (error) {
      if (!isRefusal(error)) throw error;
      failTarget(record, target.id, `Its version could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const [targetId, reason] of targetInputProblems(record, inputs)) failTarget(record, targetId, reason);
  return fileKeys;
}

/**
 * Cases giving a text where an input takes a file (`"document": "../../etc/passwd"`): the text would be
 * sent as text while the question says no file is sent, so the case is left out before anyone is asked.
 */
function textForFiles(record: ComparisonRecord, fileKeys: ReadonlyMap<string, string>): RefusedInput[] {
  const refused: RefusedInput[] = [];
  if (!fileKeys.size) return refused;
  const indexes = new Set([...casesToStart(record).values()].flat());
  for (const caseIndex of [...indexes].sort((a, b) => a - b)) {
    for (const [key, value] of Object.entries(record.cases[caseIndex]!.inputs)) {
      const type = fileKeys.get(key);
      if (type === undefined || value === undefined || value === null || isFileInput(value)) continue;
      const reason = `The input "${key}" takes a file (${type}), and this case gives it a text: write {"file": "<a path in the workspace>"}. Nothing is sent.`;
      refused.push({ caseIndex, file: `"${key}": ${JSON.stringify(value).slice(0, 60)}`, why: `a text where "${key}" takes a file`, reason });
      break;
    }
  }
  return refused;
}
