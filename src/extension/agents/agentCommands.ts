import * as vscode from 'vscode';
import type { BaseAgent } from '../../core/client';
import { registerCommand } from '../commands/commandRunner';
import { AgentCommands, Schemes } from '../constants';
import { agentVersionUri } from '../documents/documentUris';
import type { ServiceDocuments } from '../documents/serviceDocuments';
import type { Log } from '../log';
import type { TreeNode } from '../tree/treeNode';
import { CancelledError } from '../util/errors';
import { PICKED_IN, picked, target } from '../util/picked';
import { loadCore } from '../lazyCore';
import { filterAgents, searchAgents } from './agentFilterPicker';
import { AgentNode, VersionNode, VersionsNode } from './agentNodes';
import { pickAgent, pickVersion } from './agentPickers';
import type { AgentsView } from './agentsView';
import { filterJobs } from './jobFilterPicker';
import { JobNode, JobsNode } from './jobNodes';
import type { VersionDrafts } from './versionDrafts';
import { newAgent, type NewAgentAnswers } from './newAgent';
import { deleteVersion, renameVersion, versionOf } from './versionManagement';
import type { JobLabelling, JobTarget, JobViews } from '../jobs/jobView/jobViews';
import type { JobFilter } from '../../core/filters/jobFilter';
import { agentNameProblem } from '../../core/limits';

/** The commands of the Agents view (title bar, context menus, palette). */
export function registerAgentCommands(view: AgentsView, documents: ServiceDocuments, drafts: VersionDrafts, jobViews: JobViews, log: Log): vscode.Disposable[] {
  const agentOf = async (node: unknown, title: string): Promise<BaseAgent> => (node instanceof AgentNode ? node.agent : pickAgent(view, title));
  return [
    registerCommand(log, AgentCommands.refresh, () => view.reload()),
    registerCommand(log, AgentCommands.refreshNode, (node: TreeNode) => refreshNode(view, node)),
    registerCommand(log, AgentCommands.search, (text?: string) => (typeof text === 'string' ? view.setFilter({ ...view.filter, search: text || undefined }) : searchAgents(view))),
    registerCommand(log, AgentCommands.filter, () => filterAgents(view)),
    registerCommand(log, AgentCommands.clearFilter, () => view.setFilter({})),
    registerCommand(log, AgentCommands.filterJobs, (node: JobsNode, filter?: JobFilter) => (filter ? node.setFilter(filter) : filterJobs(node))),
    registerCommand(log, AgentCommands.clearJobFilter, (node: JobsNode) => node.setFilter({})),
    // Commands take their answers as optional arguments too (keybindings, scripts and tests), and ask for what is missing.
    registerCommand(log, AgentCommands.editSettings, async (node?: AgentNode, changes?: AgentChanges) => editAgentSettings(view, await agentOf(node, 'Edit Agent Settings'), node instanceof AgentNode ? PICKED_IN.agentsView : PICKED_IN.quickPick, changes)),
    registerCommand(log, AgentCommands.duplicate, async (node?: AgentNode, name?: string) => duplicateAgent(view, await agentOf(node, 'Duplicate Agent'), name)),
    registerCommand(log, AgentCommands.openVersion, async (node?: VersionNode) => {
      const agent = node?.agent ?? (await pickAgent(view, 'Open Version: choose the agent'));
      const version = node?.version ?? (await pickVersion(view, agent, `Open Version of ${agent.name}`));
      await openReadonly(agentVersionUri(agent.id, version.id, agent.name, version.version_name), 'json');
    }),
    registerCommand(log, AgentCommands.createVersion, async (node?: VersionNode | VersionsNode | AgentNode) => {
      // On an agent's Versions row the agent is that row's: nothing to ask.
      const agent = node instanceof VersionNode ? node.agent : await agentOf(node instanceof VersionsNode ? node.parent : node, 'Create Version: choose the agent');
      const base = node instanceof VersionNode ? node.version : await startingVersion(view, agent);
      await drafts.open(agent, base);
    }),
    registerCommand(log, AgentCommands.renameVersion, async (node?: VersionNode, name?: string) => {
      const { agent, version, how } = await versionOf(view, node, 'Rename Version');
      await renameVersion(view, agent, version, how, name);
    }),
    registerCommand(log, AgentCommands.deleteVersion, async (node?: VersionNode, confirmed?: boolean) => {
      // The palette never offers the current version: it cannot be deleted.
      const { agent, version, how } = await versionOf(view, node, 'Delete Version', { notCurrent: true });
      await deleteVersion(view, agent, version, how, confirmed === true);
    }),
    registerCommand(log, AgentCommands.compareVersions, async (node?: VersionNode | AgentNode, otherId?: string) => {
      const agent = node instanceof VersionNode ? node.agent : await agentOf(node, 'Compare Versions: choose the agent');
      const left = node instanceof VersionNode ? node.version : await pickVersion(view, agent, 'Compare: the older version');
      const right = (otherId && (await view.client().agents.getVersion(agent.id, otherId))) || (await pickVersion(view, agent, `Compare ${left.version_name} with…`, left.id));
      const uri = (v: typeof left) => agentVersionUri(agent.id, v.id, agent.name, v.version_name);
      await vscode.commands.executeCommand('vscode.diff', uri(left), uri(right), `${agent.name}: ${left.version_name} ↔ ${right.version_name}`);
    }),
    // A job node, `{agentId, jobId}` (notifications, other commands, scripts), or nothing (asks).
    // From a comparison's case, `labelling` lets the view label that case (a caller in this extension host only).
    registerCommand(log, AgentCommands.openJob, async (arg?: JobNode | { agentId: string; jobId: string; labelling?: JobLabelling }) => {
      const target = arg instanceof JobNode ? { agent: arg.agent, jobId: arg.jobId } : arg?.agentId && arg.jobId ? { ...(await jobById(view, arg.agentId, arg.jobId)), labelling: arg.labelling } : await askJob(view);
      // From a row, the focus stays in the tree (as the Explorer opens files), so keyboard selection goes on.
      await jobViews.open(target, undefined, arg instanceof JobNode);
    }),
    registerCommand(log, AgentCommands.newAgent, (answers?: NewAgentAnswers) => newAgent(view, drafts, answers)),
    registerCommand(log, AgentCommands.revealVersion, (ids: { agentId: string; versionId?: string }) => view.revealAgentVersion(ids.agentId, ids.versionId)),
    registerCommand(log, AgentCommands.copyId, async (node: TreeNode) => {
      const id = idOf(node);
      if (!id) return;
      await vscode.env.clipboard.writeText(id);
      vscode.window.setStatusBarMessage(`$(check) Copied ${id}`, 3000);
    }),
    registerCommand(log, AgentCommands.refreshDocument, (uri?: vscode.Uri) => {
      const target = uri ?? vscode.window.activeTextEditor?.document.uri;
      if (target?.scheme === Schemes.view) documents.refresh(target);
    }),
  ];
}

/** The service ID a node stands for (agent, version, job). */
export function idOf(node: TreeNode | undefined): string | undefined {
  if (node instanceof AgentNode) return node.agent.id;
  if (node instanceof VersionNode) return node.version.id;
  if (node instanceof JobNode) return node.job.id;
  const data = (node as { idForCopy?: () => string | undefined } | undefined)?.idForCopy;
  return data?.call(node);
}

function refreshNode(view: AgentsView, node: TreeNode | undefined): void {
  if (node instanceof JobsNode) void node.reload();
  else if (node instanceof VersionsNode) void node.reload();
  else if (node instanceof AgentNode) {
    void node.versions.reload();
    void node.jobs.reload();
    void view.client().agents.get(node.agent.id).then((agent) => view.updateAgent(agent), () => view.refresh(node));
  } else view.reload();
}

async function openReadonly(uri: vscode.Uri, language: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  if (doc.languageId !== language) await vscode.languages.setTextDocumentLanguage(doc, language);
  await vscode.window.showTextDocument(doc, { preview: true });
}

/** The current version when there is one, else the user picks. */
async function startingVersion(view: AgentsView, agent: BaseAgent) {
  if (agent.current_version_id) {
    try {
      return await view.client().agents.currentVersion(agent.id);
    } catch {
      // Fall through to a pick: the current version may be gone.
    }
  }
  return pickVersion(view, agent, `Create Version of ${agent.name}: start from`);
}

/**
 * A job named by ID: the job view takes the record the store holds when a list or a run brought it;
 * otherwise it reads it by ID (status and bulk results), never through the list's `job_id` filter.
 */
async function jobById(view: AgentsView, agentId: string, jobId: string): Promise<JobTarget> {
  const agent = view.agentOf(agentId) ?? (await view.client().agents.get(agentId));
  return { agent, jobId };
}

async function askJob(view: AgentsView): Promise<JobTarget> {
  const agent = await pickAgent(view, 'Open Job: choose the agent');
  const page = await view.client().jobs.list(agent.id, { page_size: 50, ordering: '-created_at' });
  const jobs = page.results;
  const manual = { label: '$(edit) Enter a job ID…', id: '', job: undefined };
  // The store keeps them (and their labels), so the picker names each job as its row does.
  view.putJobs(agent.id, jobs, { count: page.count, unfiltered: true });
  const items = jobs.map((job) => ({ ...view.jobRowText(agent.id, job), id: job.id, job }));
  const pick = await vscode.window.showQuickPick([manual, ...items], { title: `Open Job of ${agent.name}`, matchOnDescription: true });
  if (!pick) throw new CancelledError();
  if (pick.job) return { agent, jobId: pick.id, job: pick.job };
  const id = await vscode.window.showInputBox({ title: 'Job ID', validateInput: (v) => (/^[0-9a-f-]{36}$/i.test(v.trim()) ? undefined : 'A job ID is a UUID') });
  if (!id) throw new CancelledError();
  return jobById(view, agent.id, id.trim());
}

/** Rename (1–200 characters, checked while typing) and the two cache switches; the tree shows the result at once. */
type AgentChanges = { name?: string; disable_cache?: boolean; cache_failed_jobs?: boolean };

/** `how`: where the user picked the agent (its row, or the quick pick). */
async function editAgentSettings(view: AgentsView, agent: BaseAgent, how: string, changes?: AgentChanges): Promise<void> {
  const body = changes ?? (await askAgentChanges(agent));
  const problem = body.name === undefined ? undefined : agentNameProblem(body.name);
  if (problem) throw new Error(`Not saved: ${problem}.`);
  if (!Object.keys(body).length) return;
  const client = view.client();
  const updated = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Saving ${agent.name}…` }, () => client.agents.update(agent.id, body, { ground: picked(client, target.agent(agent.id), how) }));
  view.updateAgent(updated);
  vscode.window.setStatusBarMessage(`$(check) Saved ${updated.name}`, 4000);
}

/** Asks the name, then the two cache switches; returns only what changed. */
async function askAgentChanges(agent: BaseAgent): Promise<AgentChanges> {
  const name = await vscode.window.showInputBox({
    title: `Edit Agent Settings (1/2): name of ${agent.name}`,
    value: agent.name,
    validateInput: agentNameProblem,
  });
  if (name === undefined) throw new CancelledError();
  const toggles = [
    { label: 'Disable cache', description: 'do not answer jobs of this agent from the job cache', key: 'disable_cache' as const, picked: agent.disable_cache },
    { label: 'Cache failed jobs', description: 'keep failed jobs in the cache too', key: 'cache_failed_jobs' as const, picked: agent.cache_failed_jobs },
  ];
  const picked = await vscode.window.showQuickPick(toggles, { title: 'Edit Agent Settings (2/2): cache', canPickMany: true, placeHolder: 'Checked = on' });
  if (!picked) throw new CancelledError();
  const body: AgentChanges = {};
  if (name.trim() !== agent.name) body.name = name.trim();
  for (const t of toggles) {
    const on = picked.includes(t);
    if (on !== agent[t.key]) body[t.key] = on;
  }
  return body;
}

/** Asks the new name, duplicates, and reveals the new agent at the top of the list. */
async function duplicateAgent(view: AgentsView, agent: BaseAgent, givenName?: string): Promise<void> {
  const name = givenName ?? (await vscode.window.showInputBox({
    title: `Duplicate ${agent.name}`,
    prompt: 'Name of the new agent (a copy of the current version)',
    value: `${agent.name} (copy)`.slice(0, 200),
    validateInput: agentNameProblem,
  }));
  if (name === undefined) throw new CancelledError();
  const problem = agentNameProblem(name);
  if (problem) throw new Error(`Not duplicated: ${problem}.`);
  const { duplicateAgentAs, DuplicateRenameError } = loadCore();
  let version;
  try {
    version = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Duplicating ${agent.name}…` }, () => duplicateAgentAs(view.client(), agent.id, { name: name.trim() }));
  } catch (error) {
    if (!(error instanceof DuplicateRenameError)) throw error;
    // The copy exists under the service's name: show it, and say that the name did not take.
    await view.addAndReveal(error.copy.base_agent);
    void vscode.window.showWarningMessage(`${error.message}. Rename it with Edit Agent Settings….`);
    return;
  }
  await view.addAndReveal(version.base_agent);
  void vscode.window.showInformationMessage(`Created ${version.base_agent.name} from ${agent.name}.`);
}
