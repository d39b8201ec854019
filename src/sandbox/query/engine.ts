// The query engine the sandbox server uses: a queue in front of one lazily started worker thread,
// with a per-query timeout that terminates the worker (the next query starts a fresh one).

import { QueryWorker } from './queryWorker';
import { checkReadOnlyQuery } from './statementGuard';
import { failure, type QueryEngine, type QueryEngineOptions, type QueryOutcome, type RunOptions } from './types';
import { queryWorkerLocation } from './workerLocation';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_ROWS = 200_000;
const CLOSED = 'The query engine was closed.';
/** setTimeout fires at once for delays past 2^31 - 1 ms; longer timeouts mean "practically never". */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Creates the engine; no thread starts until the first query. */
export function createQueryEngine(options: QueryEngineOptions = {}): QueryEngine {
  const timeoutMs = Math.min(Math.max(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1), MAX_TIMER_MS);
  return new WorkerQueryEngine(timeoutMs, Math.max(options.maxRows ?? DEFAULT_MAX_ROWS, 0));
}

class WorkerQueryEngine implements QueryEngine {
  private worker: QueryWorker | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly maxRows: number,
  ) {}

  run(sql: string, options: RunOptions = {}): Promise<QueryOutcome> {
    // `execute` does not reject; the catch only keeps one surprise from stalling every later query.
    const outcome = this.queue.then(() => this.execute(sql, options)).catch((error: unknown) => failure(messageOf(error)));
    this.queue = outcome;
    return outcome;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate(CLOSED);
  }

  private async execute(sql: string, options: RunOptions): Promise<QueryOutcome> {
    if (this.closed) return failure(CLOSED);
    // Checked here too, so a refused statement never needs a worker.
    const verdict = checkReadOnlyQuery(sql);
    if (!verdict.ok) return failure(verdict.error);
    let worker: QueryWorker;
    try {
      // A worker that died while idle (say, out of memory) is replaced, not asked.
      if (!this.worker?.usable) {
        this.discard(this.worker, 'The query engine stopped.');
        this.worker = new QueryWorker(queryWorkerLocation());
      }
      worker = this.worker;
      await worker.ready;
    } catch (error) {
      if (this.closed) return failure(CLOSED);
      this.discard(this.worker, 'The query engine could not start.');
      return failure(`The query engine could not start: ${messageOf(error)}`);
    }
    return this.runOn(worker, sql, options);
  }

  /** Resolves with the worker's answer, or a FAILURE when the worker dies or the timeout strikes first. */
  private runOn(worker: QueryWorker, sql: string, options: RunOptions): Promise<QueryOutcome> {
    return new Promise<QueryOutcome>((resolve) => {
      const timedOut = `Query timed out after ${formatSeconds(this.timeoutMs)}`;
      const timer = setTimeout(() => {
        resolve(failure(timedOut));
        this.discard(worker, timedOut);
      }, this.timeoutMs);
      worker
        .request({ id: this.nextId++, sql, maxRows: Math.min(this.maxRows, options.maxRows ?? this.maxRows), scope: options.scope })
        .then(resolve, (error: unknown) => {
          this.discard(worker, messageOf(error));
          resolve(failure(messageOf(error)));
        })
        .finally(() => clearTimeout(timer));
    });
  }

  /** Drops a worker that can no longer be trusted; the next query starts a new one. */
  private discard(worker: QueryWorker | undefined, reason: string): void {
    if (!worker) return;
    if (this.worker === worker) this.worker = undefined;
    void worker.terminate(reason);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** 30000 -> "30 s", 1500 -> "1.5 s". */
function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
