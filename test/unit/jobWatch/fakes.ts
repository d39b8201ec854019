/** Test doubles for the job watcher: a clock the test moves by hand and a service that counts requests. */
import type { BulkJobStatus, Clock, JobStatusSource, SingleJobStatus } from '../../../src/core/jobWatch';

const START = Date.parse('2026-11-21T12:00:00Z');

/** Timers run only when the test advances time; promises settle between timers as they would for real. */
export class FakeClock implements Clock {
  private time = START;
  private seq = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.set(id, { at: this.time + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Timers armed and not yet run. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time forward, running every timer that falls due, in order. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settle();
      const next = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!next) break;
      this.timers.delete(next[0]);
      this.time = next[1].at;
      next[1].fn();
    }
    this.time = end;
    await settle();
  }
}

/** Lets every pending promise chain run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** An error as the service client throws it for an HTTP status. */
export function httpError(status: number, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`The service answered ${status}.`), { kind: 'http', status, ...extra });
}

/** The client's error for an endpoint this server does not offer. */
export function unsupportedError(): Error {
  return Object.assign(new Error('This server does not offer bulk job statuses.'), { kind: 'unsupported', status: 404 });
}

interface Call {
  kind: 'bulk' | 'one';
  ids: string[];
  at: number;
}

/** A service whose job statuses the test sets; it records every request and how many overlap. */
export class FakeSource implements JobStatusSource {
  /** The service's truth: job ID → status. A job not here is unknown to the service. */
  readonly jobs = new Map<string, { status: number; error_message?: string; timestamp?: number }>();
  readonly calls: Call[] = [];
  readonly signals: AbortSignal[] = [];
  /** Thrown by the bulk endpoint (e.g. unsupported); undefined means it answers. */
  bulkError: Error | undefined;
  /** Thrown by the per-job endpoint for one job. */
  readonly jobErrors = new Map<string, Error>();
  /** Thrown by every request while set (an outage). */
  outage: Error | undefined;
  /** How long each request takes, on the fake clock. */
  latencyMs = 0;
  inFlight = 0;
  maxInFlight = 0;

  constructor(private readonly clock: FakeClock) {}

  /** Sets jobs on the service. */
  set(status: number, ...ids: string[]): this {
    for (const id of ids) this.jobs.set(id, { status });
    return this;
  }

  get bulkCalls(): number {
    return this.calls.filter((c) => c.kind === 'bulk').length;
  }

  get singleCalls(): number {
    return this.calls.filter((c) => c.kind === 'one').length;
  }

  async statuses(ids: string[], signal: AbortSignal): Promise<BulkJobStatus[]> {
    return this.request({ kind: 'bulk', ids: [...ids], at: this.clock.now() }, signal, () => {
      if (this.bulkError) throw this.bulkError;
      return ids.flatMap((id) => {
        const job = this.jobs.get(id);
        return job ? [{ id, created_at: '2026-11-21T11:59:00Z', last_updated_at: null, ...job }] : [];
      });
    });
  }

  async status(id: string, signal: AbortSignal): Promise<SingleJobStatus> {
    return this.request({ kind: 'one', ids: [id], at: this.clock.now() }, signal, () => {
      const failure = this.jobErrors.get(id);
      if (failure) throw failure;
      const job = this.jobs.get(id);
      if (!job) throw httpError(404);
      return { ...job };
    });
  }

  private async request<T>(call: Call, signal: AbortSignal, answer: () => T): Promise<T> {
    this.calls.push(call);
    this.signals.push(signal);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.latencyMs > 0) await this.wait(signal);
      if (this.outage) throw this.outage;
      return answer();
    } finally {
      this.inFlight--;
    }
  }

  /** Waits the latency, or rejects at once when aborted (as a real request does). */
  private wait(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.clock.clearTimeout(handle);
        reject(Object.assign(new Error('aborted'), { kind: 'aborted' }));
      };
      const handle = this.clock.setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, this.latencyMs);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** IDs job-1 … job-n. */
export function ids(n: number, prefix = 'job'): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`);
}
