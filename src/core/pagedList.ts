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
  /** A refresh failed: the next load reads the first page again (and replaces what is shown), not the next one. */
  private refreshPending = false;
  private refreshInFlight = false;

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

  /** True while a refresh reads the first page again, the items loaded before still shown. */
  get refreshing(): boolean {
    return this.refreshInFlight;
  }

  /** Loads the first page unless something is loaded or loading already; resolves when done (never rejects). */
  ensureLoaded(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.loadedOnce && this.error === undefined) return Promise.resolve();
    if (this.refreshPending) return this.refresh();
    if (this.error !== undefined && this.items.length === 0) this.nextPage = 1;
    return this.loadNext(false);
  }

  /** Loads the next page (after a failed page, the same page again; after a failed refresh, the refresh). Resolves when done; never rejects. */
  loadMore(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.refreshPending) return this.refresh();
    if (this.nextPage === null) return Promise.resolve();
    return this.loadNext(false);
  }

  /**
   * Reads the first page again while the items loaded stay as they are (a view keeps showing them, and
   * its rows stay usable, until the answer is in). The answer replaces everything loaded: later pages
   * are read again on "load more". A failure keeps the items, with the error, and the next load tries
   * the first page again. A load in flight is dropped. A list never loaded just loads its first page.
   * Resolves when done; never rejects.
   */
  refresh(): Promise<void> {
    if (!this.loadedOnce) {
      this.reset();
      return this.loadNext(false);
    }
    this.epoch++;
    this.controller?.abort();
    this.controller = undefined;
    this.inFlight = undefined;
    return this.loadNext(true);
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
    this.refreshPending = false;
    this.refreshInFlight = false;
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

  /** Reads the next page onto the items, or (`fresh`) the first page in place of them. */
  private loadNext(fresh: boolean): Promise<void> {
    const epoch = this.epoch;
    const page = fresh ? 1 : (this.nextPage ?? 1);
    const controller = new AbortController();
    this.controller = controller;
    this.error = undefined;
    this.refreshInFlight = fresh;
    const run = async (): Promise<void> => {
      try {
        const result = await this.fetchPage(page, controller.signal);
        if (epoch !== this.epoch) return;
        const items = fresh ? [] : this.items;
        const seen = new Set(items.map((item) => keyOf(item)));
        // A list that shifted between pages (a new item on top), or a page that repeats an item, must not show it twice.
        for (const item of result.results) {
          const key = keyOf(item);
          if (seen.has(key)) continue;
          seen.add(key);
          items.push(item);
        }
        this.items = items;
        this.count = result.count;
        this.nextPage = result.nextPage;
        this.loadedOnce = true;
        this.refreshPending = false;
      } catch (error) {
        if (epoch !== this.epoch) return;
        this.error = error;
        if (fresh) this.refreshPending = true;
      } finally {
        if (epoch === this.epoch) {
          this.inFlight = undefined;
          this.controller = undefined;
          this.refreshInFlight = false;
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
