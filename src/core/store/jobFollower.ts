/**
 * How a part of the extension (a job view, a comparison, a tree) follows jobs through its connection's
 * one job watcher: it names the jobs it follows and hears about those jobs only. Every follower's jobs
 * ride in the same bulk status request; a job followed by three parts is asked for once.
 */
import type { JobWatcher, Subscription, WatchedJob } from '../jobWatch';

/** A job to follow: its id and what is already known of it. */
export interface FollowRequest {
  id: string;
  agentId?: string;
  /** Last known status code (a job with none is asked for soon). */
  status?: number;
  createdAt?: string;
}

/** What changed about a followed job: its status and times, its error, or that the service stopped knowing it. */
export type JobChange = WatchedJob;

/** One part's share of the job watcher. Dispose it to stop following everything it followed. */
export class JobFollower {
  private readonly ids = new Set<string>();
  private readonly subscription: Subscription;
  private listeners: ((change: JobChange) => void)[] = [];

  constructor(
    private readonly watcher: JobWatcher,
    /** The follower's name among the watcher's trackers ("jobViews", "comparison:<file>"). */
    readonly owner: string,
  ) {
    this.subscription = watcher.onDidUpdate((jobs) => {
      for (const job of jobs) {
        if (!this.ids.has(job.id)) continue;
        for (const listener of [...this.listeners]) listener(job);
      }
    });
  }

  /** Keeps these jobs up to date, in the shared bulk request, until they are final or unfollowed. */
  follow(jobs: readonly FollowRequest[]): void {
    const fresh = jobs.filter((job) => job.id.trim() !== '');
    for (const job of fresh) this.ids.add(job.id.trim());
    // Stryker disable next-line ConditionalExpression: tracking no job only asks the watcher to reschedule, which keeps its due time.
    if (fresh.length) this.watcher.track(this.owner, fresh);
  }

  /** Stops following these jobs (every job when `ids` is absent). */
  unfollow(ids?: readonly string[]): void {
    if (ids) for (const id of ids) this.ids.delete(id);
    else this.ids.clear();
    this.watcher.untrack(this.owner, ids);
  }

  /** True while this follower follows the job. */
  follows(id: string): boolean {
    return this.ids.has(id);
  }

  /** Hears every change of a followed job (status, times, error, not found). */
  onDidChange(listener: (change: JobChange) => void): Subscription {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  }

  /** Hidden (a view not shown): jobs only this follower follows wait until it is shown again. */
  setPaused(paused: boolean): void {
    this.watcher.setTrackingPaused(this.owner, paused);
  }

  /** Asks for the statuses now (joins a poll in flight). */
  refreshNow(): Promise<void> {
    return this.watcher.refreshNow();
  }

  dispose(): void {
    this.subscription.dispose();
    // Stryker disable next-line ArrayDeclaration: the subscription is gone, so no listener is called again; this only frees them.
    this.listeners = [];
    this.ids.clear();
    this.watcher.untrack(this.owner);
  }
}
