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
import { jobStatusSource } from './jobSource';

/**
 * Keeps the running jobs shown in the Agents view up to date by themselves — only while the view is
 * visible and the window focused; finished jobs are never polled again. One bulk request per interval
 * covers every expanded Jobs list.
 */
export class RunningJobsRefresher extends Disposable {
  private readonly watcher: JobWatcher;
  private readonly owners = new Map<string, JobsNode>();

  constructor(
    private readonly view: AgentsView,
    connection: Connection,
    log: Log,
  ) {
    super();
    this.watcher = new JobWatcher(jobStatusSource(connection), { intervalMs: jobsRefreshIntervalMs() });
    this.register({ dispose: () => this.watcher.dispose() });
    this.register(this.watcher.onDidTransition((job, _from, to) => this.apply(job.id, to, job.lastUpdatedAt)));
    this.register(view.onDidShowJobs((node) => this.track(node)));
    this.register(view.treeView.onDidCollapseElement((e) => this.collapsed(e.element)));
    this.register(view.treeView.onDidChangeVisibility(() => this.updatePause()));
    this.register(vscode.window.onDidChangeWindowState(() => this.updatePause()));
    this.register(connection.onDidChange(() => {
      this.watcher.unwatchAll();
      this.owners.clear();
      this.watcher.setSource(jobStatusSource(connection));
    }));
    this.register(vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${Settings.section}.${Settings.jobsRefreshIntervalSeconds}`)) this.watcher.setIntervalMs(jobsRefreshIntervalMs());
    }));
    this.updatePause();
    log.debug('Running-jobs refresher ready');
  }

  /** How many jobs are being kept up to date (for tests and the log). */
  get trackedCount(): number {
    return this.watcher.jobs().filter((j) => j.status !== undefined && isActiveStatus(j.status)).length;
  }

  private track(node: JobsNode): void {
    for (const job of node.activeJobs()) {
      this.owners.set(job.id, node);
      this.watcher.watch({ id: job.id, status: job.status_code, createdAt: job.created_at });
    }
  }

  private collapsed(element: unknown): void {
    const jobsNode = element instanceof JobsNode ? element : element instanceof AgentNode ? element.jobs : undefined;
    if (!jobsNode) return;
    for (const [id, owner] of this.owners) {
      if (owner !== jobsNode) continue;
      this.owners.delete(id);
      this.watcher.unwatch(id);
    }
  }

  private apply(id: string, status: number, lastUpdatedAt: string | undefined): void {
    const owner = this.owners.get(id);
    if (!owner) return;
    owner.updateJob(id, { status_code: status, ...(lastUpdatedAt ? { last_updated_at: lastUpdatedAt } : {}) });
    if (!isActiveStatus(status)) {
      this.owners.delete(id);
      this.watcher.unwatch(id);
    }
  }

  private updatePause(): void {
    this.watcher.setPaused(!this.view.treeView.visible || !vscode.window.state.focused);
  }
}
