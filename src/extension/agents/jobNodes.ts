import * as vscode from 'vscode';
import type { AgentJob, BaseAgent, ListJobsParams } from '../../core/client';
import { describeJobFilter, isJobFilterActive, jobListParams, type JobFilter } from '../../core/filters/jobFilter';
import { clip, dateTime } from '../../core/format';
import { isActiveStatus } from '../../core/jobStatus';
import type { PagedList } from '../../core/pagedList';
import { AgentCommands } from '../constants';
import { PagedNodes } from '../tree/pagedNodes';
import type { TreeNode } from '../tree/treeNode';
import type { AgentNode, AgentsTreeContext } from './agentNodes';
import { jobDurationText, jobStatusText } from '../../core/jobView/jobText';
import { jobStatusIcon } from './jobPresentation';

/** The jobs of one agent, newest first, page by page, with a filter of their own. */
export class JobsNode implements TreeNode {
  readonly kind = 'agentJobs';
  readonly id: string;
  private filterValue: JobFilter = {};
  private readonly jobs: PagedNodes<AgentJob, JobNode>;

  constructor(
    readonly parent: AgentNode,
    private readonly ctx: AgentsTreeContext,
  ) {
    this.id = `${parent.id}/jobs`;
    this.jobs = new PagedNodes({
      parent: this,
      host: ctx,
      fetchPage: async (page, signal) => {
        const params = { ...jobListParams(this.filterValue, ctx.pageSize()), page } as ListJobsParams;
        const result = await ctx.client().jobs.list(parent.agentId, params, { signal });
        // The store keeps the jobs (and learns the agent's job count from an unfiltered list); the list keeps their order.
        ctx.putJobs(parent.agentId, result.results, { count: result.count, unfiltered: !isJobFilterActive(this.filterValue) });
        return result;
      },
      createNode: (job) => new JobNode(this, job.id, ctx),
      updateNode: () => undefined,
      emptyText: () => (isJobFilterActive(this.filterValue) ? 'No jobs match the filter' : 'No jobs yet'),
    });
  }

  get list(): PagedList<AgentJob> {
    return this.jobs.list;
  }

  get filter(): JobFilter {
    return this.filterValue;
  }

  /** Applies a new filter: the list is read again from its first page, the rows of the old filter gone at once. */
  setFilter(filter: JobFilter): void {
    this.filterValue = filter;
    this.jobs.restart();
  }

  /** Reads the first page again; the rows shown stay (and their actions work) until the answer is in, which the promise waits for. */
  reload(): Promise<void> {
    return this.jobs.reload();
  }

  /** The jobs shown that are not final, as the store knows them: the ones worth following. */
  activeJobs(): AgentJob[] {
    return this.list.loadedItems.map((job) => this.ctx.jobOf(job.id) ?? job).filter((job) => isActiveStatus(job.status_code));
  }

  /** The jobs loaded in this list, in its order, as the store knows them now. */
  loadedJobs(): AgentJob[] {
    return this.list.loadedItems.map((job) => this.ctx.jobOf(job.id) ?? job);
  }

  /** The row of a job in this list, if drawn. */
  nodeOf(jobId: string): JobNode | undefined {
    return this.jobs.nodeOf(jobId);
  }

  /**
   * Shows jobs just started at the top, without reading the list again (no flash). Only into a list
   * already loaded and not filtered: an unread list reads them from the service anyway, and a filter
   * may not match them. The agent row's count comes from the store, not from here.
   */
  prependJobs(jobs: readonly AgentJob[]): boolean {
    if (this.list.state.kind !== 'loaded' || isJobFilterActive(this.filterValue)) return false;
    for (const job of [...jobs].reverse()) this.list.prepend(job);
    this.ctx.refresh(this);
    return true;
  }

  /** True when the loaded pages hold this job. */
  hasJob(jobId: string): boolean {
    return this.list.loadedItems.some((job) => job.id === jobId);
  }

  /**
   * Puts on top the jobs newer than every loaded one (the agent row counts them, so its list must show
   * them): an older job is where a later page has it, not on top.
   */
  prependNewer(jobs: readonly AgentJob[]): void {
    const top = this.list.loadedItems[0];
    const newest = top ? Date.parse(top.created_at) : Number.NEGATIVE_INFINITY;
    const newer = jobs.filter((job) => !this.hasJob(job.id) && !(Date.parse(job.created_at) < newest));
    if (newer.length) this.prependJobs([...newer].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at)));
  }

  getTreeItem(): vscode.TreeItem {
    const filtered = isJobFilterActive(this.filterValue);
    const item = new vscode.TreeItem('Jobs', vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(filtered ? 'filter-filled' : 'checklist');
    const state = this.list.state;
    const count = state.kind === 'loaded' ? `${state.count.toLocaleString('en-US')}` : '';
    item.description = filtered ? [describeJobFilter(this.filterValue), count && `${count} match`].filter(Boolean).join(' · ') : count;
    item.tooltip = filtered ? `Filtered: ${describeJobFilter(this.filterValue)}` : 'Jobs of this agent, newest first';
    item.contextValue = filtered ? 'agentJobs.filtered' : 'agentJobs';
    return item;
  }

  async getChildren(): Promise<TreeNode[]> {
    const children = await this.jobs.children();
    this.ctx.jobsShown(this);
    return children;
  }
}

/** One job: status icon (spinning while it runs), what tells it apart (input or metadata field), verdict, version, times. */
export class JobNode implements TreeNode {
  readonly kind = 'job';
  readonly id: string;
  readonly agentId: string;
  constructor(
    readonly parent: JobsNode,
    readonly jobId: string,
    private readonly ctx: AgentsTreeContext,
  ) {
    this.id = `${parent.id}/${jobId}`;
    this.agentId = parent.parent.agentId;
  }

  /** The job as the store knows it now. */
  get job(): AgentJob {
    return this.ctx.jobOf(this.jobId) ?? this.parent.list.loadedItems.find((job) => job.id === this.jobId) ?? { id: this.jobId, status_code: -1, created_at: '' };
  }

  /** The agent of this job as the store knows it now. */
  get agent(): BaseAgent {
    return this.parent.parent.agent;
  }

  /** The agent's name, for labels. */
  get agentName(): string {
    return this.agent.name;
  }

  getTreeItem(): vscode.TreeItem {
    const j = this.job;
    const row = this.ctx.jobRowText(this.agentId, j);
    const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = jobStatusIcon(j.status_code);
    item.description = row.description;
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**').appendText(jobStatusText(j)).appendMarkdown('** — ').appendText(j.agent_version_name ?? 'unnamed version').appendMarkdown('\n\n');
    if (row.verdict) md.appendMarkdown('Verdict: ').appendText(row.verdict).appendMarkdown('  \n');
    md.appendMarkdown('Job ID: ').appendText(j.id).appendMarkdown('  \n');
    md.appendMarkdown('Created: ').appendText(dateTime(j.created_at)).appendMarkdown('  \n');
    if (j.last_updated_at) md.appendMarkdown('Last update: ').appendText(dateTime(j.last_updated_at)).appendMarkdown('  \n');
    const duration = jobDurationText(j);
    if (duration) md.appendMarkdown('Duration: ').appendText(duration).appendMarkdown('  \n');
    const lastError = [...(j.status_events ?? [])].reverse().find((e) => e.error_message)?.error_message;
    if (lastError) md.appendMarkdown('\nError: ').appendText(clip(lastError, 2000));
    item.tooltip = md;
    item.contextValue = isActiveStatus(j.status_code) ? 'job.active' : 'job.final';
    item.command = { command: AgentCommands.openJob, title: 'Open Job', arguments: [this] };
    return item;
  }
}
