/**
 * Reads job results through the bulk results endpoint: every result asked for within a short window
 * travels in one request (several job views opened at once, a refresh of all of them), never one
 * request per job. Knows nothing of VS Code; the fetch and the timer come in from outside.
 */
import type { JobResultRecord } from './viewModel';

/** The bulk read: one request for these ids, answering the records the service has (others are left out). */
export type BulkResultsFetch = (ids: string[]) => Promise<readonly JobResultRecord[]>;

/** How long asks are collected before the request goes out. */
export const RESULT_BATCH_WINDOW_MS = 15;

interface Waiting {
  resolve(record: JobResultRecord | null): void;
  reject(error: unknown): void;
}

export class ResultBatcher {
  private waiting = new Map<string, Waiting[]>();
  private armed = false;

  constructor(
    private readonly fetch: BulkResultsFetch,
    private readonly defer: (fn: () => void) => void = (fn) => void setTimeout(fn, RESULT_BATCH_WINDOW_MS),
  ) {}

  /** The result record of a job, or null when the service has none for it. */
  read(jobId: string): Promise<JobResultRecord | null> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(jobId) ?? [];
      list.push({ resolve, reject });
      this.waiting.set(jobId, list);
      if (this.armed) return;
      this.armed = true;
      this.defer(() => this.flush());
    });
  }

  private flush(): void {
    this.armed = false;
    const batch = this.waiting;
    this.waiting = new Map();
    // The client splits a long list into requests of a hundred ids.
    void this.send([...batch.keys()], batch);
  }

  private async send(ids: string[], batch: Map<string, Waiting[]>): Promise<void> {
    try {
      const records = await this.fetch(ids);
      const byId = new Map(records.map((r) => [r.id.toLowerCase(), r]));
      for (const id of ids) for (const w of batch.get(id) ?? []) w.resolve(byId.get(id.toLowerCase()) ?? null);
    } catch (error) {
      for (const id of ids) for (const w of batch.get(id) ?? []) w.reject(error);
    }
  }
}
