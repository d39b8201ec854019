// One worker thread as its pool sees it (a query worker, an engine worker): ready once it says so,
// answers one request at a time, and once it has failed or been terminated it is never used again.

import { Worker } from 'node:worker_threads';
import type { WorkerLocation } from './workerLocation';

/** A request to a worker thread: numbered, so that its answer can be told apart. */
export interface ThreadRequest {
  id: number;
}

/** Worker thread to main thread: ready (once), then one outcome per request. */
export type ThreadMessage<Out> = { kind: 'ready' } | { kind: 'outcome'; id: number; outcome: Out };

/** Building the demo tables takes well under a second; this bound only catches a worker that hangs. */
const STARTUP_TIMEOUT_MS = 60_000;

/** A guard against one query eating the machine: past this heap the worker dies, not the server. */
const HEAP_LIMIT_MB = 2048;

interface Pending<Out> {
  id: number;
  resolve(outcome: Out): void;
  reject(error: Error): void;
}

export class ThreadWorker<Req extends ThreadRequest, Out> {
  /** Settles when the worker has built its tables (or rejects when it could not start). */
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private pending: Pending<Out> | undefined;
  private gone: Error | undefined;
  private settleReady: { resolve(): void; reject(error: Error): void } | undefined;
  private readonly startupTimer: NodeJS.Timeout;

  constructor(location: WorkerLocation) {
    // The thread first: if it cannot even be created, no timer is left behind.
    this.worker = new Worker(location.filename, { ...location.options, resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB } });
    this.ready = new Promise<void>((resolve, reject) => (this.settleReady = { resolve, reject }));
    this.ready.catch(() => undefined); // the engine awaits it; this only keeps a late failure from being "unhandled"
    this.startupTimer = setTimeout(
      () => void this.terminate(`The worker did not start within ${STARTUP_TIMEOUT_MS / 1000} s.`),
      STARTUP_TIMEOUT_MS,
    );
    this.worker.on('message', (message: ThreadMessage<Out>) => this.receive(message));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`The query engine stopped unexpectedly (exit code ${code}).`)));
  }

  /** False once the thread has failed, exited or been terminated. */
  get usable(): boolean {
    return this.gone === undefined;
  }

  /** Sends one request; rejects if the worker dies or is terminated before answering. */
  request(request: Req): Promise<Out> {
    if (this.gone) return Promise.reject(this.gone);
    if (this.pending) return Promise.reject(new Error('The worker is busy.'));
    return new Promise((resolve, reject) => {
      this.pending = { id: request.id, resolve, reject };
      this.worker.postMessage(request);
    });
  }

  /** Stops the thread; a query in flight fails with `reason`. */
  async terminate(reason: string): Promise<void> {
    this.fail(new Error(reason));
    await this.worker.terminate();
  }

  private receive(message: ThreadMessage<Out>): void {
    if (message.kind === 'ready') {
      clearTimeout(this.startupTimer);
      this.settleReady?.resolve();
      return;
    }
    const pending = this.pending;
    if (!pending || pending.id !== message.id) return;
    this.pending = undefined;
    pending.resolve(message.outcome);
  }

  /** The first reason wins; everything waiting on this worker learns it. */
  private fail(error: Error): void {
    if (this.gone) return;
    this.gone = error;
    clearTimeout(this.startupTimer);
    this.settleReady?.reject(error);
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(error);
  }
}
