/** The client's gate: at most N requests in flight, the rest queued in arrival order, and a client-wide pause. */

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/** Raised to queued callers when the client is closed under them. */
export class LimiterClosedError extends Error {
  constructor() {
    super('The service client was closed.');
  }
}

/** Time and the one timer of a pause; injectable so tests move time themselves. */
export interface LimiterClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemClock: LimiterClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Concurrency limit with FIFO queueing and a pause that holds back every queued and new request. */
export class Limiter {
  private active = 0;
  private readonly queue: Waiter[] = [];
  private pausedUntil = 0;
  private timer: unknown;
  private closed = false;

  constructor(
    private readonly max: number,
    private readonly clock: LimiterClock = systemClock,
  ) {}

  /** Takes a slot at once if one is free, nobody is ahead and the client is not paused. */
  tryAcquire(): boolean {
    if (this.active >= this.max || this.queue.length > 0 || this.closed || this.clock.now() < this.pausedUntil) return false;
    this.active++;
    return true;
  }

  /** Waits for a slot in arrival order; rejects with the signal's reason when it aborts first. */
  acquire(signal: AbortSignal | undefined): Promise<void> {
    if (this.closed) return Promise.reject(new LimiterClosedError());
    // The signal's reason is whatever the caller aborted with (an Error by our callers' convention): passed on as is.
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, onAbort: () => this.drop(waiter) };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.queue.push(waiter);
      this.drain();
    });
  }

  /** Gives a slot back and lets the next caller in. */
  release(): void {
    this.active--;
    this.drain();
  }

  /** Holds back every request not yet started for `ms` (a 429 with Retry-After speaks for the whole client). */
  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
    this.drain();
  }

  /** Requests holding a slot right now. */
  get inFlight(): number {
    return this.active;
  }

  /** Fails every queued caller and refuses new ones. */
  close(): void {
    this.closed = true;
    this.clock.clearTimeout(this.timer);
    for (const waiter of this.queue.splice(0)) {
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(new LimiterClosedError());
    }
  }

  private drop(waiter: Waiter): void {
    const i = this.queue.indexOf(waiter);
    if (i >= 0) this.queue.splice(i, 1);
    waiter.reject(waiter.signal?.reason);
    this.drain();
  }

  private drain(): void {
    if (this.queue.length === 0) return;
    const pause = this.pausedUntil - this.clock.now();
    if (pause > 0) {
      // One timer for the whole queue; re-armed when a later Retry-After extends the pause.
      this.clock.clearTimeout(this.timer);
      this.timer = this.clock.setTimeout(() => this.drain(), pause);
      return;
    }
    while (this.active < this.max && this.queue.length > 0) {
      const waiter = this.queue.shift() as Waiter;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.active++;
      waiter.resolve();
    }
  }
}
