// Who runs next when organizations share a few worker threads: at most one task per organization at a
// time, and organizations with waiting work take turns, so one organization's queue of slow work
// never stands in front of another's.

interface Entry {
  task: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Runs tasks with at most `slots` at once and at most one per key; keys with waiting work take turns. */
export class FairScheduler {
  /** Waiting tasks by key; the Map's order is the turn order (a key that was served moves to the end). */
  private readonly waiting = new Map<string, Entry[]>();
  private readonly runningKeys = new Set<string>();
  private readonly settledListeners: (() => void)[] = [];

  constructor(private readonly slots: number) {}

  /** Queues a task under a key; settles as the task does. */
  schedule<T>(key: string, task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const queue = this.waiting.get(key) ?? [];
      queue.push({ task, resolve: (value) => resolve(value as T), reject });
      this.waiting.set(key, queue);
      this.pump();
    });
  }

  /** How many tasks are running and waiting. */
  get pending(): number {
    let count = this.runningKeys.size;
    for (const queue of this.waiting.values()) count += queue.length;
    return count;
  }

  /** Settles once nothing runs or waits. */
  whenIdle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledListeners.push(resolve));
  }

  private pump(): void {
    while (this.runningKeys.size < this.slots) {
      const key = [...this.waiting.keys()].find((k) => !this.runningKeys.has(k));
      if (key === undefined) return;
      const queue = this.waiting.get(key)!;
      const entry = queue.shift()!;
      // Served: to the back of the turn order (or out of it, with nothing left to wait).
      this.waiting.delete(key);
      if (queue.length > 0) this.waiting.set(key, queue);
      this.start(key, entry);
    }
  }

  private start(key: string, entry: Entry): void {
    this.runningKeys.add(key);
    let promise: Promise<unknown>;
    try {
      promise = entry.task();
    } catch (error) {
      promise = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    promise.then(entry.resolve, entry.reject).finally(() => {
      this.runningKeys.delete(key);
      this.pump();
      if (this.pending === 0) for (const listener of this.settledListeners.splice(0)) listener();
    });
  }
}
