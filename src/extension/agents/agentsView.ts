import * as vscode from 'vscode';
import type { AgentJob, BaseAgent, ListAgentsParams } from '../../core/client';
import { agentListParams, describeAgentFilter, isAgentFilterActive, type AgentFilter } from '../../core/filters/agentFilter';
import { PagedList } from '../../core/pagedList';
import type { Connection } from '../connection/connection';
import { ContextKeys, StateKeys, Views } from '../constants';
import { loadCore } from '../lazyCore';
import { pagedChildren } from '../tree/pagedChildren';
import { ServiceTreeView } from '../tree/serviceTreeView';
import type { TreeNode } from '../tree/treeNode';
import { AgentNode, type AgentsTreeContext } from './agentNodes';
import type { JobsNode } from './jobNodes';

/**
 * The Agents view: agents page by page (search, filters and ordering from the view's title bar), each
 * with its Versions and Jobs. The active filter shows in the view's description and clears in one click.
 */
export class AgentsView extends ServiceTreeView implements AgentsTreeContext {
  private filterValue: AgentFilter;
  private readonly list: PagedList<BaseAgent>;
  private readonly nodes = new Map<string, AgentNode>();
  private readonly shownJobs = new vscode.EventEmitter<JobsNode>();
  /** Fires when a Jobs list is drawn (the running-jobs refresher listens). */
  readonly onDidShowJobs = this.shownJobs.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    connection: Connection,
  ) {
    // Several job rows can be chosen at once (Create Test Set from Jobs…).
    super(Views.agents, connection, undefined, true);
    this.filterValue = context.workspaceState.get<AgentFilter>(StateKeys.agentFilter) ?? {};
    this.list = new PagedList((page, signal) => this.client().agents.list({ ...agentListParams(this.filterValue, this.pageSize()), page } as ListAgentsParams, { signal }));
    this.register(this.shownJobs);
    this.describe();
  }

  get filter(): AgentFilter {
    return this.filterValue;
  }

  tagNames(tags: BaseAgent['tags']): string[] {
    return loadCore().tagNames(tags);
  }

  jobsShown(node: JobsNode): void {
    this.shownJobs.fire(node);
  }

  /** Applies a filter (persisted per workspace) and reads the list again. */
  async setFilter(filter: AgentFilter): Promise<void> {
    this.filterValue = filter;
    await this.context.workspaceState.update(StateKeys.agentFilter, filter);
    this.reload();
  }

  protected forget(): void {
    this.list.reset();
    this.nodes.clear();
  }

  /** Shows an edit the user made to an agent at once, without reloading the list. */
  updateAgent(agent: BaseAgent): void {
    this.list.replace((a) => a.id === agent.id, agent);
    const node = this.nodes.get(agent.id);
    if (!node) return;
    node.agent = agent;
    this.provider.refresh(node);
  }

  /** Puts a new agent on top of the list and reveals it. */
  async addAndReveal(agent: BaseAgent): Promise<void> {
    this.list.prepend(agent);
    const node = this.nodeFor(agent);
    node.isNew = true;
    this.provider.refresh();
    await this.reveal(node, { select: true, focus: true, expand: false });
  }

  /**
   * Shows the truth after a version was created (or may have been): the agent and its versions are
   * read again, and the new version is revealed when known.
   */
  async revealVersion(agentId: string, versionId: string | undefined): Promise<void> {
    const node = this.nodes.get(agentId);
    if (!node) return;
    try {
      this.updateAgent(await this.client().agents.get(agentId));
    } catch {
      // The versions below are still re-read; the agent row keeps its last known state.
    }
    node.versions.list.reset();
    this.provider.refresh(node.versions);
    await node.versions.list.ensureLoaded();
    const version = node.versions.list.loadedItems.find((v) => v.id === versionId);
    if (version) await this.reveal(node.versions.nodeFor(version), { select: true, focus: false, expand: true });
  }

  /** Jobs just started: at the top of the agent's Jobs list at once, when that list is loaded. */
  showStartedJobs(agentId: string, jobs: readonly AgentJob[]): boolean {
    return this.nodes.get(agentId)?.jobs.prependJobs(jobs) ?? false;
  }

  /** Newer statuses of jobs shown under an agent (after a cancel), each row redrawn alone. */
  patchJobs(agentId: string, patches: ReadonlyArray<{ id: string } & Partial<AgentJob>>): void {
    const jobs = this.nodes.get(agentId)?.jobs;
    for (const { id, ...patch } of patches) jobs?.updateJob(id, patch);
  }

  /** The running jobs shown under an agent. */
  activeJobsOf(agentId: string): AgentJob[] {
    return this.nodes.get(agentId)?.jobs.activeJobs() ?? [];
  }

  /** Reads an agent's jobs again (after a run whose outcome is unknown). */
  reloadJobs(agentId: string): void {
    this.nodes.get(agentId)?.jobs.reload();
  }

  /** The agents loaded so far (for pickers: engines and tags seen, agents to choose from). */
  loadedAgents(): readonly BaseAgent[] {
    return this.list.loadedItems;
  }

  /** Loads the first page if needed and returns the agents loaded. */
  async ensureAgents(): Promise<readonly BaseAgent[]> {
    await this.list.ensureLoaded();
    return this.list.loadedItems;
  }

  protected async roots(): Promise<TreeNode[]> {
    const filtered = isAgentFilterActive(this.filterValue);
    return pagedChildren({
      parent: undefined,
      list: this.list,
      refresher: this,
      emptyText: filtered ? 'No agents match the filter' : 'No agents in this organization yet',
      toNode: (agent) => this.nodeFor(agent),
    });
  }

  private nodeFor(agent: BaseAgent): AgentNode {
    let node = this.nodes.get(agent.id);
    if (node) node.agent = agent;
    else this.nodes.set(agent.id, (node = new AgentNode(agent, this)));
    return node;
  }

  protected override filterDescription(): string {
    return describeAgentFilter(this.filterValue);
  }

  protected override describe(): void {
    super.describe();
    void vscode.commands.executeCommand('setContext', ContextKeys.agentsFiltered, isAgentFilterActive(this.filterValue));
  }
}
