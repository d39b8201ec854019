import * as vscode from 'vscode';
import type { AgentJob, BaseAgent } from '../../core/client';
import type { ListKnowledge, ServiceStore, StoreChange } from '../../core/store/serviceStore';
import type { Stores } from '../store/stores';
import type { Ticker } from '../util/ticker';
import { agentListParams, describeAgentFilter, isAgentFilterActive, visibleAgentsPage, type AgentFilter } from '../../core/filters/agentFilter';
import type { Connection } from '../connection/connection';
import { ContextKeys, Settings, StateKeys, Views } from '../constants';
import { loadCore } from '../lazyCore';
import { PagedNodes } from '../tree/pagedNodes';
import { ServiceTreeView } from '../tree/serviceTreeView';
import type { TreeNode } from '../tree/treeNode';
import { AgentNode, type AgentsTreeContext } from './agentNodes';
import type { JobsNode } from './jobNodes';
import type { JobRowText } from '../../core/jobView/jobRow';
import { rowTextOf } from './jobPresentation';
import type { TreeFailures } from '../tree/treeFailures';

/**
 * The Agents view: agents page by page (search, filters and ordering from the view's title bar), each
 * with its Versions and Jobs. The active filter shows in the view's description and clears in one click.
 */
export class AgentsView extends ServiceTreeView<AgentFilter> implements AgentsTreeContext {
  private readonly agents: PagedNodes<BaseAgent, AgentNode>;
  private readonly shownJobs = new vscode.EventEmitter<JobsNode>();
  /** Fires when a Jobs list is drawn (the running-jobs refresher listens). */
  readonly onDidShowJobs = this.shownJobs.event;

  private storeSubscription: { dispose(): void } | undefined;
  /** Trial agents left out of the pages read so far (when the filter hides them). */
  private trialsHidden = 0;

  constructor(
    context: vscode.ExtensionContext,
    connection: Connection,
    failures: TreeFailures,
    private readonly stores: Stores,
    ticker: Ticker,
  ) {
    // Several job rows can be chosen at once (Create Test Set from Jobs…).
    super(context, connection, failures, { viewId: Views.agents, viewName: 'Agents view', filterKey: StateKeys.agentFilter, filteredContextKey: ContextKeys.agentsFiltered, canSelectMany: true });
    this.agents = new PagedNodes({
      parent: undefined,
      host: this,
      fetchPage: async (page, signal) => {
        const result = await this.client().agents.list({ ...agentListParams(this.filter, this.pageSize()), page }, { signal });
        this.putAgents(result.results);
        const shown = visibleAgentsPage(this.filter, result, page === 1 ? 0 : this.trialsHidden);
        this.trialsHidden = shown.hidden;
        return { ...result, count: shown.count, results: shown.results };
      },
      createNode: (agent) => new AgentNode(agent, this),
      updateNode: () => undefined,
      emptyText: () => (isAgentFilterActive(this.filter) ? 'No agents match the filter' : 'No agents in this organization yet'),
    });
    this.register(this.shownJobs);
    this.register({ dispose: () => this.storeSubscription?.dispose() });
    this.register(stores.onDidSwitch((store) => this.listen(store)));
    // "1 min ago" and a running job's time move on: rows whose text changed are redrawn, while the view is shown.
    this.register(ticker.every(30_000, () => this.treeView.visible && this.provider.redrawAll()));
    // A running job's time moves each second, on its row as in the status bar and its job view (one ticker for all three).
    this.register(ticker.every(1000, () => this.treeView.visible && this.redrawRunningRows()));
    this.listen(stores.current);
    this.register(vscode.workspace.onDidChangeConfiguration((e) => {
      // Job rows are labelled by this setting: redraw them (nothing is read again).
      if (e.affectsConfiguration(`${Settings.section}.${Settings.jobsLabelField}`)) this.provider.refresh();
    }));
    this.describe();
  }

  private listen(store: ServiceStore | undefined): void {
    this.storeSubscription?.dispose();
    this.storeSubscription = store?.onDidChange((change) => this.apply(change));
  }

  /** Shows a change of the store: rows whose agent or job changed are redrawn, started jobs go on top of their list. */
  private apply(change: StoreChange): void {
    for (const id of change.agents) {
      const node = this.agents.nodeOf(id);
      if (node) this.provider.redraw(node);
    }
    const missing = new Map<string, AgentJob[]>();
    for (const id of change.jobs) {
      const agentId = this.stores.current?.agentIdOf(id);
      const list = agentId === undefined ? undefined : this.agents.nodeOf(agentId)?.jobs;
      const row = list?.nodeOf(id);
      const job = this.jobOf(id);
      if (row) this.provider.redraw(row);
      else if (list && job && agentId !== undefined && !list.hasJob(id)) missing.set(agentId, [...(missing.get(agentId) ?? []), job]);
    }
    for (const { agentId, jobIds } of change.started) {
      const jobs = jobIds.map((id) => this.jobOf(id)).filter((job): job is AgentJob => job !== undefined);
      this.agents.nodeOf(agentId)?.jobs.prependJobs(jobs);
    }
    // A job the store learnt of that a list lacks (watched by ID, read with a record): one newer than the list's top goes on top.
    for (const [agentId, jobs] of missing) this.agents.nodeOf(agentId)?.jobs.prependNewer(jobs);
  }

  /** Redraws the rows of running jobs that are drawn (their elapsed time moved on). */
  private redrawRunningRows(): void {
    for (const agent of this.agents.loadedItems) {
      const jobs = this.agents.nodeOf(agent.id)?.jobs;
      for (const job of jobs?.activeJobs() ?? []) {
        const row = jobs?.nodeOf(job.id);
        if (row) this.provider.redraw(row);
      }
    }
  }

  agentOf(id: string): BaseAgent | undefined {
    return this.stores.current?.agent(id);
  }

  jobOf(id: string): AgentJob | undefined {
    return this.stores.current?.job(id);
  }

  jobRowText(agentId: string, job: AgentJob): JobRowText {
    return rowTextOf(this.stores.current, agentId, job);
  }

  putAgents(agents: readonly BaseAgent[]): void {
    this.stores.current?.putAgents(agents);
  }

  putJobs(agentId: string, jobs: readonly AgentJob[], list: ListKnowledge): void {
    this.stores.current?.putJobs(agentId, jobs, list);
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
    this.putAgents([agent]);
  }

  /** Puts a new agent on top of the list and reveals it. */
  async addAndReveal(agent: BaseAgent): Promise<void> {
    this.putAgents([agent]);
    const node = this.agents.prepend(agent);
    node.isNew = true;
    await this.reveal(node, { select: true, focus: true, expand: false });
  }

  /**
   * Shows the truth after a version was created (or may have been): the agent and its versions are
   * read again, and the new version is revealed when known.
   */
  async revealVersion(agentId: string, versionId: string | undefined): Promise<void> {
    const node = this.agents.nodeOf(agentId) ?? (await this.loadedNode(agentId));
    if (!node) return;
    try {
      this.updateAgent(await this.client().agents.get(agentId));
    } catch {
      // The versions below are still re-read; the agent row keeps its last known state.
    }
    await this.reveal(await node.versions.reloadAndFind(versionId), { select: true, focus: false, expand: true });
  }

  /** Takes agents the service no longer has (a trial's copies, removed) out of the list, without reading it again. */
  removeAgents(agentIds: readonly string[]): void {
    for (const id of agentIds) if (this.agents.nodeOf(id)) this.agents.remove(id);
  }

  /** Reads an agent's jobs again (after a run whose outcome is unknown). */
  reloadJobs(agentId: string): void {
    void this.agents.nodeOf(agentId)?.jobs.reload();
  }

  /**
   * Reveals a version of an agent (one a policy's 409 named, say). An agent not on the loaded pages is
   * read and put on top of the list first, so it can be shown.
   */
  async revealAgentVersion(agentId: string, versionId: string | undefined): Promise<void> {
    let node = this.agents.nodeOf(agentId) ?? (await this.loadedNode(agentId));
    if (!node) {
      // Put on top of a list that was read: on one that failed it would stand for the whole list.
      if (this.agents.list.state.kind !== 'loaded') return;
      const agent = await this.client().agents.get(agentId);
      this.putAgents([agent]);
      node = this.agents.prepend(agent);
    }
    await this.reveal(node, { select: !versionId, focus: true, expand: Boolean(versionId) });
    if (versionId) await this.revealVersion(agentId, versionId);
  }

  /** The node of an agent on the loaded pages, the first page read first when the list was just forgotten (a view reloaded). */
  private async loadedNode(agentId: string): Promise<AgentNode | undefined> {
    await this.agents.list.ensureLoaded();
    const agent = this.agents.loadedItems.find((a) => a.id === agentId);
    return agent ? this.agents.nodeFor(agent) : undefined;
  }

  /** The agents loaded so far (for pickers: engines and tags seen, agents to choose from). */
  loadedAgents(): readonly BaseAgent[] {
    return this.agents.loadedItems;
  }


  /** Loads the first page if needed and returns the agents loaded; throws why when none could be read. */
  async ensureAgents(): Promise<readonly BaseAgent[]> {
    await this.agents.list.ensureLoaded();
    const state = this.agents.list.state;
    if (state.kind === 'error' && state.firstPage) throw state.error;
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
