import * as vscode from 'vscode';
import { isActiveStatus } from '../../core/jobStatus';
import type { JobFollower } from '../../core/store/jobFollower';
import type { ServiceStore } from '../../core/store/serviceStore';
import type { AgentsView } from '../agents/agentsView';
import { AgentNode } from '../agents/agentNodes';
import { JobsNode } from '../agents/jobNodes';
import type { Log } from '../log';
import type { Stores } from '../store/stores';
import { Disposable } from '../util/disposable';

/** The watcher's name for the jobs this view follows. */
const OWNER = 'agentsView';

/**
 * Decides which running jobs of the Agents view are followed: those of the Jobs lists drawn, while the
 * view is visible and the window focused. Their new statuses reach the rows through the store, like
 * every other change; finished jobs are never polled again. One bulk request per interval covers every
 * expanded Jobs list, every watched job, every job view and comparison.
 */
export class RunningJobsRefresher extends Disposable {
  private follower: JobFollower | undefined;
  /** The Jobs list each followed job was drawn in (collapsing the list stops following them). */
  private readonly lists = new Map<string, JobsNode>();

  constructor(
    private readonly view: AgentsView,
    stores: Stores,
    log: Log,
  ) {
    super();
    this.register({ dispose: () => this.follower?.dispose() });
    this.register(view.onDidShowJobs((node) => this.track(node)));
    this.register(view.treeView.onDidCollapseElement((e) => this.collapsed(e.element)));
    this.register(view.treeView.onDidChangeVisibility(() => this.updatePause()));
    this.register(vscode.window.onDidChangeWindowState(() => this.updatePause()));
    this.register(stores.onDidSwitch((store) => this.useStore(store)));
    this.useStore(stores.current);
    log.debug('Running-jobs refresher ready');
  }

  private useStore(store: ServiceStore | undefined): void {
    this.follower?.dispose();
    this.lists.clear();
    this.follower = store?.follower(OWNER);
    this.follower?.onDidChange((job) => {
      if (job.notFound || (job.status !== undefined && !isActiveStatus(job.status))) this.stop([job.id]);
    });
    this.updatePause();
  }

  private track(node: JobsNode): void {
    const jobs = node.activeJobs();
    for (const job of jobs) this.lists.set(job.id, node);
    this.follower?.follow(jobs.map((job) => ({ id: job.id, status: job.status_code, createdAt: job.created_at, agentId: node.parent.agentId })));
  }

  private collapsed(element: unknown): void {
    const jobsNode = element instanceof JobsNode ? element : element instanceof AgentNode ? element.jobs : undefined;
    if (jobsNode) this.stop([...this.lists].filter(([, list]) => list === jobsNode).map(([id]) => id));
  }

  private stop(ids: string[]): void {
    if (!ids.length) return;
    for (const id of ids) this.lists.delete(id);
    this.follower?.unfollow(ids);
  }

  private updatePause(): void {
    this.follower?.setPaused(!this.view.treeView.visible || !vscode.window.state.focused);
  }
}
