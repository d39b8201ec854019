import * as vscode from 'vscode';
import type { AgentJob } from '../../core/client';
import type { ComparisonRecord, ComparisonService, Grounds, SessionPhase } from '../core';
import { JobStatus, isFinalStatus } from '../../core/jobStatus';
import type { JobChange } from '../../core/store/jobFollower';
import type { JobFollowing } from '../../core/store/lazyFollower';
import type { Connection } from '../connection/connection';
import { isWorkspaceTrusted } from '../commands/workspaceTrust';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import { Disposable } from '../util/disposable';
import { PICKED_IN, target } from '../util/picked';
import { isCancellation, messageOf } from '../util/errors';
import type { ComparisonPanel } from './comparisonPanel';
import { comparisonFileSaver, type ComparisonFileSaver } from './comparisonFile';
import { comparisonLockHolder, takeComparisonLock, type ComparisonLock } from './comparisonLock';
import { askToStart, confirmCancel, sessionService, decideLostBatches, requireTrust, type LostBatchChoice } from './comparisonPrompts';
import { TestSetFollower } from './testSetFollower';

export type { LostBatchChoice } from './comparisonPrompts';

/** What a session needs from the rest of the extension. */
export interface SessionDeps {
  connection: Connection;
  /** A follower of the connection's jobs for one session (it is disposed with the session); one opened signed out follows from the sign-in on. */
  followJobs(owner: string): JobFollowing;
  log: Log;
  /** Shows jobs a comparison just started at the top of the agent's Jobs list. */
  jobsStarted(agentId: string, jobs: readonly AgentJob[]): void;
  /** Reads an agent's Jobs list again (after a lost answer). */
  readJobsAgain(agentId: string): void;
}

/** How Resume and Cancel are answered without dialogs (tests, commands that already asked). */
export interface ActOptions {
  lostBatches?: LostBatchChoice;
  /** The user already said yes (the confirmation is not shown again). */
  confirmed?: boolean;
  /**
   * What the confirmation its command asked granted (a trial's: the real agent of its baseline, and its
   * own copies); without it a confirmed Resume grants the agents the comparison starts on.
   */
  grounds?: Grounds;
}

const RENDER_MS = 200;
const READ_MS = 300;
/** How often a comparison another window runs is asked whether that window let go of it. */
const ELSEWHERE_MS = 3000;

/**
 * One open comparison: its record (the file), and the work left on it. Opening shows it and nothing
 * more; Resume and Cancel act, after the user confirms, in a trusted workspace, holding the file's
 * writer lock. Statuses come from the connection's job follower; results are read in bulk.
 */
export class ComparisonSession extends Disposable {
  private phase: SessionPhase = { kind: 'stopped' };
  private stopStarting: AbortController | undefined;
  /** Aborted when the view goes (like a closed window): requests in flight are dropped. */
  private readonly lifetime = new AbortController();
  private startPromise: Promise<void> | undefined;
  private starting = false;
  private readTimer: NodeJS.Timeout | undefined;
  private elsewhereTimer: NodeJS.Timeout | undefined;
  private renderTimer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;
  private endNotification: (() => void) | undefined;
  private notificationText: ((text: string) => void) | undefined;
  private readonly saver: ComparisonFileSaver;
  private readonly jobs: JobFollowing;
  private lock: ComparisonLock | undefined;
  private taking: Promise<ComparisonLock> | undefined;
  private readonly testSet: TestSetFollower;
  /** What the user's yes to starting it granted: the agents it runs on (none until Resume is confirmed). */
  private grounds: Grounds = {};

  constructor(
    readonly document: vscode.TextDocument,
    public record: ComparisonRecord,
    private readonly panel: ComparisonPanel,
    private readonly deps: SessionDeps,
    private readonly lockDir: string,
  ) {
    super();
    this.jobs = deps.followJobs(`comparison:${document.uri.toString()}`);
    this.register(this.jobs);
    const changes = this.jobs.onDidChange((change) => this.onChange(change));
    this.saver = comparisonFileSaver(document, () => this.record, () => this.lock?.check() ?? Promise.reject(new Error('this window does not hold the comparison file')));
    this.register({ dispose: () => changes.dispose() });
    this.register({ dispose: () => clearTimeout(this.readTimer) });
    this.register({ dispose: () => clearTimeout(this.renderTimer) });
    this.register({ dispose: () => clearTimeout(this.elsewhereTimer) });
    this.register(vscode.workspace.onDidChangeTextDocument((e) => {
      // An edit that is not ours (undo in a text editor, a checkout) is taken when nothing runs.
      if (e.document === document && (this.phase.kind === 'stopped' || this.phase.kind === 'elsewhere') && !this.saver.isOurs(document.getText())) this.reloadFromText();
    }));
    this.render(true);
    // The labels shown are the test set's own, as it is now and as it changes.
    this.testSet = this.register(new TestSetFollower(document.uri, record.testSet, (text) => this.takeExpectations(text)));
    void this.followOnOpen().catch((error: unknown) => deps.log.error(`Comparison ${document.uri.fsPath}: following its jobs failed`, error));
  }

  /** What the session is doing now. */
  get state(): SessionPhase {
    return this.phase;
  }

  /**
   * Starts the cases that have no job and follows the jobs it has, once the user says so: a trusted
   * workspace, no other window running it, one confirmation naming the jobs, what is left out and the
   * files, this window holding the file. The checks come before the question, so its counts are true.
   */
  async resume(options: ActOptions = {}): Promise<void> {
    if ((this.phase.kind === 'working' && !this.phase.followOnly) || this.isDisposed) return;
    const core = loadCore();
    if (core.isComplete(this.record)) return;
    requireTrust('Resuming a comparison');
    if (!(await this.notElsewhere())) return;
    const consented = await askToStart(this.record, this.deps.connection.requireClient(), this.lifetime.signal, options.confirmed ?? false);
    if (!consented || !(await this.holdLock())) return;
    this.grounds = options.grounds ?? consented;
    if (this.record.pending.length > 0 && !(await this.lostBatches(options.lostBatches))) return;
    this.phase = { kind: 'working' };
    this.stopStarting = new AbortController();
    this.showNotification();
    this.render();
    this.starting = true;
    try {
      await this.saver.flush();
      this.follow();
      this.scheduleRead(0);
      this.startPromise = core.startMissing(this.record, this.service(), () => this.saver.flush(), this.stopStarting.signal, {
        onStarted: (_count, ids, agentId) => this.started(ids, agentId),
        onTargetFailed: (targetId, reason) => this.targetFailed(targetId, reason),
        onInFlight: (batches) => {
          if (this.phase.kind === 'working') this.phase = { kind: 'working', inFlight: batches.length };
          this.render();
        },
      });
      await this.startPromise;
      this.starting = false;
      this.follow();
      this.scheduleRead(0);
      this.checkDone();
    } catch (error) {
      this.starting = false;
      if (error instanceof core.BatchOutcomeUnknown) {
        this.stop(`${error.message} It was not sent again; Resume to decide what to do with its cases.`);
        this.deps.readJobsAgain(this.record.agentId);
        return;
      }
      this.stop(isCancellation(error) ? 'cancelled.' : messageOf(error), isCancellation(error) ? undefined : error);
    }
  }

  /**
   * On opening: a comparison another window runs is followed read-only through its file; one whose jobs
   * this window started before a reload is followed without asking (reading statuses and results starts
   * nothing). Only in a trusted workspace, when connected.
   */
  private async followOnOpen(): Promise<void> {
    if (!(await this.notElsewhere(false)) || !isWorkspaceTrusted() || this.phase.kind !== 'stopped') return;
    const left = loadCore().workLeft(this.record);
    if ((left.unfinished === 0 && left.unread === 0) || this.record.pending.length > 0 || !this.connected()) return;
    if (!(await this.holdLock()) || this.phase.kind !== 'stopped') return;
    this.phase = { kind: 'working', followOnly: true };
    this.follow();
    this.scheduleRead(0);
    this.render();
  }

  private connected(): boolean {
    try {
      this.deps.connection.requireClient();
      return true;
    } catch {
      return false;
    }
  }

  /** Whether no other window runs this comparison; when one does, says so and follows its file until it lets go. */
  private async notElsewhere(tell = true): Promise<boolean> {
    const holder = await comparisonLockHolder(this.lockDir, this.document.uri.fsPath);
    if (this.isDisposed) return false;
    if (!holder) {
      if (this.phase.kind === 'elsewhere') this.phase = { kind: 'stopped' };
      return true;
    }
    this.phase = { kind: 'elsewhere', by: `Another VS Code window (extension host process ${holder.pid}) is running this comparison.` };
    if (tell) this.panel.notice('Another VS Code window is running this comparison: this one follows it and starts nothing.', true);
    clearTimeout(this.elsewhereTimer);
    this.elsewhereTimer = setTimeout(() => void this.notElsewhere(false).then((free) => free && this.render()), ELSEWHERE_MS);
    this.render(true);
    return false;
  }

  /** Cancels this agent's jobs of the comparison that have not finished (after confirming the count), and starts nothing more. */
  async cancel(options: ActOptions = {}): Promise<number> {
    requireTrust('Cancelling the jobs of a comparison');
    this.stopStarting?.abort();
    // A batch in flight is let finish, so its jobs are known and cancelled too (never left running unseen).
    await this.startPromise?.catch(() => undefined);
    const core = loadCore();
    const { ids, foreign } = await core.jobsToCancel(this.record, this.service(), this.lifetime.signal);
    if (foreign.length) this.deps.log.warn(`Comparison ${this.document.uri.fsPath}: left alone ${foreign.length} job id(s) that are not jobs of agent ${this.record.agentId}: ${foreign.join(', ')}`);
    if (ids.length && !options.confirmed && !(await confirmCancel(this.record, ids.length, foreign))) return 0;
    if (!(await this.holdLock())) return 0;
    // The jobs the view shows and the question counted (each read as this agent's) are what the user picked.
    const client = this.deps.connection.requireClient();
    const shown = core.confirmedGrounds(client.gate, ids.map(target.job), PICKED_IN.comparisonView);
    const count = await core.cancelJobs(ids, sessionService(() => client, this.lifetime.signal, shown), this.lifetime.signal);
    this.stop('cancelled.');
    // What the service did is read, not assumed: the next poll brings the cancelled statuses.
    this.follow();
    void this.jobs.refreshNow();
    const left = foreign.length ? ` ${foreign.length} job id${foreign.length === 1 ? ' is' : 's are'} not of ${this.record.agentName ?? this.record.agentId} and ${foreign.length === 1 ? 'was' : 'were'} left alone: ${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? '…' : ''}.` : '';
    this.panel.notice(`Asked the service to cancel ${count} job${count === 1 ? '' : 's'}.${left}`);
    return count;
  }

  /** Removes a target (one that failed, say) and its runs from the comparison. */
  async dropTarget(index: number): Promise<void> {
    const target = this.record.targets[index];
    if (!target) return;
    if (this.phase.kind === 'working') throw new Error('Cancel or wait for the comparison to stop before dropping a target.');
    if (!(await this.holdLock())) return;
    loadCore().dropTarget(this.record, target.id);
    await this.saver.flush();
    this.render(true);
  }

  /**
   * Takes what the test set's text expects of each case (a label written here or elsewhere): the
   * figures follow at once, no job runs. The record keeps the copy, written with it when this window
   * writes the file.
   */
  takeExpectations(text: string): void {
    if (this.isDisposed) return;
    const changed = loadCore().syncExpectations(this.record, this.record.testSet.split('/').pop() ?? this.record.testSet, text);
    if (changed.length === 0) return;
    if (this.lock) this.saver.schedule();
    this.render(true);
  }

  /** Answers the labelling pass of the page (see ComparisonPanel.passAnswer). */
  passAnswer(answer: Parameters<ComparisonPanel['passAnswer']>[0]): void {
    this.panel.passAnswer(answer);
  }

  /** A sentence under the table. */
  notice(text: string, error = false): void {
    this.panel.notice(text, error);
  }

  /** What the page was last sent (tests read the figures from it). */
  get shown(): ReturnType<ComparisonPanel['lastShown']> {
    return this.panel.lastShown();
  }

  /** Writes the record now (waits for any write in progress). */
  save(): Promise<void> {
    return this.saver.flush();
  }

  override dispose(): void {
    // Like a closed window: a request in flight is dropped (its batch stays marked in the file).
    this.lifetime.abort();
    this.endNotification?.();
    void this.lock?.release().catch(() => undefined);
    super.dispose();
  }

  private async holdLock(): Promise<boolean> {
    if (this.lock) return true;
    // One taking at a time: following on open and Resume may both ask for it.
    this.taking ??= takeComparisonLock(this.lockDir, this.document.uri.fsPath).finally(() => (this.taking = undefined));
    try {
      this.lock = await this.taking;
      return true;
    } catch (error) {
      this.stop(messageOf(error).replace(/^Not started: /, ''), error);
      return false;
    }
  }

  private async lostBatches(choice: LostBatchChoice | undefined): Promise<boolean> {
    this.deps.readJobsAgain(this.record.agentId);
    const decided = await decideLostBatches(this.record, choice, (iso) => this.jobsCreatedSince(iso));
    if (decided === 'notStarted') {
      for (const batch of [...this.record.pending]) loadCore().dropPending(this.record, batch);
      await this.saver.flush();
    }
    this.render();
    // Leaving them keeps the batches marked: the other cases go on, those ones are never sent again.
    return decided !== undefined;
  }

  private async jobsCreatedSince(iso: string): Promise<string> {
    try {
      const page = await this.deps.connection.requireClient().jobs.list(this.record.agentId, { created_from: iso, page_size: 100 });
      const n = page.count;
      return `${n} job${n === 1 ? '' : 's'} created since the request was sent`;
    } catch (error) {
      return `they could not be read (${messageOf(error)})`;
    }
  }

  private targetFailed(targetId: string, reason: string): void {
    const label = this.record.targets.find((t) => t.id === targetId)?.label ?? targetId;
    this.deps.log.warn(`Comparison ${this.document.uri.fsPath}: target "${label}" failed: ${reason}`);
    this.panel.notice(`"${label}" runs nothing more: ${reason} The other targets go on; its cases are marked failed (Drop it in its card to leave it out).`, true);
    this.render();
  }

  /** Jobs just started on an agent (the comparison's, or a trial's copy): followed, and on top of that agent's Jobs list. */
  private started(ids: readonly string[], agentId: string): void {
    const now = new Date().toISOString();
    this.jobs.follow(ids.map((id) => ({ id, agentId, status: JobStatus.PENDING, createdAt: now })));
    this.deps.jobsStarted(agentId, ids.map((id): AgentJob => ({ id, status_code: JobStatus.PENDING, created_at: now, status_events: [], metadata: {} })));
    this.render();
  }

  /** The client as the runner needs it, with what the user's yes granted; file inputs go only from inside the workspace. Requests end with the view, not with Cancel. */
  private service(): ComparisonService {
    return sessionService(() => this.deps.connection.requireClient(), this.lifetime.signal, this.grounds);
  }

  /** Hands the jobs not final yet to the follower (polled in the connection's one bulk status request). */
  private follow(): void {
    const core = loadCore();
    const ids = core.unfinishedJobIds(this.record);
    const agents = core.jobAgents(this.record);
    if (ids.length) this.jobs.follow(ids.map((id) => ({ id, agentId: agents.get(id) ?? this.record.agentId })));
  }

  private onChange(change: JobChange): void {
    if (this.isDisposed) return;
    const core = loadCore();
    if (change.notFound) {
      // Never final by itself: the job becomes a failed case with the reason, and is followed no more.
      core.applyToRuns(this.record, change.id, { error: change.lastError ?? 'The service does not know this job any more.' });
      this.jobs.unfollow([change.id]);
    } else if (change.status !== undefined) {
      const changed = core.applyStatuses(this.record, [{ id: change.id, status: change.status, createdAt: change.createdAt, lastUpdatedAt: change.lastUpdatedAt, errorMessage: change.errorMessage }]);
      if (!changed) return;
      if (isFinalStatus(change.status)) {
        this.jobs.unfollow([change.id]);
        this.scheduleRead(READ_MS);
      }
    } else return;
    this.saver.schedule();
    this.render();
    this.checkDone();
  }

  /** Reads the results of finished jobs in bulk, a little after they finish (several per request). */
  private scheduleRead(ms: number): void {
    if (this.readTimer) return;
    this.readTimer = setTimeout(() => {
      this.readTimer = undefined;
      void this.readNow();
    }, ms);
  }

  private async readNow(): Promise<void> {
    if (this.reading) return this.reading.then(() => this.scheduleRead(0));
    this.reading = (async () => {
      try {
        await loadCore().readResults(this.record, this.service(), this.lifetime.signal);
        this.saver.schedule();
      } catch (error) {
        if (this.phase.kind === 'working') this.stop(`results could not be read: ${messageOf(error)}; they are read again on Resume.`, error);
      } finally {
        this.reading = undefined;
      }
      this.render();
      this.checkDone();
    })();
    return this.reading;
  }

  private checkDone(): void {
    if (this.phase.kind !== 'working' || this.starting || !loadCore().isComplete(this.record)) return;
    this.stop('every job is finished and read.');
  }

  /** Stops with the reason (every stop says why, in the view and the log). */
  private stop(reason: string, cause?: unknown): void {
    this.phase = { kind: 'stopped', reason };
    const where = `Comparison ${this.document.uri.fsPath} stopped: ${reason}`;
    if (cause !== undefined) this.deps.log.error(where, cause);
    else this.deps.log.info(where);
    this.stopStarting = undefined;
    this.endNotification?.();
    this.endNotification = undefined;
    if (this.lock) void this.saver.flush().catch((error: unknown) => this.deps.log.error(`Comparison ${this.document.uri.fsPath}: the file could not be written`, error));
    this.render();
  }

  private showNotification(): void {
    if (this.endNotification) return;
    const done = new Promise<void>((resolve) => (this.endNotification = resolve));
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Comparison "${this.record.title}"`, cancellable: true },
      (progress, token) => {
        token.onCancellationRequested(() => void this.cancel().catch((error: unknown) => this.deps.log.error('Comparison: cancel failed', error)));
        this.notificationText = (message) => progress.report({ message });
        return done;
      },
    );
  }

  private reloadFromText(): void {
    try {
      this.record = loadCore().parseComparison(this.document.getText());
      this.render(true);
      void this.testSet.readNow();
    } catch (error) {
      this.panel.notice(messageOf(error), true);
    }
  }

  /** Sends the page what it shows, at most every 200 ms while jobs move. */
  private render(now = false): void {
    if (now) {
      clearTimeout(this.renderTimer);
      this.renderTimer = undefined;
      this.paint();
      return;
    }
    this.renderTimer ??= setTimeout(() => {
      this.renderTimer = undefined;
      this.paint();
    }, RENDER_MS);
  }

  private paint(): void {
    if (this.isDisposed) return;
    const core = loadCore();
    const view = core.comparisonView(this.record);
    const progress = core.progressView(this.record, this.phase);
    if (progress) this.notificationText?.(progress.text);
    const r = this.record;
    const subtitle = [r.agentName ?? r.agentId, `test set ${r.testSet}`, `${r.cases.length} cases`, `created ${r.createdAt.slice(0, 16).replace('T', ' ')}`].join(' · ');
    this.panel.show({ title: r.title, subtitle, keys: r.keys, ...view, progress });
  }
}
