import * as vscode from 'vscode';
import type { AgentJob, BaseAgent } from '../../core/client';
import { agentListParams, describeAgentFilter, isAgentFilterActive, type AgentFilter } from '../../core/filters/agentFilter';
import type { Connection } from '../connection/connection';
import { ContextKeys, Settings, StateKeys, Views } from '../constants';
import { loadCore } from '../lazyCore';
import { PagedNodes } from '../tree/pagedNodes';
import { ServiceTreeView } from '../tree/serviceTreeView';
import type { TreeNode } from '../tree/treeNode';
import { AgentNode, type AgentsTreeContext } from './agentNodes';
import type { JobsNode } from './jobNodes';

/**
 * The Agents view: agents page by page (search, filters and ordering from the view's title bar), each
 * with its Versions and Jobs. The active filter shows in the view's description and clears in one click.
 */
export class AgentsView extends ServiceTreeView<AgentFilter> implements AgentsTreeContext {
  private readonly agents: PagedNodes<BaseAgent, AgentNode>;
  private readonly shownJobs = new vscode.EventEmitter<JobsNode>();
  /** Fires when a Jobs list is drawn (the running-jobs refresher listens). */
  readonly onDidShowJobs = this.shownJobs.event;

  constructor(context: vscode.ExtensionContext, connection: Connection) {
    // Several job rows can be chosen at once (Create Test Set from Jobs…).
    super(context, connection, { viewId: Views.agents, viewName: 'Agents view', filterKey: StateKeys.agentFilter, filteredContextKey: ContextKeys.agentsFiltered, canSelectMany: true });
    this.agents = new PagedNodes({
      parent: undefined,
      host: this,
      fetchPage: (page, signal) => this.client().agents.list({ ...agentListParams(this.filter, this.pageSize()), page }, { signal }),
      createNode: (agent) => new AgentNode(agent, this),
      updateNode: (node, agent) => (node.agent = agent),
      emptyText: () => (isAgentFilterActive(this.filter) ? 'No agents match the filter' : 'No agents in this organization yet'),
    });
    this.register(this.shownJobs);
    this.register(vscode.workspace.onDidChangeConfiguration((e) => {
      // Job rows are labelled by this setting: redraw them (nothing is read again).
      if (e.affectsConfiguration(`${Settings.section}.${Settings.jobsLabelField}`)) this.provider.refresh();
    }));
    this.describe();
  }

  get filter(): AgentFilter {
    return this.filterValue ?? {};
  }

  tagNames(tags: BaseAgent['tags']): string[] {
    return loadCore().tagNames(tags);
  }

  jobsShown(node: JobsNode): void {
    this.shownJobs.fire(node);
  }

  /** Applies a filter (kept per workspace) and reads the list again. */
  setFilter(filter: AgentFilter): Promise<void> {
    return this.applyFilter(filter);
  }

  protected forget(): void {
    this.agents.forget();
  }

  /** Shows an edit the user made to an agent at once, without reloading the list. */
  updateAgent(agent: BaseAgent): void {
    this.agents.replace(agent);
  }

  /** Puts a new agent on top of the list and reveals it. */
  async addAndReveal(agent: BaseAgent): Promise<void> {
    const node = this.agents.prepend(agent);
    node.isNew = true;
    await this.reveal(node, { select: true, focus: true, expand: false });
  }

  /**
   * Shows the truth after a version was created (or may have been): the agent and its versions are
   * read again, and the new version is revealed when known.
   */
  async revealVersion(agentId: string, versionId: string | undefined): Promise<void> {
    const node = this.agents.nodeOf(agentId);
    if (!node) return;
    try {
      this.updateAgent(await this.client().agents.get(agentId));
    } catch {
      // The versions below are still re-read; the agent row keeps its last known state.
    }
    await this.reveal(await node.versions.reloadAndFind(versionId), { select: true, focus: false, expand: true });
  }

  /** Jobs just started: at the top of the agent's Jobs list at once, when that list is loaded. */
  showStartedJobs(agentId: string, jobs: readonly AgentJob[]): boolean {
    return this.agents.nodeOf(agentId)?.jobs.prependJobs(jobs) ?? false;
  }

  /** Newer statuses of jobs shown under an agent (after a cancel), each row redrawn alone. */
  patchJobs(agentId: string, patches: ReadonlyArray<{ id: string } & Partial<AgentJob>>): void {
    const jobs = this.agents.nodeOf(agentId)?.jobs;
    for (const { id, ...patch } of patches) jobs?.updateJob(id, patch);
  }

  /** The running jobs shown under an agent. */
  activeJobsOf(agentId: string): AgentJob[] {
    return this.agents.nodeOf(agentId)?.jobs.activeJobs() ?? [];
  }

  /** Reads an agent's jobs again (after a run whose outcome is unknown). */
  reloadJobs(agentId: string): void {
    this.agents.nodeOf(agentId)?.jobs.reload();
  }

  /**
   * Reveals a version of an agent (one a policy's 409 named, say). An agent not on the loaded pages is
   * read and put on top of the list first, so it can be shown.
   */
  async revealAgentVersion(agentId: string, versionId: string | undefined): Promise<void> {
    const node = this.agents.nodeOf(agentId) ?? this.agents.prepend(await this.client().agents.get(agentId));
    await this.reveal(node, { select: !versionId, focus: true, expand: Boolean(versionId) });
    if (versionId) await this.revealVersion(agentId, versionId);
  }

  /** The agents loaded so far (for pickers: engines and tags seen, agents to choose from). */
  loadedAgents(): readonly BaseAgent[] {
    return this.agents.loadedItems;
  }

  /** A job of an agent as its loaded Jobs list holds it, if the list showed it. */
  loadedJob(agentId: string, jobId: string): AgentJob | undefined {
    return this.agents.nodeOf(agentId)?.jobs.list.loadedItems.find((job) => job.id === jobId);
  }

  /** Loads the first page if needed and returns the agents loaded. */
  async ensureAgents(): Promise<readonly BaseAgent[]> {
    await this.agents.list.ensureLoaded();
    return this.agents.loadedItems;
  }

  protected roots(): Promise<TreeNode[]> {
    return this.agents.children();
  }

  protected override isFiltered(): boolean {
    return isAgentFilterActive(this.filter);
  }

  protected filterDescription(): string {
    return describeAgentFilter(this.filter);
  }
}
