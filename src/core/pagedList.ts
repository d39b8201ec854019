/**
 * A list read page by page from the service, as a tree shows it: the pages loaded so far, how many
 * remain, and the error of the last load. Loads never overlap (one shared in-flight load), a reset
 * drops a stale answer, and nothing is fetched whole. Pure: no VS Code, tested in plain Node.
 */
export interface PageResult<T> {
  count: number;
  results: T[];
  nextPage: number | null;
}

export type FetchPage<T> = (page: number, signal: AbortSignal) => Promise<PageResult<T>>;

export type PagedListState<T> =
  | { kind: 'idle'; items: readonly T[] }
  | { kind: 'loading'; items: readonly T[] }
  | { kind: 'loaded'; items: readonly T[]; count: number; remaining: number; hasMore: boolean }
  | { kind: 'error'; items: readonly T[]; error: unknown; firstPage: boolean };

export class PagedList<T> {
  private items: T[] = [];
  private count = 0;
  private nextPage: number | null = 1;
  private error: unknown;
  private inFlight: Promise<void> | undefined;
  private controller: AbortController | undefined;
  private epoch = 0;
  private loadedOnce = false;

  constructor(private readonly fetchPage: FetchPage<T>) {}

  /** What a view should show now. */
  get state(): PagedListState<T> {
    if (this.inFlight) return { kind: 'loading', items: this.items };
    if (this.error !== undefined) return { kind: 'error', items: this.items, error: this.error, firstPage: this.items.length === 0 };
    if (!this.loadedOnce) return { kind: 'idle', items: this.items };
    const remaining = Math.max(0, this.count - this.items.length);
    return { kind: 'loaded', items: this.items, count: this.count, remaining, hasMore: this.nextPage !== null };
  }

  /** The items loaded so far, in order. */
  get loadedItems(): readonly T[] {
    return this.items;
  }

  /** Loads the first page unless something is loaded or loading already; resolves when done (never rejects). */
  ensureLoaded(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.loadedOnce && this.error === undefined) return Promise.resolve();
    if (this.error !== undefined && this.items.length === 0) this.nextPage = 1;
    return this.loadNext();
  }

  /** Loads the next page (after a failed page, the same page again). Resolves when done; never rejects. */
  loadMore(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.nextPage === null) return Promise.resolve();
    return this.loadNext();
  }

  /** Forgets everything; the next `ensureLoaded` starts again from page 1. An answer still on its way is dropped. */
  reset(): void {
    this.epoch++;
    this.controller?.abort();
    this.controller = undefined;
    this.inFlight = undefined;
    this.items = [];
    this.count = 0;
    this.nextPage = 1;
    this.error = undefined;
    this.loadedOnce = false;
  }

  /** Replaces an item in place (an update the user made), keeping the order. */
  replace(match: (item: T) => boolean, next: T): boolean {
    const i = this.items.findIndex(match);
    if (i < 0) return false;
    this.items[i] = next;
    return true;
  }

  /** Puts an item the user just created on top, where it can be seen without reloading. */
  prepend(item: T): void {
    const known = this.items.some((x) => keyOf(x) === keyOf(item));
    this.items = [item, ...this.items.filter((x) => keyOf(x) !== keyOf(item))];
    // Put on top twice (a run's answer, then a read that brought it): counted once.
    if (!known) this.count++;
    this.loadedOnce = true;
    if (this.count === 1) this.nextPage = null;
  }

  /** Removes matching items (a delete the user made) and keeps the count honest. */
  remove(match: (item: T) => boolean): number {
    const before = this.items.length;
    this.items = this.items.filter((item) => !match(item));
    const removed = before - this.items.length;
    this.count = Math.max(0, this.count - removed);
    return removed;
  }

  /** Cancels a load in flight (the view went away). */
  dispose(): void {
    this.reset();
  }

  private loadNext(): Promise<void> {
    const epoch = this.epoch;
    const page = this.nextPage ?? 1;
    const controller = new AbortController();
    this.controller = controller;
    this.error = undefined;
    const run = async (): Promise<void> => {
      try {
        const result = await this.fetchPage(page, controller.signal);
        if (epoch !== this.epoch) return;
        const seen = new Set(this.items.map((item) => keyOf(item)));
        // A list that shifted between pages (a new item on top), or a page that repeats an item, must not show it twice.
        for (const item of result.results) {
          const key = keyOf(item);
          if (seen.has(key)) continue;
          seen.add(key);
          this.items.push(item);
        }
        this.count = result.count;
        this.nextPage = result.nextPage;
        this.loadedOnce = true;
      } catch (error) {
        if (epoch !== this.epoch) return;
        this.error = error;
      } finally {
        if (epoch === this.epoch) {
          this.inFlight = undefined;
          this.controller = undefined;
        }
      }
    };
    this.inFlight = run();
    return this.inFlight;
  }
}

function keyOf(item: unknown): unknown {
  return typeof item === 'object' && item !== null && 'id' in item ? item.id : item;
}
