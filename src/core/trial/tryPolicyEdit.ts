/**
 * A trial of a policy edit (or of an agent version draft) on a test set, start to end, with no editor:
 * the one function behind the command line's `try` and the `try_policy_edit` tool (`tryAgentDraft`:
 * the `try_agent_draft` tool). The trial runs on copies, its comparison is
 * driven to the end, and the copies are always removed (a cancelled run first cancels the jobs it
 * started); nothing is published.
 */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import type { BaseAgent, ServiceClient } from '../client';
import { comparisonMarkdown, type MarkdownGate } from '../comparison/comparisonExport';
import { serializeComparison, unfinishedJobIds, type ComparisonRecord } from '../comparison/comparisonRecord';
import { cancelJobs } from '../comparison/comparisonRunner';
import { confinedWriteTarget, writeConfined } from '../confinedWrite';
import { readCostEstimate, type CostEstimate } from '../comparison/costEstimate';
import type { TestCase } from '../comparison/testSet';
import type { PolicyFile } from './policyFile';
import { clientComparisonService, disagreements, runToEnd, TRIAL_TARGET_ID, trialComparison, trialGrounds } from './trialComparison';
import { judgeTrial, thresholdsText, type GateThresholds } from './trialGate';
import type { Grounds } from '../writeGate/grounds';
import { signedInTrialUser } from './trialOwnership';
import { discardTrial, type RemovalOutcome } from './trialEnd';
import { checkTrialFileReplaceable } from './trialFileGuard';
import type { LeftAlone } from './trialRemoval';
import { testSetBase } from './trialFiles';
import { isDraftTrial, newDraftTrial, newTrial, serializeTrial, type TrialRecord } from './trialRecord';
import { ruleCoverage, type RuleCoverage } from '../coverage/ruleCoverage';
import { setUpDraftTrial, setUpTrial } from './trialSetup';
import { planDraftTrial, planPolicyTrial, type DraftTrialPlanned, type TrialPlanned, type TrialTestSet } from './trialPlanning';
import type { AgentVersionDraft } from '../documents/agentVersionDraft';

export { planDraftTrial, planPolicyTrial, sumEstimates, TrialRefused, type DraftTrialPlanned, type TrialPlanned, type TrialTestSet } from './trialPlanning';

/** How one agent's copy answered. */
export interface TriedAgent {
  agentId: string;
  agentName: string;
  record: ComparisonRecord;
  /** Case indexes with an expected outcome the trial now gives otherwise. */
  disagreeing: number[];
  /** The comparison file written, when an output folder was given. */
  file?: string;
  /** A policy edit's trial: which rules of the edited policy the trial's outputs say the test set reaches. */
  coverage?: RuleCoverage;
}

export interface TryPolicyEditOptions {
  policy: Pick<PolicyFile, 'policyId' | 'name' | 'baseVersionId' | 'content'>;
  testSet: TrialTestSet;
  /** Where the trial and comparison files go; none: kept in memory only. */
  outDir?: string;
  /** The folder every file written must stay in (`confinedWrite.ts`): the workspace, the tool's root, the command line's; default `outDir` itself. */
  root?: string;
  signal?: AbortSignal;
  pollMs?: number;
  /** Said once per agent before its jobs start (the estimate of what is left to run). */
  onEstimate?(agentName: string, estimate: CostEstimate): void;
  /** Jobs started so far of all agents, out of how many. */
  onProgress?(done: number, total: number, message: string): void;
  /** The jobs a copy started (a host shows them). */
  onJobsStarted?(agentId: string, jobIds: string[]): void;
  /**
   * The grounds of running the real agents the plan named (their current version is the baseline when
   * the cases carry no results before): the user's confirmation of the plan. The copies need none.
   */
  grounds?: Grounds;
  /** What the clean-up removed and left alone, once it is done (also when a cancelled run then throws). */
  onRemoved?(outcome: RemovalOutcome): void;
  /** CI's thresholds: their verdict goes into each Markdown summary. */
  gate?: GateThresholds;
}

export interface TryPolicyEditResult {
  trial: TrialRecord;
  agents: TriedAgent[];
  /** Cases of all agents with an expected outcome that now disagree. */
  failing: number;
  /** The trial file (kept after the copies were removed, so Publish can use it), when an output folder was given. */
  trialFile?: string;
  /** What the clean-up did not remove because the service does not mark it as this trial's copy. */
  leftAlone: LeftAlone[];
  /** The test set's cases left out before anything ran (a line each: file, line, case, why). */
  leftOut: string[];
}

/** Sets the trial up on copies, runs each copy's comparison to its end, and removes the copies whatever happens. */
export async function tryPolicyEdit(client: ServiceClient, o: TryPolicyEditOptions, planned?: TrialPlanned): Promise<TryPolicyEditResult> {
  const plan = planned ?? (await planPolicyTrial(client, o.policy, o.testSet, o.signal));
  const trial = newTrial({ trialId: randomUUID(), user: await signedInTrialUser(client, o.signal), policyId: o.policy.policyId, policyName: o.policy.name, baseVersionId: o.policy.baseVersionId, content: o.policy.content });
  return runOnCopies(client, trial, plan, o, (save, madeHere) => setUpTrial(client, trial, plan.agents, save, madeHere, o.signal));
}

export interface TryAgentDraftOptions extends Omit<TryPolicyEditOptions, 'policy'> {
  agentId: string;
  /** The draft of the agent's next version, checked. */
  draft: AgentVersionDraft;
}

/**
 * A draft of an agent's next version tried on a copy of the agent whose version is the draft, the
 * comparison driven to its end, the copy removed whatever happens; nothing is published. The one
 * function behind the `try_agent_draft` tool.
 */
export async function tryAgentDraft(client: ServiceClient, o: TryAgentDraftOptions, planned?: DraftTrialPlanned): Promise<TryPolicyEditResult> {
  const plan = planned ?? (await planDraftTrial(client, o.agentId, o.draft, o.testSet, o.signal));
  const trial = newDraftTrial({ trialId: randomUUID(), user: await signedInTrialUser(client, o.signal), agentId: plan.agent.id, agentName: plan.agent.name, baseVersionId: plan.agent.current_version_id ?? null, draft: o.draft });
  return runOnCopies(client, trial, plan, o, (save, madeHere) => setUpDraftTrial(client, trial, plan.agent, save, madeHere, o.signal));
}

/** The part of a trial every kind shares: set up (by `setUp`), each copy's comparison run to its end, then the copies removed whatever happens. */
async function runOnCopies(
  client: ServiceClient,
  trial: TrialRecord,
  plan: { cases: TestCase[]; problems: string[]; jobs: number; agents: readonly { agent: BaseAgent }[] },
  o: Omit<TryPolicyEditOptions, 'policy'>,
  setUp: (save: () => Promise<void>, madeHere: Set<string>) => Promise<void>,
): Promise<TryPolicyEditResult> {
  const files = trialFiles(o, plan.agents);
  // Every file is checked before anything is made on the service, so a refused write costs nothing.
  for (const file of files.all) await confinedWriteTarget(files.root, file);
  // The last run's record names its copies: it is not overwritten while the service still has them.
  if (files.trial) await checkTrialFileReplaceable(client, files.trial, trial.user, o.signal);
  const saveTrial = async (): Promise<void> => {
    if (files.trial) await writeConfined(files.root, files.trial, serializeTrial(trial));
  };
  const agents: TriedAgent[] = [];
  let running: ComparisonRecord | undefined;
  // What this run made itself: the only unmarked copies its clean-up may remove (trialRemoval.ts).
  const madeHere = new Set<string>();
  let leftAlone: LeftAlone[] = [];
  try {
    await setUp(saveTrial, madeHere);
    for (const entity of trial.entities.filter((e) => e.kind === 'agent')) {
      const record = trialComparison(trial, entity, plan.cases, o.testSet.label ?? o.testSet.name);
      running = record;
      const agentName = record.agentName ?? entity.name;
      o.onEstimate?.(agentName, await readCostEstimate(client, record, o.signal));
      const file = files.comparison(entity.sourceAgentId!);
      const save = async (): Promise<void> => {
        o.onProgress?.(finishedJobs(agents, record), plan.jobs, `${agentName}: ${finishedJobs([], record)} of ${record.cases.length * ranTargets(record)} jobs final`);
        if (file) await writeConfined(files.root, file, serializeComparison(record));
      };
      const events = { onStarted: (_count: number, ids: readonly string[], agentId: string) => o.onJobsStarted?.(agentId, [...ids]) };
      await runToEnd(record, client, save, { pollMs: o.pollMs ?? 250, signal: o.signal, events, grounds: trialGrounds(client, trial, o.grounds) });
      // The trial's own outputs against the content it tried (a draft's trial tries no policy content).
      const coverage = isDraftTrial(trial) ? undefined : ruleCoverage(trial.content, record, { targetId: TRIAL_TARGET_ID });
      if (file) await writeConfined(files.root, markdownOf(file), comparisonMarkdown(record, { ruleCoverage: coverage, gate: o.gate && markdownGate(record, o.gate, coverage), leftOut: plan.problems }));
      agents.push({ agentId: entity.sourceAgentId!, agentName, record, disagreeing: disagreements(record), file, coverage });
      running = undefined;
    }
    // Every copy's comparison ran to its end: this content was tried, by this process (what a publish may use).
    client.gate?.recordTried(trial.trialId, trial.content);
  } finally {
    // A cancelled trial stops what it started before its copies go (a fresh signal: the old one is spent).
    const fresh = new AbortController().signal;
    if (running && o.signal?.aborted) await cancelJobs(unfinishedJobIds(running), clientComparisonService(client), fresh).catch(() => 0);
    const outcome = await discardTrial(client, trial, saveTrial, madeHere, fresh);
    leftAlone = outcome.leftAlone;
    o.onRemoved?.(outcome);
  }
  return { trial, agents, failing: agents.reduce((n, a) => n + a.disagreeing.length, 0), trialFile: files.trial, leftAlone, leftOut: plan.problems };
}

/** The files a trial writes under `outDir` (none without one), and the folder they must stay in. */
function trialFiles(o: Pick<TryPolicyEditOptions, 'outDir' | 'root' | 'testSet'>, agents: readonly { agent: BaseAgent }[]): { root: string; trial?: string; comparison(agentId: string): string | undefined; all: string[] } {
  if (!o.outDir) return { root: '', comparison: () => undefined, all: [] };
  const base = path.resolve(o.outDir, testSetBase(o.testSet.name));
  const comparison = (agentId: string): string => `${base}${agents.length > 1 ? `.${agentId}` : ''}.trial.comparison.json`;
  const all = [`${base}.trial.json`, ...agents.flatMap(({ agent }) => [comparison(agent.id), markdownOf(comparison(agent.id))])];
  return { root: o.root ?? o.outDir, trial: all[0], comparison, all };
}

/** The gate's verdict on one copy's comparison, as its summary says it. */
function markdownGate(record: ComparisonRecord, gate: GateThresholds, coverage: RuleCoverage | undefined): MarkdownGate {
  return { thresholds: thresholdsText(gate), failed: judgeTrial(record, TRIAL_TARGET_ID, gate, coverage).failed.map((f) => f.message) };
}

function markdownOf(comparisonFile: string): string {
  return comparisonFile.replace(/\.json$/, '.md');
}

// Jobs run (not the results before, which are only read) whose status is final, over the agents so far.
function finishedJobs(done: readonly TriedAgent[], current: ComparisonRecord): number {
  const count = (r: ComparisonRecord): number => {
    const ran = new Set(r.targets.filter((t) => t.kind !== 'baseline').map((t) => t.id));
    return r.cases.reduce((n, c) => n + Object.entries(c.runs).filter(([id, run]) => ran.has(id) && run.outputs !== undefined).length, 0);
  };
  return done.reduce((n, a) => n + count(a.record), 0) + count(current);
}

function ranTargets(record: ComparisonRecord): number {
  return record.targets.filter((t) => t.kind !== 'baseline').length;
}
