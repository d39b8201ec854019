import * as vscode from 'vscode';
import { isActiveStatus } from '../../core/jobStatus';
import { JobWatcher } from '../../core/jobWatch';
import type { AgentsView } from '../agents/agentsView';
import { AgentNode } from '../agents/agentNodes';
import { JobsNode } from '../agents/jobNodes';
import { jobsRefreshIntervalMs } from '../configuration';
import type { Connection } from '../connection/connection';
import { Settings } from '../constants';
import type { Log } from '../log';
import { Disposable } from '../util/disposable';

/** The watcher's name for the jobs this view tracks. */
const OWNER = 'agentsView';

/**
 * Keeps the running jobs shown in the Agents view up to date by themselves — only while the view is
 * visible and the window focused; finished jobs are never polled again. It shares the status bar's
 * job watcher, so one bulk request per interval covers every expanded Jobs list and every watched job.
 */
export class RunningJobsRefresher extends Disposable {
  private readonly owners = new Map<string, JobsNode>();

  constructor(
    private readonly view: AgentsView,
    private readonly watcher: JobWatcher,
    connection: Connection,
    log: Log,
  ) {
    super();
    this.watcher.setTrackingIntervalMs(jobsRefreshIntervalMs());
    this.register({ dispose: () => this.watcher.untrack(OWNER) });
    this.register(this.watcher.onDidTransition((job, _from, to) => this.apply(job.id, to, job.lastUpdatedAt)));
    this.register(view.onDidShowJobs((node) => this.track(node)));
    this.register(view.treeView.onDidCollapseElement((e) => this.collapsed(e.element)));
    this.register(view.treeView.onDidChangeVisibility(() => this.updatePause()));
    this.register(vscode.window.onDidChangeWindowState(() => this.updatePause()));
    this.register(connection.onDidChange(() => {
      this.watcher.untrack(OWNER);
      this.owners.clear();
    }));
    this.register(vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${Settings.section}.${Settings.jobsRefreshIntervalSeconds}`)) this.watcher.setTrackingIntervalMs(jobsRefreshIntervalMs());
    }));
    this.updatePause();
    log.debug('Running-jobs refresher ready');
  }

  /** How many jobs are being kept up to date (for tests and the log). */
  get trackedCount(): number {
    return this.owners.size;
  }

  private track(node: JobsNode): void {
    const jobs = node.activeJobs();
    for (const job of jobs) this.owners.set(job.id, node);
    this.watcher.track(OWNER, jobs.map((job) => ({ id: job.id, status: job.status_code, createdAt: job.created_at, agentId: node.parent.agent.id })));
  }

  private collapsed(element: unknown): void {
    const jobsNode = element instanceof JobsNode ? element : element instanceof AgentNode ? element.jobs : undefined;
    if (!jobsNode) return;
    const ids = [...this.owners].filter(([, owner]) => owner === jobsNode).map(([id]) => id);
    for (const id of ids) this.owners.delete(id);
    this.watcher.untrack(OWNER, ids);
  }

  private apply(id: string, status: number, lastUpdatedAt: string | undefined): void {
    const owner = this.owners.get(id);
    if (!owner) return;
    owner.updateJob(id, { status_code: status, ...(lastUpdatedAt ? { last_updated_at: lastUpdatedAt } : {}) });
    if (!isActiveStatus(status)) {
      this.owners.delete(id);
      this.watcher.untrack(OWNER, [id]);
    }
  }

  private updatePause(): void {
    this.watcher.setTrackingPaused(!this.view.treeView.visible || !vscode.window.state.focused);
  }
}
