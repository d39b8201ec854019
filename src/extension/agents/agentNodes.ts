import * as vscode from 'vscode';
import type { AgentJob, AgentVersion, BaseAgent } from '../../core/client';
import type { ListKnowledge } from '../../core/store/serviceStore';
import type { JobRowText } from '../../core/jobView/jobRow';
import { clip, dateTime, relativeTime } from '../../core/format';
import { isTrialEntity } from '../../core/trial/trialMarker';
import type { PagedList } from '../../core/pagedList';
import { PagedNodes } from '../tree/pagedNodes';
import type { ServiceTreeHost, TreeNode } from '../tree/treeNode';
import { AgentCommands } from '../constants';
import { JobsNode } from './jobNodes';

/**
 * What the nodes of the Agents view need from the view: the store of the connection, where every
 * agent and job a node shows is read (a node holds ids, never its own copy of the data).
 */
export interface AgentsTreeContext extends ServiceTreeHost {
  tagNames(tags: BaseAgent['tags']): string[];
  /** A Jobs list was drawn: its running jobs may be kept up to date while it is visible. */
  jobsShown(node: JobsNode): void;
  /** The newest copy of an agent in the store. */
  agentOf(id: string): BaseAgent | undefined;
  /** The newest copy of a job in the store. */
  jobOf(id: string): AgentJob | undefined;
  /** Hands a list page of agents to the store. */
  putAgents(agents: readonly BaseAgent[]): void;
  /** A job row's text, its label kept as first shown (see JobLabels). */
  jobRowText(agentId: string, job: AgentJob): JobRowText;
  /** Hands a list page of an agent's jobs to the store. */
  putJobs(agentId: string, jobs: readonly AgentJob[], list: ListKnowledge): void;
}

/** An agent: name, engine, job count, last job and tags; under it its Versions and Jobs. */
export class AgentNode implements TreeNode {
  readonly kind = 'agent';
  readonly id: string;
  readonly parent = undefined;
  readonly agentId: string;
  readonly versions: VersionsNode;
  readonly jobs: JobsNode;
  /** Marks an agent the user just created here, until the list is reloaded. */
  isNew = false;

  constructor(
    private readonly first: BaseAgent,
    private readonly ctx: AgentsTreeContext,
  ) {
    this.agentId = first.id;
    this.id = `agent/${first.id}`;
    this.versions = new VersionsNode(this, ctx);
    this.jobs = new JobsNode(this, ctx);
  }

  /** The agent as the store knows it now. */
  get agent(): BaseAgent {
    return this.ctx.agentOf(this.agentId) ?? this.first;
  }

  getTreeItem(): vscode.TreeItem {
    const a = this.agent;
    const item = new vscode.TreeItem(clip(a.name), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    const trial = isTrialEntity(a);
    item.iconPath = new vscode.ThemeIcon(this.isNew ? 'sparkle' : trial ? 'beaker' : 'hubot');
    const tags = this.ctx.tagNames(a.tags);
    const parts = [...(trial ? ['trial'] : []), a.engine_name || a.engine_class_id];
    if (typeof a.job_count === 'number') parts.push(`${a.job_count.toLocaleString('en-US')} job${a.job_count === 1 ? '' : 's'}`);
    if (a.most_recent_job) parts.push(`last ${relativeTime(a.most_recent_job)}`);
    if (tags.length) parts.push(tags.map((t) => `#${t}`).join(' '));
    item.description = clip(parts.join(' · '), 300);
    item.tooltip = agentTooltip(a, tags);
    item.contextValue = 'agent';
    return item;
  }

  getChildren(): TreeNode[] {
    return [this.versions, this.jobs];
  }
}

function agentTooltip(a: BaseAgent, tags: string[]): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown('**').appendText(clip(a.name, 2000)).appendMarkdown('**\n\n');
  const row = (label: string, value: string | undefined | null): void => {
    if (value) md.appendMarkdown(`${label}: `).appendText(clip(value, 2000)).appendMarkdown('  \n');
  };
  row('Engine', `${a.engine_name ?? ''} (${a.engine_class_id})`);
  row('Agent ID', a.id);
  row('Current version ID', a.current_version_id ?? 'none');
  row('Jobs', typeof a.job_count === 'number' ? String(a.job_count) : 'not counted (job statistics skipped)');
  row('Most recent job', a.most_recent_job ? `${dateTime(a.most_recent_job)} (${relativeTime(a.most_recent_job)})` : 'none');
  row('Cache', a.disable_cache ? 'disabled' : 'enabled');
  row('Cache failed jobs', a.cache_failed_jobs ? 'yes' : 'no');
  row('Created', dateTime(a.created_at));
  row('Creator', creatorName(a.creator));
  row('Tags', tags.join(', '));
  if (isTrialEntity(a)) md.appendMarkdown('\n\n').appendText('A copy made by Try This Edit or Try This Draft to run a policy edit or an agent version draft before it is published; removed when the trial is published or discarded (or by Clean Up Trials…).');
  return md;
}

/** A creator object as a name, whatever form the service sent. */
export function creatorName(creator: unknown): string | undefined {
  if (!creator || typeof creator !== 'object') return undefined;
  const c = creator as Record<string, unknown>;
  const full = [c.first_name, c.last_name].filter((x) => typeof x === 'string' && x).join(' ');
  const name = (typeof c.display_name === 'string' && c.display_name) || full || (typeof c.email === 'string' ? c.email : '');
  return name || undefined;
}

/** The versions of an agent (the service answers them all at once), newest first, the current one marked. */
export class VersionsNode implements TreeNode {
  readonly kind = 'agentVersions';
  readonly id: string;
  private readonly versions: PagedNodes<AgentVersion, VersionNode>;

  constructor(
    readonly parent: AgentNode,
    ctx: AgentsTreeContext,
  ) {
    this.id = `${parent.id}/versions`;
    this.versions = new PagedNodes({
      parent: this,
      host: ctx,
      fetchPage: async (_page, signal) => {
        const versions = await ctx.client().agents.listVersions(parent.agentId, { signal });
        const sorted = [...versions].sort((x, y) => Date.parse(y.created_at) - Date.parse(x.created_at));
        return { count: sorted.length, results: sorted, nextPage: null };
      },
      createNode: (version) => new VersionNode(this, version),
      updateNode: (node, version) => (node.version = version),
      emptyText: () => 'No versions',
    });
  }

  get list(): PagedList<AgentVersion> {
    return this.versions.list;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem('Versions', vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('versions');
    const state = this.list.state;
    if (state.kind === 'loaded') item.description = String(state.count);
    item.contextValue = 'agentVersions';
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return this.versions.children();
  }

  /** The node of a version (the same object each time, so the view can reveal it). */
  nodeFor(version: AgentVersion): VersionNode {
    return this.versions.nodeFor(version);
  }

  /** Reads the versions again; the rows shown stay until the answer is in, which the promise waits for. */
  reload(): Promise<void> {
    return this.versions.reload();
  }

  /** Reads the versions again and returns the node of one of them once loaded (to reveal it). */
  reloadAndFind(versionId: string | undefined): Promise<VersionNode | undefined> {
    return this.versions.reloadAndFind(versionId);
  }
}

/** One version of an agent; opening it shows its JSON. */
export class VersionNode implements TreeNode {
  readonly kind = 'agentVersion';
  readonly id: string;
  constructor(
    readonly parent: VersionsNode,
    public version: AgentVersion,
  ) {
    this.id = `${parent.id}/${version.id}`;
  }

  get agent(): BaseAgent {
    return this.parent.parent.agent;
  }

  get isCurrent(): boolean {
    return this.agent.current_version_id === this.version.id;
  }

  getTreeItem(): vscode.TreeItem {
    const v = this.version;
    const item = new vscode.TreeItem(clip(v.version_name) || 'unnamed version', vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.isCurrent ? 'star-full' : 'git-commit', this.isCurrent ? new vscode.ThemeColor('charts.yellow') : undefined);
    item.description = [this.isCurrent ? 'current' : '', relativeTime(v.created_at)].filter(Boolean).join(' · ');
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**').appendText(v.version_name).appendMarkdown(`**${this.isCurrent ? ' (current)' : ''}\n\n`);
    if (v.description) md.appendText(clip(v.description, 2000)).appendMarkdown('\n\n');
    md.appendMarkdown('Created: ').appendText(dateTime(v.created_at)).appendMarkdown('  \n');
    const creator = creatorName(v.creator);
    if (creator) md.appendMarkdown('Creator: ').appendText(creator).appendMarkdown('  \n');
    md.appendMarkdown('Version ID: ').appendText(v.id);
    item.tooltip = md;
    item.contextValue = this.isCurrent ? 'agentVersion.current' : 'agentVersion';
    item.command = { command: AgentCommands.openVersion, title: 'Open Version', arguments: [this] };
    return item;
  }
}
