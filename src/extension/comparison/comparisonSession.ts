import * as vscode from 'vscode';
import type { ComparisonRecord, ComparisonService, SessionPhase } from '../core';
import { isFinalStatus } from '../../core/jobStatus';
import type { JobWatcher } from '../../core/jobWatch';
import type { Connection } from '../connection/connection';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import { Disposable } from '../util/disposable';
import { isCancellation, messageOf } from '../util/errors';
import type { ComparisonPanel } from './comparisonPanel';
import { comparisonFileSaver, type ComparisonFileSaver } from './comparisonFile';

/** What to do with cases whose batch was sent but whose answer was lost. */
export type LostBatchChoice = 'notStarted' | 'leave';

/** What a session needs from the rest of the extension. */
export interface SessionDeps {
  connection: Connection;
  watcher: JobWatcher;
  log: Log;
  /** Reads an agent's Jobs list again (after a lost answer). */
  reloadJobs(agentId: string): void;
}

const RENDER_MS = 200;
const READ_MS = 300;

/**
 * One open comparison: its record (the file), and the work left on it. Starting cases goes through the
 * runner (marked in the file before each request); statuses come from the shared job watcher (one bulk
 * request per interval for every running job of every comparison and view); results are read in bulk
 * as jobs finish. The file is written after each change (debounced) and before any request that writes.
 */
export class ComparisonSession extends Disposable {
  private phase: SessionPhase = { kind: 'stopped' };
  /** Aborted by Cancel: no further batch is sent (the one in flight finishes and is recorded). */
  private stopStarting: AbortController | undefined;
  /** Aborted when the view goes (like a closed window): requests in flight are dropped. */
  private readonly lifetime = new AbortController();
  private startPromise: Promise<void> | undefined;
  private starting = false;
  private readTimer: NodeJS.Timeout | undefined;
  private renderTimer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;
  private endNotification: (() => void) | undefined;
  private notificationText: ((text: string) => void) | undefined;
  private readonly saver: ComparisonFileSaver;
  private readonly owner: string;

  constructor(
    readonly document: vscode.TextDocument,
    public record: ComparisonRecord,
    private readonly panel: ComparisonPanel,
    private readonly deps: SessionDeps,
  ) {
    super();
    this.owner = `comparison:${document.uri.toString()}`;
    this.saver = comparisonFileSaver(document, () => this.record);
    const transitions = deps.watcher.onDidTransition((job, _from, to) => this.onStatus(job.id, to, job));
    this.register({ dispose: () => transitions.dispose() });
    this.register({ dispose: () => deps.watcher.untrack(this.owner) });
    this.register({ dispose: () => clearTimeout(this.readTimer) });
    this.register({ dispose: () => clearTimeout(this.renderTimer) });
    this.register(vscode.workspace.onDidChangeTextDocument((e) => {
      // An edit that is not ours (undo in a text editor, a checkout) is taken when nothing runs.
      if (e.document === document && this.phase.kind === 'stopped' && !this.saver.isOurs(document.getText())) this.reloadFromText();
    }));
    this.render(true);
  }

  /** What the session is doing now. */
  get state(): SessionPhase {
    return this.phase;
  }

  /**
   * Starts the cases that have no job and follows the jobs it has. A batch whose answer was lost is
   * not sent again: the user decides first (or `choice` says, for tests and commands).
   */
  async resume(choice?: LostBatchChoice): Promise<void> {
    if (this.phase.kind === 'working' || this.isDisposed) return;
    const core = loadCore();
    if (core.isComplete(this.record)) return;
    if (this.record.pending.length > 0 && !(await this.decideLostBatches(choice))) return;
    this.phase = { kind: 'working' };
    this.stopStarting = new AbortController();
    this.showNotification();
    this.render();
    this.follow();
    this.starting = true;
    try {
      this.startPromise = core.startMissing(this.record, this.service(), () => this.saver.flush(), this.stopStarting.signal, () => this.render());
      await this.startPromise;
      this.starting = false;
      this.follow();
      this.scheduleRead(0);
      this.checkDone();
    } catch (error) {
      this.starting = false;
      if (error instanceof core.BatchOutcomeUnknown) {
        this.deps.log.warn(`Comparison ${this.document.uri.fsPath}: ${error.message}`);
        this.stop(`${error.message} It was not sent again.`);
        if (!this.isDisposed) void this.resumeAfterLostAnswer();
        return;
      }
      this.stop(isCancellation(error) ? 'cancelled.' : messageOf(error));
      if (!isCancellation(error)) this.deps.log.error(`Comparison ${this.document.uri.fsPath} stopped`, error);
    }
  }

  /** Cancels every job of the comparison that has not finished, and starts nothing more. */
  async cancel(): Promise<number> {
    this.stopStarting?.abort();
    // A batch in flight is let finish, so its jobs are known and cancelled too (never left running unseen).
    await this.startPromise?.catch(() => undefined);
    const count = await loadCore().cancelUnfinished(this.record, this.service(), this.lifetime.signal);
    this.stop('cancelled.');
    // What the service did is read, not assumed: the next poll brings the cancelled statuses.
    this.follow();
    void this.deps.watcher.refreshNow();
    this.panel.notice(`Asked the service to cancel ${count} job${count === 1 ? '' : 's'}.`);
    return count;
  }

  /** Writes the record now (waits for any write in progress). */
  save(): Promise<void> {
    return this.saver.flush();
  }

  override dispose(): void {
    // Like a closed window: a request in flight is dropped (its batch stays marked in the file).
    this.lifetime.abort();
    this.endNotification?.();
    super.dispose();
  }

  private async resumeAfterLostAnswer(): Promise<void> {
    await this.resume();
  }

  private async decideLostBatches(choice: LostBatchChoice | undefined): Promise<boolean> {
    const core = loadCore();
    const batches = [...this.record.pending];
    const cases = batches.reduce((n, b) => n + b.caseIndexes.length, 0);
    this.deps.reloadJobs(this.record.agentId);
    const since = await this.jobsCreatedSince(batches.map((b) => b.sentAt).sort()[0] ?? this.record.createdAt);
    const notStarted = 'Mark as Not Started';
    const leave = 'Leave Them';
    const answer =
      choice === 'notStarted'
        ? notStarted
        : choice === 'leave'
          ? leave
          : await vscode.window.showWarningMessage(
              `${cases} case${cases === 1 ? ' was' : 's were'} sent to the service, but the answer was lost: those jobs may or may not have started.`,
              {
                modal: true,
                detail: `The agent's jobs were read again: ${since}. "Mark as Not Started" starts those cases again on Resume (choose it only if the jobs are not there); "Leave Them" keeps them out of the comparison.`,
              },
              notStarted,
              leave,
            );
    if (answer === notStarted) {
      for (const batch of batches) core.dropPending(this.record, batch);
      await this.saver.flush();
    }
    this.render();
    // Leaving them keeps the batches marked: the other cases go on, those ones are never sent again.
    return answer !== undefined;
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

  /** The client as the runner needs it. Requests end only with the view, not with Cancel (see `cancel`). */
  private service(): ComparisonService {
    const client = () => this.deps.connection.requireClient();
    const signal = this.lifetime.signal;
    return {
      runMany: (agentId, inputs) => client().agents.runMany(agentId, inputs, { signal }),
      runVersion: (agentId, versionId, inputs) => client().agents.runVersion(agentId, versionId, { inputs }, { signal }),
      results: async (ids) => (await client().jobs.results(ids, { signal })).map((r) => ({ ...r, status: typeof r.status === 'number' ? r.status : null })),
      cancel: (id) => client().jobs.cancel(id, { signal }),
    };
  }

  /** Hands the jobs not final yet to the shared watcher (polled even while the Agents view is hidden). */
  private follow(): void {
    const ids = loadCore().unfinishedJobIds(this.record);
    if (ids.length) // Never paused: a comparison follows its jobs whether or not any view is shown.
      this.deps.watcher.track(this.owner, ids.map((id) => ({ id, agentId: this.record.agentId })));
  }

  private onStatus(id: string, status: number, job: { createdAt?: string; lastUpdatedAt?: string; errorMessage?: string }): void {
    if (this.isDisposed) return;
    const changed = loadCore().applyStatuses(this.record, [{ id, status, createdAt: job.createdAt, lastUpdatedAt: job.lastUpdatedAt, errorMessage: job.errorMessage }]);
    if (!changed) return;
    if (isFinalStatus(status)) {
      this.deps.watcher.untrack(this.owner, [id]);
      this.scheduleRead(READ_MS);
    }
    this.saver.schedule();
    this.render();
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
        this.deps.log.warn(`Comparison ${this.document.uri.fsPath}: results could not be read (${messageOf(error)}); they are read again on Resume.`);
        if (this.phase.kind === 'working') this.stop(`results could not be read: ${messageOf(error)}`);
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
    this.stop();
  }

  private stop(reason?: string): void {
    this.phase = { kind: 'stopped', reason };
    this.stopStarting = undefined;
    this.endNotification?.();
    this.endNotification = undefined;
    void this.saver.flush().catch((error: unknown) => this.deps.log.error('Comparison: the file could not be written', error));
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
