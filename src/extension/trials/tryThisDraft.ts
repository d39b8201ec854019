import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { BaseAgent, ServiceClient } from '../../core/client';
import type { AgentVersionDraft } from '../../core/documents/agentVersionDraft';
import { trialUserName } from '../../core/trial/trialMarker';
import { draftIds } from '../agents/versionDrafts';
import { startComparisonFile } from '../comparison/comparisonCommands';
import { confirmStart } from '../comparison/comparisonPrompts';
import { readTestSet } from '../comparison/testSetFiles';
import { loadCore } from '../lazyCore';
import { target as written } from '../util/picked';
import { CancelledError } from '../util/errors';
import { freeTrialFiles, trialFile } from './trialWorkspace';
import { chooseTestSet, setUp, type StartedTrial, type TrialDeps, type TryArgs } from './tryThisEdit';

/** The draft under trial: the real agent, its version the trial compares with (what Publish replaces), the draft. */
export interface DraftSource {
  agent: BaseAgent;
  baseVersionId: string | null;
  draft: AgentVersionDraft;
}

/**
 * Try This Draft…: an agent version draft (the editor's text, saved or not) on a copy of the agent whose
 * version is the draft, run on a test set against the agent's current version (or the results before),
 * in the comparison view. The real agent is only read until Publish makes the draft its new version.
 */
export async function tryThisDraft(deps: TrialDeps, arg: unknown, args: TryArgs): Promise<StartedTrial> {
  const client = deps.connection.requireClient();
  const source = await draftSource(client, arg);
  const { agent } = source;
  const demo = deps.connection.state.kind === 'connected' && deps.connection.state.info.isSandbox;
  const testSetUri = args.testSet ?? (await chooseTestSet([agent], demo, 'Try This Draft'));
  const testSet = await readTestSet(testSetUri, !!args.testSet);
  if (testSet.agentId && testSet.agentId !== agent.id) throw new Error(`${testSet.name} is a test set of another agent (${testSet.agentId}): choose one of “${agent.name}”, or make one from its jobs.`);
  const core = loadCore();
  const plan = core.trialPlan(testSet.cases);
  const estimate = await core.estimatePlan(client, { agentId: agent.id, jobs: plan.jobs, beforeJobIds: plan.beforeJobIds });
  const question = core.draftTrialQuestion({ agentName: agent.name, versionName: source.draft.version_name, testSet: testSet.name, cases: testSet.cases.length, estimate, baseline: plan.baseline });
  if (!args.confirmed && !(await confirmStart({ ...question, estimate }))) throw new CancelledError();
  // The question named the real agent (as the service does), whose current version is the baseline: the yes grants running it.
  const confirmed = core.confirmedGrounds(client.gate, [written.agent(agent.id)], `the confirmation of ${question.button}`);

  const user = trialUserName(await client.users.current().catch(() => undefined));
  const files = await freeTrialFiles(vscode.Uri.joinPath(testSetUri, '..'), core.testSetBase(testSet.name));
  const record = core.newDraftTrial({ trialId: randomUUID(), user, agentId: agent.id, agentName: agent.name, baseVersionId: source.baseVersionId, draft: source.draft });
  const trial = trialFile(files.trial, record);
  await setUp(deps, client, trial, () => core.setUpDraftTrial(client, record, agent, trial.save, deps.madeHere));
  const entity = core.trialAgents(record)[0]!;
  const comparison = core.trialComparison(record, entity, testSet.cases, testSet.name, plan.baseline);
  // The copies run on this window's word that it made them (or the service's marker); the real agent on the yes above.
  await startComparisonFile(deps.comparisons, files.comparison, comparison, true, core.trialGrounds(client, record, confirmed));
  deps.log.info(`Trial of a draft of ${agent.name} started: ${vscode.workspace.asRelativePath(files.trial)}`);
  return { trial: files.trial, comparison: files.comparison };
}

/** The draft of the active (or given) version draft editor, checked, with the agent as it is now. */
async function draftSource(client: ServiceClient, arg: unknown): Promise<DraftSource> {
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  const ids = uri && draftIds(uri);
  if (!uri || !ids) throw new Error('Open a draft of a new agent version to try it: Create Agent Version… on an agent or one of its versions opens one.');
  const core = loadCore();
  const document = await vscode.workspace.openTextDocument(uri);
  const check = core.checkJson(document.getText(), core.AgentVersionDraftSchema);
  if (!check.ok) throw new Error(`This draft has ${check.problems.length} problem${check.problems.length === 1 ? '' : 's'} (underlined in the editor): fix ${check.problems.length === 1 ? 'it' : 'them'} before trying it.`);
  const [agent, base] = await Promise.all([client.agents.get(ids.agentId), client.agents.getVersion(ids.agentId, ids.baseId)]);
  const from = core.draftFromVersion(base);
  if (core.sameRun(check.value, from)) {
    throw new Error(`Nothing to try: this draft runs like the version “${base.version_name || ids.baseId}” it was opened from (same engine settings and inputs). Change it first.`);
  }
  return { agent, baseVersionId: agent.current_version_id ?? null, draft: check.value };
}
