/**
 * What a trial will run, learnt before anything is made or started, with the refusals every surface
 * shares (the command line's `try`, the try tools): a policy file whose version is no longer the
 * policy's current one (a publish would be refused after the paid run), a draft that runs like the
 * agent's current version (nothing to learn), and cases the version cannot take (left out with their
 * reason, since the service refuses a whole batch for one of them).
 */
import type { AgentVersion, BaseAgent, ServiceClient } from '../client';
import { caseInputProblem } from '../comparison/comparisonInputs';
import { estimatePlan, type CostEstimate } from '../comparison/costEstimate';
import { parseTestSet, type TestCase } from '../comparison/testSet';
import { testSetAgentId } from '../comparison/testSetCheck';
import { draftFromVersion, sameRun, type AgentVersionDraft } from '../documents/agentVersionDraft';
import type { PolicyFile } from './policyFile';
import { trialPlan } from './trialComparison';
import { agentsApplying } from './trialSetup';

/** A trial refused before anything was made or started, in one sentence. */
export class TrialRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrialRefused';
  }
}

/** A test set as read from its file. */
export interface TrialTestSet {
  /** The file's name (its format comes from it). */
  name: string;
  text: string;
  /** How the comparison names the test set (its path relative to the output folder). */
  label?: string;
}

/** What a trial of an edit will run before anything exists: the agents that apply the policy, the cases, the estimate. */
export interface TrialPlanned {
  agents: { agent: BaseAgent; version: AgentVersion }[];
  cases: TestCase[];
  /** The cases left out, each a line naming the file, the line, the case and why. */
  problems: string[];
  jobs: number;
  estimate: CostEstimate;
}

/** What a trial of an agent version draft will run before anything exists: the agent, its cases, the estimate. */
export interface DraftTrialPlanned extends Omit<TrialPlanned, 'agents'> {
  agent: BaseAgent;
  agents: { agent: BaseAgent }[];
}

/**
 * The agents applying the policy (only the one the test set names, if it names one), the cases their
 * versions take, and the estimate of the jobs. Refused when the file's version is no longer current.
 */
export async function planPolicyTrial(client: ServiceClient, policy: Pick<PolicyFile, 'policyId' | 'name' | 'baseVersionId'>, testSet: TrialTestSet, signal?: AbortSignal): Promise<TrialPlanned> {
  await refuseStaleBase(client, policy, signal);
  const parsed = parsedCases(testSet);
  const onlyAgent = testSetAgentId(testSet.text);
  const agents = (await agentsApplying(client, policy.policyId, signal)).filter((a) => !onlyAgent || a.agent.id === onlyAgent);
  if (agents.length === 0) throw new Error(`No agent${onlyAgent ? ` named by ${testSet.name}` : ''} applies ${policy.name} (engine_config.policy_id of its current version).`);
  // The copies run a copy of each version (trialSetup's versionCopy) and the baseline the version itself: the same inputs.
  const runnable = casesTaken(testSet, parsed.cases, agents.map(({ agent, version }) => ({ who: agent.name, keys: keysOf(version) })));
  const plan = trialPlan(runnable.cases);
  const estimates = await Promise.all(agents.map(({ agent }) => estimatePlan(client, { agentId: agent.id, jobs: plan.jobs, beforeJobIds: plan.beforeJobIds }, signal)));
  const estimate = sumEstimates(estimates);
  return { agents, cases: runnable.cases, problems: [...parsed.problems, ...runnable.problems], jobs: estimate.jobs, estimate };
}

/**
 * The agent of a draft, the cases of its test set (which must not name another agent) that the draft
 * and the baseline take, and the estimate of the jobs. Refused when the draft runs like the agent's
 * current version.
 */
export async function planDraftTrial(client: ServiceClient, agentId: string, draft: AgentVersionDraft, testSet: TrialTestSet, signal?: AbortSignal): Promise<DraftTrialPlanned> {
  const parsed = parsedCases(testSet);
  const named = testSetAgentId(testSet.text);
  if (named && named !== agentId) throw new Error(`${testSet.name} is a test set of another agent (${named}), not of ${agentId}.`);
  const agent = await client.agents.get(agentId, { signal });
  const current = agent.current_version_id ? await client.agents.getVersion(agent.id, agent.current_version_id, {}, { signal }) : undefined;
  if (current && sameRun(draft, draftFromVersion(current))) {
    throw new TrialRefused(`The draft runs like the current version of ${agent.name} ("${current.version_name}", ${current.id}): the same engine_config and input_definitions. Change it first.`);
  }
  // The copy runs the draft; the baseline runs the current version unless every case has its results before.
  const versions = [{ who: 'the draft', keys: keysOf(draft) }];
  if (current && trialPlan(parsed.cases).baseline === 'now') versions.push({ who: `the current version of ${agent.name}`, keys: keysOf(current) });
  const runnable = casesTaken(testSet, parsed.cases, versions);
  const plan = trialPlan(runnable.cases);
  const estimate = await estimatePlan(client, { agentId: agent.id, jobs: plan.jobs, beforeJobIds: plan.beforeJobIds }, signal);
  return { agent, agents: [{ agent }], cases: runnable.cases, problems: [...parsed.problems, ...runnable.problems], jobs: estimate.jobs, estimate };
}

/** The estimates of several agents' jobs as one. */
export function sumEstimates(estimates: readonly CostEstimate[]): CostEstimate {
  const jobs = estimates.reduce((n, e) => n + e.jobs, 0);
  if (estimates.some((e) => e.cost === undefined || e.tokens === undefined)) return { jobs };
  const ranged = estimates.every((e) => e.costRange);
  const costRange: [number, number] | undefined = ranged ? [estimates.reduce((n, e) => n + e.costRange![0], 0), estimates.reduce((n, e) => n + e.costRange![1], 0)] : undefined;
  return { jobs, tokens: estimates.reduce((n, e) => n + e.tokens!, 0), cost: estimates.reduce((n, e) => n + e.cost!, 0), ...(costRange ? { costRange } : {}), basis: estimates[0]?.basis };
}

/** The cases of a test set, and the lines left out; refused when none is left. */
function parsedCases(testSet: TrialTestSet): { cases: TestCase[]; problems: string[] } {
  const { cases, problems } = parseTestSet(testSet.name, testSet.text);
  if (cases.length === 0) throw new Error(`${testSet.name} has no case to run.`);
  return { cases, problems: problems.map((p) => `${testSet.name}:${p.line}: ${p.message} (left out)`) };
}

/** The cases every one of these versions takes, and a line for each case left out; refused when none is left. */
function casesTaken(testSet: TrialTestSet, cases: readonly TestCase[], versions: readonly { who: string; keys: string[] }[]): { cases: TestCase[]; problems: string[] } {
  const taken: TestCase[] = [];
  const reasons: string[] = [];
  for (const c of cases) {
    const why = versions.map(({ who, keys }) => {
      const problem = caseInputProblem(c.inputs, keys);
      return problem && `${who} ${problem}`;
    }).find((reason) => reason !== undefined);
    if (why) reasons.push(`${testSet.name}:${c.line}${c.name === undefined ? '' : ` “${c.name}”`}: ${why}`);
    else taken.push(c);
  }
  if (taken.length === 0) {
    const more = reasons.length > 3 ? `; and ${reasons.length - 3} more` : '';
    throw new TrialRefused(`No case of ${testSet.name} can run: ${reasons.slice(0, 3).join('; ')}${more}.`);
  }
  return { cases: taken, problems: reasons.map((reason) => `${reason} (left out)`) };
}

/** The input keys a version (or a draft) takes. */
function keysOf(version: { input_definitions: readonly { key: string }[] }): string[] {
  return version.input_definitions.map((d) => d.key);
}

/** Refuses a policy file exported from a version that is no longer the policy's current one, naming the current one and how to refresh the file. */
async function refuseStaleBase(client: ServiceClient, policy: Pick<PolicyFile, 'policyId' | 'name' | 'baseVersionId'>, signal?: AbortSignal): Promise<void> {
  const real = await client.policies.get(policy.policyId, { signal });
  const current = real.current_version_id;
  if (current === policy.baseVersionId) return;
  const currentName = current ? (await client.policies.getVersion(real.id, current, { signal })).version_name : undefined;
  const from = policy.baseVersionId ? `version ${policy.baseVersionId}` : 'a time it had no version';
  const now = current ? `its current version is now "${currentName ?? 'unnamed'}" (${current})` : 'it has no version now';
  throw new TrialRefused(
    `The policy file of ${real.name} was exported from ${from}, and ${now}: a trial of it could never be published. ` +
      `Refresh the file (agent-workbench export-policy ${real.id} --force, or Export Policy to Workspace) and make the edit again on it.`,
  );
}
