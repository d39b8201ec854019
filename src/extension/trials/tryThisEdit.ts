import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { AgentVersion, BaseAgent, ServiceClient } from '../../core/client';
import { samePolicyContent } from '../../core/documents/sameJson';
import { trialUserName } from '../../core/trial/trialMarker';
import type { AgentsView } from '../agents/agentsView';
import type { VersionDrafts } from '../agents/versionDrafts';
import type { ComparisonEditors } from '../comparison/comparisonEditors';
import { startComparisonFile } from '../comparison/comparisonCommands';
import { offerTestSet, readTestSet } from '../comparison/testSetFiles';
import type { Connection } from '../connection/connection';
import { confirmTrialStart, editReachOf } from '../coverage/trialCoverage';
import { parsePolicyEditUri } from '../documents/documentUris';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import type { PoliciesView } from '../policies/policiesView';
import type { PolicyDocuments } from '../policies/policyDocuments';
import { target as written } from '../util/picked';
import { CancelledError, messageOf } from '../util/errors';
import { freeTrialFiles, trialFile, type TrialFile } from './trialWorkspace';

/** What the trial commands work with. */
export interface TrialDeps {
  connection: Connection;
  agents: AgentsView;
  policies: PoliciesView;
  policyDocuments: PolicyDocuments;
  versionDrafts: VersionDrafts;
  comparisons: ComparisonEditors;
  log: Log;
  /** Ids of the trial agents this window made (never read from a file): see the core's trialRemoval.ts. */
  madeHere: Set<string>;
}

/** The edit under trial: the real policy, the version the edit began from, the edited content. */
export interface EditSource {
  policyId: string;
  policyName: string;
  baseVersionId: string | null;
  content: unknown;
}

/** What a test (or Publish's Try Again) passes instead of the editor and the pickers. */
export interface TryArgs {
  source?: EditSource;
  testSet?: vscode.Uri;
  /** The start was confirmed already: no modal question. */
  confirmed?: boolean;
}

/** Where a trial ended up: its file and its comparison's. */
export interface StartedTrial {
  trial: vscode.Uri;
  comparison: vscode.Uri;
}

const TEST_SET_GLOB = '**/*.{testset.jsonl,testset.csv}';

/**
 * Try This Edit…: the edited content of a policy (an editor's text, saved or not, or a `*.policy.json`
 * file) on copies — a trial policy and a trial copy of the agent — run on a test set against the
 * agent's current version (or the results before), in the comparison view. Production is only read.
 */
export async function tryThisEdit(deps: TrialDeps, arg: unknown, args: TryArgs): Promise<StartedTrial> {
  const client = deps.connection.requireClient();
  const source = args.source ?? (await editSource(client, arg));
  const applying = await loadCore().agentsApplying(client, source.policyId);
  if (!applying.length) throw new Error(`No agent applies “${source.policyName}” (engine_config.policy_id of its current version), so there is nothing to try the edit on.`);
  const testSetUri = args.testSet ?? (await chooseTestSet(applying.map((a) => a.agent), deps.connection.state.kind === 'connected' && deps.connection.state.info.isSandbox));
  const testSet = await readTestSet(testSetUri, !!args.testSet);
  const target = await chooseAgent(applying, testSet.agentId, testSet.name);
  const core = loadCore();
  const plan = core.trialPlan(testSet.cases);
  const estimate = await core.estimatePlan(client, { agentId: target.agent.id, jobs: plan.jobs, beforeJobIds: plan.beforeJobIds });
  // The rules the edit changes and the cases reaching each: said before any job starts.
  const rules = args.confirmed ? undefined : await editReachOf(client, source, testSetUri, deps.log);
  const question = core.trialStartQuestion({ policyName: source.policyName, agentName: target.agent.name, testSet: testSet.name, cases: testSet.cases.length, estimate, baseline: plan.baseline, rules });
  if (!args.confirmed && !(await confirmTrialStart(question, estimate, { source, reach: rules, testSet: testSetUri }))) throw new CancelledError();
  // The question named the real agent (as the service does), whose current version is the baseline: the yes grants running it.
  const confirmed = core.confirmedGrounds(client.gate, [written.agent(target.agent.id)], `the confirmation of ${question.button}`);

  const user = trialUserName(await client.users.current().catch(() => undefined));
  const files = await freeTrialFiles(vscode.Uri.joinPath(testSetUri, '..'), core.testSetBase(testSet.name));
  const record = core.newTrial({ trialId: randomUUID(), user, ...source });
  const trial = trialFile(files.trial, record);
  await setUp(deps, client, trial, () => core.setUpTrial(client, record, [target], trial.save, deps.madeHere));
  const entity = core.trialAgents(trial.record)[0]!;
  const comparison = core.trialComparison(trial.record, entity, testSet.cases, testSet.name, plan.baseline);
  // The copies run on this window's word that it made them (or the service's marker); the real agent on the yes above.
  await startComparisonFile(deps.comparisons, files.comparison, comparison, true, core.trialGrounds(client, record, confirmed));
  deps.log.info(`Trial of ${source.policyName} on ${target.agent.name} started: ${vscode.workspace.asRelativePath(files.trial)}`);
  return { trial: files.trial, comparison: files.comparison };
}

/** Creates the trial's copies with `make` (each written in the trial file first); a failure removes what was made. */
export async function setUp(deps: TrialDeps, client: ServiceClient, trial: TrialFile, make: () => Promise<void>): Promise<void> {
  const core = loadCore();
  try {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Setting up a trial of ${core.trialSubjectText(trial.record)} on copies…` }, make);
  } catch (error) {
    deps.log.error(`The trial ${vscode.workspace.asRelativePath(trial.uri)} could not be set up`, error);
    // What was made goes again at once; should that fail too, the file still names it for Clean Up Trials….
    await core.discardTrial(client, trial.record, trial.save, deps.madeHere).catch((cleanup: unknown) => deps.log.error('Removing the unfinished trial failed', cleanup));
    throw new Error(`The trial could not be set up: ${messageOf(error)}`);
  } finally {
    deps.agents.reload();
    deps.policies.reload();
  }
}

/** The edit of the active (or given) policy editor or policy file, checked. */
async function editSource(client: ServiceClient, arg: unknown): Promise<EditSource> {
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  const ids = uri && parsePolicyEditUri(uri);
  const core = loadCore();
  if (uri && ids) {
    const document = await vscode.workspace.openTextDocument(uri);
    const check = core.checkJson(document.getText(), core.PolicyContentSchema);
    if (!check.ok) throw new Error(`This edit has ${check.problems.length} problem${check.problems.length === 1 ? '' : 's'} (underlined in the editor): fix ${check.problems.length === 1 ? 'it' : 'them'} before trying it.`);
    const policy = await client.policies.get(ids.policyId);
    const base = await client.policies.getVersion(ids.policyId, ids.versionId);
    if (samePolicyContent(check.value, base.content)) throw new Error(`Nothing to try: this text has the same content as the version “${base.version_name || ids.versionId}” it was opened from. Edit the policy first.`);
    return { policyId: ids.policyId, policyName: policy.name, baseVersionId: ids.versionId, content: check.value };
  }
  if (uri && /\.policy\.json$/i.test(uri.path)) {
    const file = core.parsePolicyFile((await vscode.workspace.openTextDocument(uri)).getText());
    const check = core.checkJson(JSON.stringify(file.content), core.PolicyContentSchema);
    if (!check.ok) throw new Error(`The content of ${vscode.workspace.asRelativePath(uri)} is not a valid policy: ${check.problems[0]?.message ?? 'unexpected shape'}.`);
    // The file names its policy; the service says what it is called (the file's name is only a label).
    const policy = await client.policies.get(file.policyId);
    return { policyId: policy.id, policyName: policy.name, baseVersionId: file.baseVersionId, content: check.value };
  }
  throw new Error('Open a policy to try an edit of it: a version you edited (saved or not), or a *.policy.json file (Export Policy to Workspace writes one).');
}

/** The test set: the only one made for one of `agents`, or the one the user picks when there are several (or none is named). */
export async function chooseTestSet(agents: readonly BaseAgent[], demo: boolean, command = 'Try This Edit'): Promise<vscode.Uri> {
  const files = await vscode.workspace.findFiles(TEST_SET_GLOB, '**/node_modules/**', 500);
  if (!files.length) return offerTestSet(command, demo);
  const names = new Map(agents.map((a) => [a.id, a.name]));
  const core = loadCore();
  const items = [];
  for (const uri of files) {
    const agentId = core.testSetAgentId(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    items.push({ label: uri.path.split('/').pop() ?? '', description: agentId ? (names.get(agentId) ?? 'another agent') : 'no agent named', detail: vscode.workspace.asRelativePath(uri), uri, ours: agentId !== undefined && names.has(agentId) });
  }
  const ours = items.filter((i) => i.ours);
  if (ours.length === 1) return ours[0]!.uri;
  const ordered = [...ours, ...items.filter((i) => !i.ours)];
  const whose = command === 'Try This Edit' ? 'the agents that apply this policy' : agents.map((a) => a.name).join(', ');
  const pick = await vscode.window.showQuickPick(ordered, { title: `${command}: which test set?`, placeHolder: ours.length ? `Test sets of ${whose} come first` : `No test set names ${whose}` });
  if (!pick) throw new CancelledError();
  return pick.uri;
}

/** The agent the trial copies: the one the test set names (it must apply the policy), else the only one, else the user's pick. */
async function chooseAgent(applying: readonly { agent: BaseAgent; version: AgentVersion }[], named: string | undefined, testSet: string): Promise<{ agent: BaseAgent; version: AgentVersion }> {
  if (named) {
    const found = applying.find((a) => a.agent.id === named);
    if (!found) throw new Error(`${testSet} is for an agent (${named}) whose current version does not apply this policy: choose a test set of an agent that does.`);
    return found;
  }
  if (applying.length === 1) return applying[0]!;
  const pick = await vscode.window.showQuickPick(applying.map((a) => ({ label: a.agent.name, description: a.agent.id, a })), { title: `Try This Edit: ${testSet} names no agent — which agent's copy runs it?` });
  if (!pick) throw new CancelledError();
  return pick.a;
}
