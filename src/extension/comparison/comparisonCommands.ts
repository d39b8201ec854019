import * as vscode from 'vscode';
import type { AgentJob, BaseAgent } from '../../core/client';
import type { ComparisonRecord, ComparisonTarget, Grounds } from '../core';
import { AgentNode, VersionNode } from '../agents/agentNodes';
import { pickAgent } from '../agents/agentPickers';
import type { AgentsView } from '../agents/agentsView';
import { JobNode, JobsNode } from '../agents/jobNodes';
import { registerCommand } from '../commands/commandRunner';
import { jobLabelField } from '../configuration';
import { ComparisonCommands, TrialCommands } from '../constants';
import { parsePolicyEditUri } from '../documents/documentUris';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import { PolicyNode } from '../policies/policyNodes';
import { CancelledError } from '../util/errors';
import type { ComparisonEditors } from './comparisonEditors';
import { freeFileUri, pickTestSet, readTestSet, slug } from './testSetFiles';

/** Targets as commands and tests name them: the results before, the current version now, or a version. */
export type TargetSpec = 'before' | 'now' | { versionId: string; label?: string };

/** What a test or another command may pass instead of answering pickers. */
export interface RunComparisonArgs {
  testSet?: vscode.Uri;
  agentId?: string;
  targets?: TargetSpec[];
  title?: string;
  /** Whether the start is confirmed already (default: when the targets are given). */
  confirmed?: boolean;
}

const BEFORE: ComparisonTarget = { id: 'before', label: 'Results before', kind: 'baseline' };
const NOW: ComparisonTarget = { id: 'now', label: 'Current version now', kind: 'current' };

/** Run Comparison…, Test This Change…, Create Test Set from Jobs…, Open Comparison, This Is Right, Set Expected…. */
export function registerComparisonCommands(view: AgentsView, editors: ComparisonEditors, log: Log): vscode.Disposable[] {
  return [
    registerCommand(log, ComparisonCommands.runComparison, (arg?: unknown, args?: RunComparisonArgs) => runComparison(view, editors, arg, args ?? {})),
    registerCommand(log, ComparisonCommands.testThisChange, (arg?: unknown, args?: { testSet?: vscode.Uri }) => testThisChange(view, editors, arg, args ?? {})),
    // `choice`: the label of the pick (tests and scripts answer it as an argument).
    registerCommand(log, ComparisonCommands.testSetFromJobs, (node?: unknown, nodes?: unknown[], choice?: string) => testSetFromJobs(view, node, nodes, choice)),
    registerCommand(log, ComparisonCommands.testSetFromCsv, (uri?: vscode.Uri) => testSetFromCsv(view, uri)),
    registerCommand(log, ComparisonCommands.thisIsRight, (arg?: unknown) => editors.label(arg, 'right')),
    registerCommand(log, ComparisonCommands.setExpected, (arg?: unknown) => editors.label(arg, 'set')),
    registerCommand(log, ComparisonCommands.labelCases, (arg?: unknown) => editors.labelCases(arg)),
    registerCommand(log, ComparisonCommands.openComparison, async (uri?: vscode.Uri) => {
      const target = uri ?? (await pickFile('**/*.comparison.json', 'Open Comparison: choose a comparison file'));
      return editors.open(target);
    }),
  ];
}

async function runComparison(view: AgentsView, editors: ComparisonEditors, arg: unknown, args: RunComparisonArgs): Promise<vscode.Uri> {
  const client = view.client();
  // From the palette, the test set open in the editor is the one meant (pickTestSet takes it).
  const testSetUri = args.testSet ?? (arg instanceof vscode.Uri ? arg : await pickTestSet('Run Comparison: choose the test set'));
  const testSet = await readTestSet(testSetUri, !!args.targets);
  const agentId = args.agentId ?? (arg instanceof AgentNode || arg instanceof VersionNode ? arg.agent.id : testSet.agentId);
  const agent: BaseAgent = agentId ? await client.agents.get(agentId) : await pickAgent(view, `Run Comparison of ${testSet.name}: choose the agent`);
  const hasBefore = testSet.cases.some((c) => c.sourceJobId);
  const targets = args.targets ? await resolveTargets(view, agent.id, args.targets) : await pickTargets(view, agent, hasBefore, arg instanceof VersionNode ? arg.version.id : undefined);
  return createAndOpen(editors, testSetUri, testSet.cases, agent, targets, args.title ?? `${testSet.name} on ${agent.name}`, args.confirmed ?? !!args.targets);
}

async function createAndOpen(editors: ComparisonEditors, testSetUri: vscode.Uri, cases: Parameters<ReturnType<typeof loadCore>['newComparison']>[0]['cases'], agent: BaseAgent, targets: ComparisonTarget[], title: string, confirmed: boolean): Promise<vscode.Uri> {
  const core = loadCore();
  const folder = vscode.Uri.joinPath(testSetUri, '..');
  const base = testSetUri.path.split('/').pop()!.replace(/\.(testset\.)?(jsonl|csv)$/i, '');
  const uri = await freeFileUri(folder, base, '.comparison.json');
  const record = core.newComparison({ title, agentId: agent.id, agentName: agent.name, testSet: testSetUri.path.split('/').pop()!, cases, targets });
  return startComparisonFile(editors, uri, record, confirmed);
}

/**
 * Asks first (unless the caller already did: `grounds` are then what its confirmation granted), then
 * writes the new comparison file, opens it in the comparison view and starts it. A "no" leaves no file:
 * nothing started, so there is nothing to record.
 */
export async function startComparisonFile(editors: ComparisonEditors, uri: vscode.Uri, record: ComparisonRecord, confirmed: boolean, grounds?: Grounds): Promise<vscode.Uri> {
  const granted = confirmed ? grounds : await editors.confirmNew(record);
  if (!confirmed && !granted) throw new CancelledError();
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(loadCore().serializeComparison(record)));
  // Opening only shows: the command the user ran is what starts it.
  await editors.open(uri);
  void editors.resume(uri, { confirmed: true, grounds: granted }).catch((error: unknown) => void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error)));
  return uri;
}

async function resolveTargets(view: AgentsView, agentId: string, specs: TargetSpec[]): Promise<ComparisonTarget[]> {
  const targets: ComparisonTarget[] = [];
  for (const spec of specs) {
    if (spec === 'before') targets.push(BEFORE);
    else if (spec === 'now') targets.push(NOW);
    else {
      const label = spec.label ?? (await view.client().agents.getVersion(agentId, spec.versionId)).version_name ?? spec.versionId;
      targets.push({ id: `v:${spec.versionId}`, label, kind: 'version', agentVersionId: spec.versionId });
    }
  }
  if (targets.length < 2) throw new Error('A comparison needs at least two targets.');
  return targets;
}

async function pickTargets(view: AgentsView, agent: BaseAgent, hasBefore: boolean, preselect?: string): Promise<ComparisonTarget[]> {
  const versions = await view.client().agents.listVersions(agent.id);
  type Item = vscode.QuickPickItem & { target: ComparisonTarget };
  const items: Item[] = [
    ...(hasBefore ? [{ label: 'Results before', description: 'the jobs the cases were made from (nothing is run)', target: BEFORE, picked: true }] : []),
    { label: 'Current version now', description: 'runs every case in batches', target: NOW, picked: true },
    ...versions.map((v): Item => ({
      label: v.version_name ?? v.id,
      description: 'a version (one request per case)',
      target: { id: `v:${v.id}`, label: v.version_name ?? v.id, kind: 'version', agentVersionId: v.id },
      picked: v.id === preselect,
    })),
  ];
  let placeHolder: string | undefined;
  for (;;) {
    const picks = await vscode.window.showQuickPick(items, { canPickMany: true, title: `Run Comparison on ${agent.name}: choose two targets or more`, placeHolder, ignoreFocusOut: true });
    if (!picks) throw new CancelledError();
    if (picks.length >= 2) return picks.map((p) => p.target);
    // Not an error: the pick opens again with what was chosen, saying what it needs.
    for (const item of items) item.picked = picks.includes(item);
    placeHolder = `A comparison needs two targets or more: ${picks.length === 1 ? `add one to “${picks[0]!.label}”` : 'choose two'} (for example the results before and the current version now).`;
  }
}

/** Test This Change…: the policy's test set on every agent whose current version uses the policy, now against before. */
async function testThisChange(view: AgentsView, editors: ComparisonEditors, arg: unknown, args: { testSet?: vscode.Uri }): Promise<vscode.Uri[]> {
  const client = view.client();
  const unsaved = unsavedPolicyEditor(arg);
  // An unsaved edit is not what production runs: it is tried on copies (one story for "what does my edit do").
  if (unsaved) return [await vscode.commands.executeCommand<{ comparison: vscode.Uri }>(TrialCommands.tryThisEdit, unsaved)].flatMap((t) => (t ? [t.comparison] : []));
  const policyId =
    arg instanceof PolicyNode ? arg.policy.id : (arg instanceof vscode.Uri ? parsePolicyEditUri(arg) : undefined)?.policyId ?? parsePolicyEditUri(vscode.window.activeTextEditor?.document.uri ?? vscode.Uri.parse('untitled:'))?.policyId;
  if (!policyId) throw new Error('Open a policy (or choose one in the Policies view) to test a change of it.');
  const agents: BaseAgent[] = [];
  for await (const agent of client.agents.items()) {
    const version = await client.agents.currentVersion(agent.id).catch(() => undefined);
    if ((version?.engine_config as { policy_id?: unknown } | undefined)?.policy_id === policyId) agents.push(agent);
  }
  if (!agents.length) throw new Error('No agent applies this policy (engine_config.policy_id of its current version), so there is nothing to test.');
  // Each agent with a test set named after it is tested; with none, the user picks the agent, then its test set.
  const named = args.testSet ? [] : await agentsWithTestSets(agents);
  const chosen = named.length ? named : [{ agent: await pickAmong(agents), testSet: args.testSet }];
  const uris: vscode.Uri[] = [];
  for (const { agent, testSet: given } of chosen) {
    const testSetUri = given ?? (await pickTestSet(`Test This Change on ${agent.name}: choose the test set`, slug(agent.name)));
    const testSet = await readTestSet(testSetUri, !!args.testSet);
    if (!testSet.cases.some((c) => c.sourceJobId)) {
      throw new Error(`${testSet.name} has no cases made from past jobs, so there are no results before to compare with. Create one with Create Test Set from Jobs…, or use Run Comparison… with two versions.`);
    }
    uris.push(await createAndOpen(editors, testSetUri, testSet.cases, agent, [BEFORE, NOW], `${testSet.name}: policy change on ${agent.name}`, !!args.testSet));
  }
  return uris;
}

/** The policy editor with unsaved edits the command was given (or the active one when given nothing). */
function unsavedPolicyEditor(arg: unknown): vscode.Uri | undefined {
  const uri = arg instanceof vscode.Uri ? arg : arg === undefined ? vscode.window.activeTextEditor?.document.uri : undefined;
  if (!uri || !parsePolicyEditUri(uri)) return undefined;
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.isDirty ? uri : undefined;
}

/** Create Test Set from Jobs…: the selected jobs (or an agent's loaded jobs), their inputs, and the reviewers' corrections as expected. */
async function testSetFromJobs(view: AgentsView, node: unknown, nodes: unknown[] | undefined, choice?: string): Promise<vscode.Uri> {
  const selected = (nodes?.length ? nodes : [node]).filter((n): n is JobNode => n instanceof JobNode);
  let agent: BaseAgent;
  let jobs: AgentJob[];
  if (selected.length) {
    agent = selected[0]!.agent;
    jobs = selected.filter((n) => n.agentId === agent.id).map((n) => n.job);
  } else {
    const jobsNode = node instanceof JobsNode ? node : node instanceof AgentNode ? node.jobs : undefined;
    const loaded = jobsNode?.loadedJobs() ?? [];
    agent = jobsNode?.parent.agent ?? (await pickAgent(view, 'Create Test Set from Jobs: choose the agent'));
    // The jobs as the store knows them now (a row's status may have moved on since its page was read).
    jobs = await chooseJobs(view, agent, loaded.length ? loaded : (await view.client().jobs.list(agent.id, { page_size: 100 })).results, choice);
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) throw new Error('Open a folder first: a test set is a file of the workspace.');
  const core = loadCore();
  const made = await core.testSetFromJobs(view.client(), agent, jobs, jobLabelField());
  const uri = await freeFileUri(folder, slug(agent.name), '.testset.jsonl');
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(made.text));
  await vscode.window.showTextDocument(uri, { preview: false });
  void vscode.window.showInformationMessage(`Test set of ${made.cases} case${made.cases === 1 ? '' : 's'} from jobs of ${agent.name}: ${vscode.workspace.asRelativePath(uri)}.${core.testSetLeftOutNote(made)}`);
  return uri;
}

/**
 * Which of an agent's jobs a test set takes (never all of them without asking): the choices of the core,
 * each saying its cases and what a comparison of them would start and likely cost (from these jobs' own
 * usage, one bulk read).
 */
async function chooseJobs(view: AgentsView, agent: BaseAgent, jobs: AgentJob[], choice: string | undefined): Promise<AgentJob[]> {
  const core = loadCore();
  const choices = core.jobChoices(jobs);
  if (!choices.length) return jobs;
  if (choice !== undefined) {
    const chosen = choices.find((c) => c.label === choice);
    if (!chosen) throw new Error(`No choice “${choice}” for ${agent.name}'s jobs (there are: ${choices.map((c) => c.label).join('; ')}).`);
    return chosen.jobs;
  }
  const all = choices[choices.length - 1]!.jobs;
  const usages = await view.client().jobs.results(all.slice(0, 100).map((j) => j.id)).then((r) => r.map(core.usageOfResult), () => []);
  const items = choices.map((c) => ({ label: c.label, detail: `${c.detail}, ${core.estimateText(core.estimateJobs(c.jobs.length, usages, `${usages.length} of these jobs`)).replace(/^[\d,]+ jobs?, /, '')}`, jobs: c.jobs }));
  const pick = await vscode.window.showQuickPick(items, { title: `Create Test Set from Jobs of ${agent.name}: which jobs?`, matchOnDetail: true });
  if (!pick) throw new CancelledError();
  return pick.jobs;
}

/** Create Test Set from CSV…: a CSV of cases (a header, then a case a row) as `<name>.testset.jsonl` for an agent. */
async function testSetFromCsv(view: AgentsView, given?: vscode.Uri): Promise<vscode.Uri> {
  const uri = given ?? (await pickFile('**/*.csv', 'Create Test Set from CSV: choose the CSV file'));
  const name = uri.path.split('/').pop() ?? 'cases.csv';
  const { cases } = await readTestSet(uri, false);
  const agent = await pickAgent(view, `Create Test Set from ${name}: choose the agent it is for`);
  const core = loadCore();
  const target = await freeFileUri(vscode.Uri.joinPath(uri, '..'), name.replace(/\.(testset\.)?csv$/i, ''), '.testset.jsonl');
  const lines = [core.testSetHeader(agent.id, agent.name), ...cases.map((c) => core.testCaseLine(c))];
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(`${lines.join('\n')}\n`));
  await vscode.window.showTextDocument(target, { preview: false });
  return target;
}

async function agentsWithTestSets(agents: BaseAgent[]): Promise<{ agent: BaseAgent; testSet: vscode.Uri }[]> {
  const files = await vscode.workspace.findFiles('**/*.testset.jsonl', '**/node_modules/**', 500);
  return agents.flatMap((agent) => {
    const own = files.filter((f) => (f.path.split('/').pop() ?? '').startsWith(`${slug(agent.name)}.`) || (f.path.split('/').pop() ?? '').startsWith(`${slug(agent.name)}-`));
    // Several test sets for one agent: the newest name (the highest number) is the one just made.
    const newest = own.sort((a, b) => a.path.localeCompare(b.path, undefined, { numeric: true })).pop();
    return newest ? [{ agent, testSet: newest }] : [];
  });
}

async function pickAmong(agents: BaseAgent[]): Promise<BaseAgent> {
  if (agents.length === 1 && agents[0]) return agents[0];
  const pick = await vscode.window.showQuickPick(agents.map((agent) => ({ label: agent.name, agent })), { title: 'Test This Change: which agent that applies the policy?' });
  if (!pick) throw new CancelledError();
  return pick.agent;
}

async function pickFile(glob: string, title: string): Promise<vscode.Uri> {
  const files = await vscode.workspace.findFiles(glob, '**/node_modules/**', 200);
  const pick = await vscode.window.showQuickPick(files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })), { title });
  if (!pick) throw new CancelledError();
  return pick.uri;
}
