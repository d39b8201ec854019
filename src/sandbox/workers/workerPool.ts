// A few worker threads shared by every organization: tasks are scheduled fairly (see fairScheduler.ts),
// each has a time limit that terminates its thread, and a thread that failed, exited or was terminated
// is replaced by a fresh one for the next task. Threads start on first use, and each task that takes the
// last idle thread starts a spare (up to the limit): a thread builds its tables for most of a second,
// and another organization's task should not wait for that behind the first one's.

import { FairScheduler } from './fairScheduler';
import { type ThreadRequest, ThreadWorker } from './threadWorker';
import type { WorkerLocation } from './workerLocation';

/** setTimeout fires at once for delays past 2^31 - 1 ms; longer limits mean "practically never". */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface WorkerPoolOptions<Out> {
  /** Where the thread's code is (asked when a thread starts). */
  location: () => WorkerLocation;
  /** Threads at most; also how many organizations are served at once. */
  threads: number;
  timeoutMs: number;
  /** The outcome that reports a problem (the pool never rejects). */
  failure: (message: string) => Out;
  /** Names the pool in messages: "query engine" (… could not start, … was closed). */
  what: string;
  /** The message of a task stopped by the time limit, given the limit ("30 s"). */
  timedOut: (limit: string) => string;
}

/** Worker threads that run tasks for organizations, fairly, each within a time limit. */
export class WorkerPool<Req extends ThreadRequest, Out> {
  private readonly scheduler: FairScheduler;
  private readonly idle: ThreadWorker<Req, Out>[] = [];
  private readonly busy = new Set<ThreadWorker<Req, Out>>();
  private readonly timeoutMs: number;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions<Out>) {
    this.scheduler = new FairScheduler(Math.max(1, options.threads));
    this.timeoutMs = Math.min(Math.max(options.timeoutMs, 1), MAX_TIMER_MS);
  }

  /** The message of a task stopped by the time limit. */
  get timedOutMessage(): string {
    return this.options.timedOut(formatSeconds(this.timeoutMs));
  }

  /** Runs one request for `key` (an organization) after the ones it queued before; never rejects. */
  run(key: string, request: Omit<Req, 'id'>): Promise<Out> {
    if (this.closed) return Promise.resolve(this.options.failure(this.closedMessage));
    return this.scheduler
      .schedule(key, () => this.execute(request))
      .catch((error: unknown) => this.options.failure(messageOf(error)));
  }

  /** Threads started and not known to be gone (busy, idle or still starting). */
  get threads(): number {
    return [...this.idle, ...this.busy].filter((worker) => worker.usable).length;
  }

  /** Stops every thread; tasks in flight and waiting end as failures. */
  async close(): Promise<void> {
    this.closed = true;
    const threads = [...this.idle.splice(0), ...this.busy];
    this.busy.clear();
    await Promise.all(threads.map((t) => t.terminate(this.closedMessage)));
  }

  private get closedMessage(): string {
    return `The ${this.options.what} was closed.`;
  }

  private async execute(request: Omit<Req, 'id'>): Promise<Out> {
    if (this.closed) return this.options.failure(this.closedMessage);
    let worker: ThreadWorker<Req, Out> | undefined;
    try {
      worker = this.takeWorker();
      await worker.ready;
    } catch (error) {
      if (worker) this.busy.delete(worker);
      if (this.closed) return this.options.failure(this.closedMessage);
      return this.options.failure(`The ${this.options.what} could not start: ${messageOf(error)}`);
    }
    if (this.closed) return this.options.failure(this.closedMessage);
    return this.runOn(worker, { ...request, id: this.nextId++ } as Req);
  }

  /** An idle thread that still works, or a new one; it counts as busy until its task ends. */
  private takeWorker(): ThreadWorker<Req, Out> {
    let worker = this.idle.pop();
    // A thread that died while idle (say, out of memory) is replaced, not asked.
    while (worker && !worker.usable) worker = this.idle.pop();
    worker ??= new ThreadWorker<Req, Out>(this.options.location());
    this.busy.add(worker);
    this.startSpare();
    return worker;
  }

  /** Starts an idle thread when none is left and the limit allows one; one that fails to start is skipped when taken. */
  private startSpare(): void {
    if (this.closed || this.idle.some((worker) => worker.usable) || this.threads >= this.options.threads) return;
    try {
      this.idle.push(new ThreadWorker<Req, Out>(this.options.location()));
    } catch {
      // No spare then: the next task starts its own thread and reports why it cannot.
    }
  }

  /** Resolves with the thread's answer, or a failure when the thread dies or the time limit strikes first. */
  private runOn(worker: ThreadWorker<Req, Out>, request: Req): Promise<Out> {
    return new Promise<Out>((resolve) => {
      const timer = setTimeout(() => {
        resolve(this.options.failure(this.timedOutMessage));
        void worker.terminate(this.timedOutMessage);
      }, this.timeoutMs);
      worker
        .request(request)
        .then(resolve, (error: unknown) => {
          void worker.terminate(messageOf(error));
          resolve(this.options.failure(messageOf(error)));
        })
        .finally(() => {
          clearTimeout(timer);
          this.busy.delete(worker);
          if (worker.usable && !this.closed) this.idle.push(worker);
        });
    });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** 30000 -> "30 s", 1500 -> "1.5 s". */
function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
