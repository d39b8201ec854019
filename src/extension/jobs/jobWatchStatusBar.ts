import * as vscode from 'vscode';
import { JobStatus, isFinalStatus } from '../../core/jobStatus';
import { type JobWatcher, elapsedText, isPolled, jobFullTitle, jobTitle, statusWord, summarize, withRecordTimes, type WatchedJob } from '../../core/jobWatch';
import { shownWatchedJob } from '../agents/jobPresentation';
import { AgentCommands } from '../constants';
import type { Stores } from '../store/stores';
import { Disposable } from '../util/disposable';
import type { Ticker } from '../util/ticker';

/** A finished job leaves the status bar this long after it ended (the notification told about it; the job stays in its list). */
export const FINISHED_JOBS_KEPT_MS = 10 * 60_000;

/**
 * Watched jobs at a glance in the status bar: one job's status and elapsed time, or counts for several,
 * spinning while any runs; a notification when one finishes (and while it retries). The list survives
 * a window reload; polling follows the job watcher's rules (one bulk request per interval, slower when
 * unfocused or failing, none when nothing runs).
 */
export class JobWatchStatusBar extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem('agentWorkbench.jobWatch', vscode.StatusBarAlignment.Left, 9));
  private ticking: vscode.Disposable | undefined;
  private shown = false;
  private subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly stores: Stores,
    private readonly ticker: Ticker,
  ) {
    super();
    this.item.name = 'Agent Workbench Watched Jobs';
    this.item.command = AgentCommands.showWatchedJobs;
    this.register({ dispose: () => this.setTicker(false) });
    // Finished jobs do not pile up in the status bar: each goes a while after it ended.
    this.register(ticker.every(30_000, () => {
      this.watcher?.dismissFinished(Date.now() - FINISHED_JOBS_KEPT_MS);
    }));
    this.register({ dispose: () => this.unlisten() });
    this.register(stores.onDidSwitch(() => this.listen()));
    this.listen();
  }

  /** What the item says now ('' while hidden), as a person reads it in the status bar. */
  get text(): string {
    return this.shown ? this.item.text : '';
  }

  /** The watched jobs of the current connection (an empty list while signed out). */
  get watcher(): JobWatcher | undefined {
    return this.stores.current?.watcher;
  }

  private unlisten(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.subscriptions = [];
  }

  private listen(): void {
    this.unlisten();
    const watcher = this.watcher;
    this.subscriptions = watcher ? [watcher.onDidChange(() => this.render()), watcher.onDidTransition((job, from, to) => this.notify(watcher, job, from, to))] : [];
    // A record read later (a job watched by ID) brings the times its "took" needs.
    const store = this.stores.current;
    if (store) this.subscriptions.push(store.onDidChange((change) => watcher && [...change.jobs].some((id) => watcher.jobs().some((job) => job.id === id)) && this.render()));
    this.render();
  }

  private render(): void {
    const watcher = this.watcher;
    const store = this.stores.current;
    // A job watched by ID has no times of its own: its record (read by the store) gives them.
    const jobs = (watcher?.jobs() ?? []).map((job) => shownWatchedJob(store, withRecordTimes(job, store?.job(job.id))));
    this.shown = jobs.length > 0;
    if (!jobs.length) {
      this.item.hide();
      this.setTicker(false);
      return;
    }
    const summary = summarize(jobs, Date.now());
    const failed = jobs.some((j) => j.status === JobStatus.FAILURE);
    // The notification hides after a while; the item keeps saying a result waits until the user looks.
    const unseen = jobs.filter((j) => j.unseen).length;
    const waiting = unseen ? ` · ${unseen === 1 ? '1 result' : `${unseen} results`} to see` : '';
    this.item.text = `${summary.anyRunning ? '$(sync~spin)' : failed ? '$(error)' : '$(pass)'} ${summary.text}${unseen ? ` $(bell-dot)` : ''}`;
    this.item.tooltip = this.tooltip(jobs, unseen);
    this.item.accessibilityInformation = { label: `Watched jobs: ${summary.text}${waiting}` };
    this.item.backgroundColor = failed && !summary.anyRunning ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
    // The elapsed time of a single running job moves every second.
    this.setTicker(jobs.length === 1 && summary.anyRunning);
  }

  private tooltip(jobs: readonly WatchedJob[], unseen: number): vscode.MarkdownString {
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**Watched jobs**\n\n');
    const now = Date.now();
    for (const job of jobs) md.appendMarkdown('- ').appendText(`${jobFullTitle(job)} — ${statusWord(job)} · ${elapsedText(job, now)}${job.unseen ? ' · result not seen yet' : ''}`).appendMarkdown('\n');
    md.appendMarkdown(unseen ? '\nClick to show the results you have not seen, open, stop watching, or dismiss finished jobs.' : '\nClick to open, stop watching, or dismiss finished jobs.');
    return md;
  }

  private setTicker(on: boolean): void {
    if (on) this.ticking ??= this.ticker.every(1000, () => this.render());
    else {
      this.ticking?.dispose();
      this.ticking = undefined;
    }
  }

  private notify(watcher: JobWatcher, job: WatchedJob, from: number | undefined, to: number): void {
    // Jobs a view only keeps up to date are not the user's to be told about; nor is a job watched after it had finished.
    if (!watcher.isWatched(job.id) || (from === undefined && isFinalStatus(to))) return;
    if (job.group) {
      this.notifyGroup(watcher, job.group, to);
      return;
    }
    const title = this.titleOf(job);
    const show = 'Show Result';
    const actions = job.agentId ? [show] : [];
    // Opening the job view marks the result seen; until then the status bar item offers it.
    const then = (choice: string | undefined): void => {
      if (choice === show && job.agentId) void vscode.commands.executeCommand(AgentCommands.openJob, { agentId: job.agentId, jobId: job.id });
    };
    if (to === JobStatus.FAILURE) {
      void vscode.window.showErrorMessage(`Job ${title} failed${job.errorMessage ? `: ${job.errorMessage}` : '.'}`, ...actions).then(then);
    } else if (to === JobStatus.RETRY) {
      void vscode.window.showWarningMessage(`Job ${title} is retrying${job.errorMessage ? `: ${job.errorMessage}` : '.'}`, ...actions).then(then);
    } else if (isFinalStatus(to)) {
      void vscode.window.showInformationMessage(`Job ${title} finished: ${statusWord({ ...job, status: to })}.`, ...actions).then(then);
    }
  }

  /**
   * How a notification names a job: by its label, as its row does, and its agent when the label does
   * not say it ("“My router keeps restarting…” of Support Call QA").
   */
  private titleOf(job: WatchedJob): string {
    const store = this.stores.current;
    const shown = shownWatchedJob(store, job);
    const agentName = job.agentId ? store?.agent(job.agentId)?.name : undefined;
    const title = jobTitle(shown);
    return agentName && shown.label !== job.label && !title.includes(agentName) ? `${title} of ${agentName}` : title;
  }

  /** A batch is told about once, when its last job is over: how many ended how. */
  private notifyGroup(watcher: JobWatcher, group: string, to: number): void {
    if (!isFinalStatus(to)) return;
    const jobs = watcher.jobs().filter((j) => j.group === group);
    if (jobs.some(isPolled)) return;
    const summary = summarize(jobs, Date.now()).text;
    const label = jobs[0]?.label?.replace(/ · \d+\/\d+$/, '') ?? 'Batch';
    const failed = jobs.some((j) => j.status === JobStatus.FAILURE);
    const show = 'Show Jobs';
    const message = `Batch of ${jobs.length} (${label}) finished: ${summary}.`;
    void (failed ? vscode.window.showWarningMessage(message, show) : vscode.window.showInformationMessage(message, show)).then((choice) => {
      if (choice === show) void vscode.commands.executeCommand(AgentCommands.showWatchedJobs);
    });
  }
}
