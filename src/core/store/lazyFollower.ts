/**
 * A follower for a part that may start while signed out (a comparison opened offline): what it is
 * asked to follow is kept until a connection's follower is there, then handed to it, once. A part
 * bound to a connection stays with it, as every follower does.
 */
import type { Subscription } from '../jobWatch';
import type { FollowRequest, JobChange, JobFollower } from './jobFollower';

/** What a part that follows jobs uses of a follower. */
export type JobFollowing = Pick<JobFollower, 'follow' | 'unfollow' | 'follows' | 'onDidChange' | 'setPaused' | 'refreshNow' | 'dispose'>;

export class LazyFollower implements JobFollowing {
  private inner: JobFollowing | undefined;
  private readonly requests = new Map<string, FollowRequest>();
  private listeners: ((change: JobChange) => void)[] = [];
  private paused = false;
  private waiting: Subscription | undefined;
  private disposed = false;

  constructor(
    /** The current connection's follower for this part, made now; undefined while signed out. */
    private readonly make: () => JobFollowing | undefined,
    /** Tells when the connection may have changed (a sign-in). */
    onSwitch: (listener: () => void) => Subscription,
  ) {
    if (!this.bind()) this.waiting = onSwitch(() => this.bind() && this.stopWaiting());
  }

  /** True once bound to a connection's follower. */
  get bound(): boolean {
    return this.inner !== undefined;
  }

  private bind(): boolean {
    if (this.disposed || this.inner) return true;
    const inner = this.make();
    if (!inner) return false;
    this.inner = inner;
    inner.onDidChange((change) => {
      const known = this.requests.get(change.id);
      if (known && change.status !== undefined) known.status = change.status;
      for (const listener of [...this.listeners]) listener(change);
    });
    if (this.paused) inner.setPaused(true);
    if (this.requests.size) inner.follow([...this.requests.values()]);
    return true;
  }

  private stopWaiting(): void {
    this.waiting?.dispose();
    this.waiting = undefined;
  }

  follow(jobs: readonly FollowRequest[]): void {
    for (const job of jobs) if (job.id.trim() !== '') this.requests.set(job.id.trim(), { ...job, id: job.id.trim() });
    this.inner?.follow(jobs);
  }

  unfollow(ids?: readonly string[]): void {
    if (ids) for (const id of ids) this.requests.delete(id);
    else this.requests.clear();
    this.inner?.unfollow(ids);
  }

  follows(id: string): boolean {
    return this.requests.has(id);
  }

  onDidChange(listener: (change: JobChange) => void): Subscription {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  }

  setPaused(paused: boolean): void {
    this.paused = paused;
    this.inner?.setPaused(paused);
  }

  refreshNow(): Promise<void> {
    return this.inner?.refreshNow() ?? Promise.resolve();
  }

  dispose(): void {
    this.disposed = true;
    this.stopWaiting();
    this.inner?.dispose();
    this.inner = undefined;
    this.listeners = [];
    this.requests.clear();
  }
}
