/**
 * Watches jobs until they finish: one timer, at most one poll in flight, and events for the status bar
 * and notifications. Knows nothing of VS Code; time and the service come in through `Clock` and
 * `JobStatusSource`.
 *
 * One watcher serves the status bar (watched jobs) and the views that keep running jobs up to date
 * (tracked jobs): a job both shown and watched is polled once, in the same bulk request.
 *
 * Rules: nothing is polled when nothing is watched or every watched job is final (or lost); final jobs
 * are never polled again; a poll never starts while another is in flight (no timer is armed while a
 * request is out; the next one is armed when it ends). Timing lives in `pollSchedule.ts`, bulk and
 * per-job fetching in `statusFetcher.ts`.
 */
import { Emitter } from './emitter';
import { applyOutcome, type JobRecord, publicJob, retryAfterOf, type Transition } from './watchRecords';
import { parseWatchState, serializeJobs, type SerializedWatchState } from './persistence';
import { clampInterval, type LastPoll, nextPollAt, pollDelay, type PollTiming, pollTiming } from './pollSchedule';
import { type JobOutcome, StatusFetcher } from './statusFetcher';
import { isFinalStatus } from '../jobStatus';
import { isPolled, summarize } from './summary';
import {
  type Clock,
  type JobStatusSource,
  type JobWatcherOptions,
  type JobWatchSummary,
  realClock,
  type Subscription,
  type WatchedJob,
  type WatchRequest,
} from './types';

interface Poll {
  promise: Promise<void>;
  abort: AbortController;
}

/** The watched jobs and their polling. Dispose it to stop every timer and request. */
export class JobWatcher {
  private readonly records = new Map<string, JobRecord>();
  private readonly changed = new Emitter<[]>();
  private readonly transitioned = new Emitter<[job: WatchedJob, from: number | undefined, to: number]>();
  private readonly updated = new Emitter<[jobs: readonly WatchedJob[]]>();
  private timing: PollTiming;
  private fetcher: StatusFetcher;
  private focused = true;
  private paused = false;
  /** Views (owners) that are hidden: jobs only they track are not polled meanwhile. */
  private readonly pausedTrackers = new Set<string>();
  private trackIntervalMs: number | undefined;
  private failures = 0;
  private retryAfterMs = 0;
  /** A job without a status waits for its first answer: poll soon rather than at the next interval. */
  private soon = false;
  private lastPoll: LastPoll | undefined;
  private timer: unknown;
  private timerAt: number | undefined;
  private poll: Poll | undefined;
  /** Bumped to disown a poll in flight (source changed, nothing left to poll, disposed). */
  private generation = 0;
  private disposed = false;

  constructor(source: JobStatusSource, options: JobWatcherOptions, private readonly clock: Clock = realClock) {
    this.fetcher = new StatusFetcher(source);
    this.timing = pollTiming(options);
  }

  /** Starts watching a job; watching it again keeps its place and revives it if the service had lost it. */
  watch(request: WatchRequest): void {
    if (this.disposed) return;
    const id = request.id.trim();
    if (!id) throw new TypeError('A job ID is required to watch a job.');
    const existing = this.records.get(id);
    if (existing) {
      existing.label = request.label ?? existing.label;
      existing.agentId = request.agentId ?? existing.agentId;
      existing.group = request.group ?? existing.group;
      existing.createdAt ??= request.createdAt;
      if (!existing.watched) existing.watchedAt = this.clock.now();
      existing.watched = true;
      if (existing.notFound) this.revive(existing);
    } else {
      this.add(request, id, true);
    }
    this.changed.fire();
    this.schedule();
  }

  /**
   * Keeps jobs up to date for a view (`owner`) without showing them in the status bar: they ride in
   * the same bulk request as the watched jobs. Their status changes come through `onDidTransition`.
   */
  track(owner: string, requests: readonly WatchRequest[]): void {
    if (this.disposed) return;
    for (const request of requests) {
      const id = request.id.trim();
      if (!id) continue;
      const existing = this.records.get(id);
      if (existing) existing.trackers.add(owner);
      else this.add(request, id, false).trackers.add(owner);
    }
    this.schedule();
  }

  /** A view no longer shows these jobs (all of the owner's when `ids` is absent). */
  untrack(owner: string, ids?: readonly string[]): void {
    let removed = false;
    for (const job of [...this.records.values()]) {
      if ((ids && !ids.includes(job.id)) || !job.trackers.delete(owner)) continue;
      if (!job.watched && job.trackers.size === 0) removed = this.records.delete(job.id) || removed;
    }
    if (removed) this.afterRemoval(false);
  }

  /** True when the user watches the job (as opposed to a view tracking it). */
  isWatched(id: string): boolean {
    return this.records.get(id)?.watched === true;
  }

  /** A view tracking jobs is hidden (or the window unfocused): jobs only it needs are not polled meanwhile. */
  setTrackingPaused(owner: string, paused: boolean): void {
    if (paused === this.pausedTrackers.has(owner)) return;
    if (paused) this.pausedTrackers.add(owner);
    else this.pausedTrackers.delete(owner);
    this.schedule();
  }

  /** How often tracked jobs are brought up to date; the one timer runs at the shorter of the two intervals in use. */
  setTrackingIntervalMs(ms: number): void {
    this.trackIntervalMs = clampInterval(ms);
    this.schedule();
  }

  private add(request: WatchRequest, id: string, watched: boolean): JobRecord {
    const status = Number.isInteger(request.status) ? request.status : undefined;
    // Fields picked one by one: callers may pass a whole job object, which must not end up in the stored state.
    const { label, agentId, createdAt, group } = request;
    const job: JobRecord = { id, label, agentId, group, createdAt, status, watchedAt: this.clock.now(), misses: 0, watched, trackers: new Set() };
    this.records.set(id, job);
    if (status === undefined) this.soon = true;
    return job;
  }

  /** Stops watching one job. */
  unwatch(id: string): void {
    const job = this.records.get(id.trim());
    if (job?.watched) this.stopWatching([job]);
  }

  /** Stops watching every job. */
  unwatchAll(): void {
    this.stopWatching([...this.records.values()].filter((job) => job.watched));
  }

  /**
   * Removes the jobs that are over: final, or no longer known to the service. With `before` (a time
   * out, not the user's Dismiss), only those over for the user before then — counted from when they
   * were watched or seen finished, whichever is later (a job watched by ID after it ended is new to
   * the user now, whenever the service finished it) — and whose result the user has seen.
   */
  dismissFinished(before?: number): void {
    const over = (job: JobRecord): boolean => before === undefined || (!job.unseen && Math.max(job.watchedAt, job.seenFinishedAt ?? job.watchedAt) < before);
    this.stopWatching([...this.records.values()].filter((job) => job.watched && !isPolled(job) && over(job)));
  }

  /** The user looked at the job (opened its view): its result is no longer offered as unseen. */
  markSeen(id: string): void {
    const job = this.records.get(id.trim());
    if (!job?.unseen) return;
    job.unseen = undefined;
    this.changed.fire();
  }

  /** The watched jobs, in the order they were first watched (copies). */
  jobs(): readonly WatchedJob[] {
    return [...this.records.values()].filter((job) => job.watched).map(publicJob);
  }

  /** Jobs a view still tracks stay (and stay polled); the others go. */
  private stopWatching(jobs: readonly JobRecord[]): void {
    if (jobs.length === 0) return;
    for (const job of jobs) {
      job.watched = false;
      if (job.trackers.size === 0) this.records.delete(job.id);
    }
    this.afterRemoval(true);
  }

  /** Counts and the status bar text, as of now. */
  summary(): JobWatchSummary {
    return summarize(this.jobs(), this.clock.now());
  }

  /** The window gained or lost focus; polling slows down by `unfocusedFactor` while unfocused. */
  setFocused(focused: boolean): void {
    if (focused === this.focused) return;
    this.focused = focused;
    // Re-timed from the last poll: coming back after a long while polls at once.
    this.schedule();
  }

  /**
   * Paused, nothing is polled at all (the view showing these jobs is hidden); resuming polls at once
   * if a poll is overdue. A poll already in flight finishes.
   */
  setPaused(paused: boolean): void {
    if (paused === this.paused) return;
    this.paused = paused;
    if (paused) this.clearTimer();
    else this.schedule();
  }

  /** The interval setting changed (at least 1 s). */
  setIntervalMs(ms: number): void {
    this.timing = { ...this.timing, intervalMs: clampInterval(ms) };
    this.schedule();
  }

  /** The connection changed: forgets what the old server supported, its errors and lost jobs, and polls soon. */
  setSource(source: JobStatusSource): void {
    if (this.disposed) return;
    this.cancelPoll();
    this.fetcher = new StatusFetcher(source);
    this.failures = 0;
    this.retryAfterMs = 0;
    let revived = false;
    for (const job of this.records.values()) {
      if (!job.notFound && job.lastError === undefined) continue;
      this.revive(job);
      revived = true;
    }
    this.soon = true;
    if (revived) this.changed.fire();
    this.schedule();
  }

  /** Polls now (the user asked); joins the poll in flight instead of starting a second one. */
  refreshNow(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    return this.poll?.promise ?? this.startPoll();
  }

  /** Fires after anything shown changed: jobs added or removed, statuses, errors. */
  onDidChange(listener: () => void): Subscription {
    return this.changed.on(listener);
  }

  /** Fires once per status change seen, RETRY included; `from` is undefined for a job's first status. */
  onDidTransition(listener: (job: WatchedJob, from: number | undefined, to: number) => void): Subscription {
    return this.transitioned.on(listener);
  }

  /**
   * Fires once per poll with every job (watched or tracked) whose status, times, error or "not found"
   * changed: what a store needs to keep every place a job appears up to date.
   */
  onDidUpdate(listener: (jobs: readonly WatchedJob[]) => void): Subscription {
    return this.updated.on(listener);
  }

  /** The watched jobs as plain JSON, for the extension's workspace or global state. */
  serialize(): SerializedWatchState {
    return serializeJobs(this.jobs());
  }

  /** Adds the jobs of stored data (any version, garbage ignored) after those already watched; returns how many were added. */
  restore(data: unknown): number {
    if (this.disposed) return 0;
    let added = 0;
    for (const job of parseWatchState(data, this.clock.now())) {
      const existing = this.records.get(job.id);
      if (existing?.watched) continue;
      if (existing) existing.watched = true;
      else this.records.set(job.id, { ...job, misses: 0, watched: true, trackers: new Set() });
      added++;
      if (isPolled(job)) this.soon = true;
    }
    if (added > 0) {
      this.changed.fire();
      this.schedule();
    }
    return added;
  }

  /** Cancels the timer and any request in flight and drops listeners; `jobs()` and `serialize()` still answer. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.cancelPoll();
    this.clearTimer();
    this.changed.clear();
    this.transitioned.clear();
    this.updated.clear();
  }

  /** Gives a job a fresh start: polled again, its old errors forgotten. */
  private revive(job: JobRecord): void {
    if (job.notFound) this.soon = true;
    job.notFound = undefined;
    job.lastError = undefined;
    job.misses = 0;
  }

  private afterRemoval(shown: boolean): void {
    if (!this.hasPolledJobs()) {
      this.cancelPoll();
      this.soon = false;
    }
    this.schedule();
    if (shown) this.changed.fire();
  }

  /** Polled now: not final, and watched — or tracked while the views tracking it are shown. */
  private isDue(job: JobRecord): boolean {
    return isPolled(job) && (job.watched || [...job.trackers].some((owner) => !this.pausedTrackers.has(owner)));
  }

  private hasPolledJobs(): boolean {
    for (const job of this.records.values()) if (this.isDue(job)) return true;
    return false;
  }

  /** The interval of the kinds of jobs being polled: the shorter one when both are. */
  private currentTiming(): PollTiming {
    if (this.trackIntervalMs === undefined) return this.timing;
    const due = [...this.records.values()].filter((job) => this.isDue(job));
    const intervals = [
      ...(due.some((job) => job.watched) ? [this.timing.intervalMs] : []),
      ...(due.some((job) => !job.watched) ? [this.trackIntervalMs] : []),
    ];
    return intervals.length ? { ...this.timing, intervalMs: Math.min(...intervals) } : this.timing;
  }

  /** Arms the one timer for the next poll, or none when nothing needs polling. */
  private schedule(): void {
    if (this.disposed || this.poll) return;
    if (this.paused || !this.hasPolledJobs()) {
      this.clearTimer();
      return;
    }
    const now = this.clock.now();
    const delay = pollDelay(this.currentTiming(), this.focused, this.failures, this.retryAfterMs);
    const at = nextPollAt(now, delay, this.lastPoll, this.soon);
    // An earlier "soon" timer stays: a stream of watch() calls must not keep pushing the first poll away.
    if (this.timerAt !== undefined && (this.timerAt === at || (this.soon && this.timerAt < at))) return;
    this.clearTimer();
    this.timerAt = at;
    this.timer = this.clock.setTimeout(() => {
      this.timerAt = undefined;
      void this.startPoll();
    }, at - now);
  }

  private startPoll(): Promise<void> {
    this.clearTimer();
    const ids = [...this.records.values()].filter((job) => this.isDue(job)).map((job) => job.id);
    if (ids.length === 0 || this.disposed) return Promise.resolve();
    this.soon = false;
    const generation = ++this.generation;
    const abort = new AbortController();
    const startedAt = this.clock.now();
    const asErrors = (error: unknown): JobOutcome[] => ids.map((id) => ({ kind: 'error', id, error }));
    const promise = this.fetcher
      .fetch(ids, abort.signal)
      .catch(asErrors)
      .then((outcomes) => {
        if (generation !== this.generation) return;
        this.poll = undefined;
        this.lastPoll = { startedAt, finishedAt: this.clock.now() };
        this.apply(outcomes);
        this.schedule();
      });
    this.poll = { promise, abort };
    return promise;
  }

  /** Applies a poll's answers, updates the backoff, then tells listeners. */
  private apply(outcomes: JobOutcome[]): void {
    const now = this.clock.now();
    const transitions: Transition[] = [];
    let changed = false;
    let firstError: unknown;
    let answered = false;
    const updated: WatchedJob[] = [];
    for (const outcome of outcomes) {
      if (outcome.kind === 'error') firstError ??= outcome.error;
      else answered = true;
      const job = this.records.get(outcome.id);
      if (!job) continue; // unwatched while the request was out
      const result = applyOutcome(job, outcome, now);
      changed ||= result.changed && job.watched;
      if (result.changed) updated.push(publicJob(job));
      if (result.transition) transitions.push(result.transition);
    }
    // Any answer from the service counts as success: per-job mode may fail for some jobs only.
    this.failures = answered ? 0 : this.failures + 1;
    this.retryAfterMs = answered ? 0 : retryAfterOf(firstError);
    // A watched job that finished while watched waits for the user to look (a batch is shown as a whole, not job by job).
    for (const { job, from, to } of transitions) if (job.watched && !job.group && from !== undefined && isFinalStatus(to)) job.unseen = true;
    for (const { job, from, to } of transitions) this.transitioned.fire(publicJob(job), from, to);
    if (updated.length) this.updated.fire(updated);
    if (changed) this.changed.fire();
  }

  private cancelPoll(): void {
    this.generation++;
    this.poll?.abort.abort();
    this.poll = undefined;
  }

  private clearTimer(): void {
    if (this.timerAt === undefined) return;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = undefined;
  }
}
