import * as vscode from 'vscode';
import { isActiveStatus } from '../../core/jobStatus';
import type { JobFollower } from '../../core/store/jobFollower';
import type { ServiceStore } from '../../core/store/serviceStore';
import { NEWEST_PAGE_SIZE } from '../../core/store/newestJobs';
import type { AgentsView } from '../agents/agentsView';
import { AgentNode } from '../agents/agentNodes';
import { JobsNode } from '../agents/jobNodes';
import type { Log } from '../log';
import type { Stores } from '../store/stores';
import { Disposable } from '../util/disposable';

/** The watcher's name for the jobs this view follows. */
const OWNER = 'agentsView';

/**
 * Decides what of the Agents view is kept up to date, while the view is visible and the window
 * focused: the running jobs of the Jobs lists drawn (one bulk status request per interval covers every
 * expanded Jobs list, every watched job, every job view and comparison; finished jobs are never polled
 * again), and the lists themselves — each shown list's newest page is read once per interval and on
 * every expand, so a job started elsewhere appears on top. Everything reaches the rows through the store.
 */
export class RunningJobsRefresher extends Disposable {
  private follower: JobFollower | undefined;
  /** The Jobs list each followed job was drawn in (collapsing the list stops following them). */
  private readonly lists = new Map<string, JobsNode>();
  /** Jobs lists expanded (drawn and not collapsed since), and agents collapsed (their lists are hidden). */
  private readonly expandedLists = new Set<JobsNode>();
  private readonly collapsedAgents = new Set<string>();
  private store: ServiceStore | undefined;

  constructor(
    private readonly view: AgentsView,
    stores: Stores,
    log: Log,
  ) {
    super();
    this.register({ dispose: () => this.follower?.dispose() });
    this.register(view.onDidShowJobs((node) => this.track(node)));
    this.register(view.treeView.onDidCollapseElement((e) => this.collapsed(e.element)));
    this.register(view.treeView.onDidExpandElement((e) => this.expanded(e.element)));
    this.register(view.treeView.onDidChangeVisibility(() => this.updatePause()));
    this.register(vscode.window.onDidChangeWindowState(() => this.updatePause()));
    this.register(stores.onDidSwitch((store) => this.useStore(store)));
    this.useStore(stores.current);
    log.debug('Running-jobs refresher ready');
  }

  private useStore(store: ServiceStore | undefined): void {
    this.follower?.dispose();
    this.store?.showJobLists([]);
    this.store = store;
    this.lists.clear();
    this.expandedLists.clear();
    this.collapsedAgents.clear();
    this.follower = store?.follower(OWNER);
    this.follower?.onDidChange((job) => {
      if (job.notFound || (job.status !== undefined && !isActiveStatus(job.status))) this.stop([job.id]);
    });
    this.updatePause();
  }

  private track(node: JobsNode): void {
    if (!this.expandedLists.has(node)) {
      this.expandedLists.add(node);
      this.updatePause();
    }
    const jobs = node.activeJobs();
    for (const job of jobs) this.lists.set(job.id, node);
    this.follower?.follow(jobs.map((job) => ({ id: job.id, status: job.status_code, createdAt: job.created_at, agentId: node.parent.agentId })));
  }

  private collapsed(element: unknown): void {
    const jobsNode = element instanceof JobsNode ? element : element instanceof AgentNode ? element.jobs : undefined;
    if (element instanceof JobsNode) this.expandedLists.delete(element);
    if (element instanceof AgentNode) this.collapsedAgents.add(element.agentId);
    if (jobsNode) this.stop([...this.lists].filter(([, list]) => list === jobsNode).map(([id]) => id));
    this.updatePause();
  }

  /** A list shown again (its agent or itself expanded, its rows kept by the tree): its newest page is read at once. */
  private expanded(element: unknown): void {
    if (element instanceof AgentNode) this.collapsedAgents.delete(element.agentId);
    const jobsNode = element instanceof JobsNode ? element : element instanceof AgentNode && this.expandedLists.has(element.jobs) ? element.jobs : undefined;
    if (!jobsNode || jobsNode.list.state.kind !== 'loaded') return; // an unread list reads its first page itself
    this.expandedLists.add(jobsNode);
    this.updatePause();
    void this.store?.readRecords(jobsNode.parent.agentId, NEWEST_PAGE_SIZE).then(() => this.track(jobsNode));
  }

  private stop(ids: string[]): void {
    if (!ids.length) return;
    for (const id of ids) this.lists.delete(id);
    this.follower?.unfollow(ids);
  }

  private updatePause(): void {
    const paused = !this.view.treeView.visible || !vscode.window.state.focused;
    this.follower?.setPaused(paused);
    const shown = paused ? [] : [...this.expandedLists].filter((node) => !this.collapsedAgents.has(node.parent.agentId)).map((node) => node.parent.agentId);
    this.store?.showJobLists(shown);
  }
}
