import * as assert from 'node:assert/strict';
import { PagedList, type PageResult } from '../../../src/core/pagedList';

interface Item {
  id: number;
}

/** A fake service list of `total` items, `size` per page, that records the pages asked for. */
function fakeList(total: number, size: number) {
  const asked: number[] = [];
  let failNext: Error | undefined;
  const fetch = (page: number): Promise<PageResult<Item>> => {
    asked.push(page);
    if (failNext) {
      const e = failNext;
      failNext = undefined;
      return Promise.reject(e);
    }
    const start = (page - 1) * size;
    const results = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, i) => ({ id: start + i }));
    return Promise.resolve({ count: total, results, nextPage: start + size < total ? page + 1 : null });
  };
  return { fetch, asked, failOnce: (e: Error) => (failNext = e) };
}

/** The state's kind through a call: asserting on `list.state.kind` itself would narrow `list.state` for the rest of a test. */
const kindOf = (list: PagedList<Item>): string => list.state.kind;

describe('paged list', () => {
  it('counts a job put on top twice (a run’s answer, then a read that brought it) once', async () => {
    const { fetch } = fakeList(3, 10);
    const list = new PagedList<Item>(fetch);
    await list.ensureLoaded();
    list.prepend({ id: 99 });
    list.prepend({ id: 99 });
    assert.equal(list.state.kind === 'loaded' && list.state.count, 4);
    assert.deepEqual(list.loadedItems.map((i) => i.id), [99, 0, 1, 2]);
  });

  it('loads only the first page, then says how many remain', async () => {
    const svc = fakeList(120, 50);
    const list = new PagedList(svc.fetch);
    assert.equal(kindOf(list), 'idle');
    await list.ensureLoaded();
    const state = list.state;
    assert.equal(state.kind, 'loaded');
    if (state.kind !== 'loaded') return;
    assert.equal(state.items.length, 50);
    assert.equal(state.remaining, 70);
    assert.equal(state.hasMore, true);
    assert.deepEqual(svc.asked, [1]);
  });

  it('loads the next page on "load more" until none remain', async () => {
    const svc = fakeList(120, 50);
    const list = new PagedList(svc.fetch);
    await list.ensureLoaded();
    await list.loadMore();
    await list.loadMore();
    await list.loadMore();
    const state = list.state;
    assert.ok(state.kind === 'loaded' && state.items.length === 120 && !state.hasMore && state.remaining === 0);
    assert.deepEqual(svc.asked, [1, 2, 3]);
  });

  it('shares one load between callers that ask at the same time', async () => {
    const svc = fakeList(10, 5);
    const list = new PagedList(svc.fetch);
    await Promise.all([list.ensureLoaded(), list.ensureLoaded(), list.loadMore()]);
    assert.deepEqual(svc.asked, [1]);
  });

  it('keeps a failure as state (never rejects) and retries the same page', async () => {
    const svc = fakeList(120, 50);
    const list = new PagedList(svc.fetch);
    await list.ensureLoaded();
    svc.failOnce(new Error('503'));
    await list.loadMore();
    const failed = list.state;
    assert.ok(failed.kind === 'error' && failed.items.length === 50 && !failed.firstPage);
    await list.loadMore();
    assert.deepEqual(svc.asked, [1, 2, 2]);
    assert.equal(list.state.kind, 'loaded');
  });

  it('marks a failed first page so the view can show an error node with Retry', async () => {
    const svc = fakeList(3, 50);
    svc.failOnce(new Error('down'));
    const list = new PagedList(svc.fetch);
    await list.ensureLoaded();
    const state = list.state;
    assert.ok(state.kind === 'error' && state.firstPage);
    await list.ensureLoaded();
    assert.equal(list.state.kind, 'loaded');
  });

  it('refreshes in place: the items stay until the first page is in, which then replaces every page loaded', async () => {
    let total = 120;
    const asked: number[] = [];
    let release: (() => void) | undefined;
    const list = new PagedList<Item>((page) => {
      asked.push(page);
      const start = (page - 1) * 50;
      const answer = { count: total, results: Array.from({ length: Math.max(0, Math.min(50, total - start)) }, (_, i) => ({ id: total - 1 - start - i })), nextPage: start + 50 < total ? page + 1 : null };
      return release === undefined && asked.length > 2 ? new Promise((resolve) => (release = () => resolve(answer))) : Promise.resolve(answer);
    });
    await list.ensureLoaded();
    await list.loadMore();
    assert.equal(list.loadedItems.length, 100);
    total = 121; // a new item on top
    const refreshed = list.refresh();
    assert.equal(list.refreshing, true);
    assert.equal(kindOf(list), 'loading');
    assert.equal(list.loadedItems.length, 100, 'the items loaded stay while the first page is read again');
    release!();
    await refreshed;
    assert.equal(list.refreshing, false);
    assert.deepEqual(asked, [1, 2, 1]);
    const state = list.state;
    assert.ok(state.kind === 'loaded' && state.count === 121 && state.remaining === 71 && state.hasMore);
    assert.deepEqual(list.loadedItems.map((i) => i.id).slice(0, 2), [120, 119], 'the first page replaced what was loaded');
    assert.equal(list.loadedItems.length, 50);
    await list.loadMore();
    assert.deepEqual(asked, [1, 2, 1, 2], 'later pages are read again on load more');
  });

  it('keeps the items when a refresh fails, and tries the first page again on the next load', async () => {
    const svc = fakeList(120, 50);
    const list = new PagedList(svc.fetch);
    await list.ensureLoaded();
    await list.loadMore();
    svc.failOnce(new Error('503'));
    await list.refresh();
    const failed = list.state;
    assert.ok(failed.kind === 'error' && failed.items.length === 100 && !failed.firstPage, 'the items stay, with the error');
    await list.loadMore();
    assert.deepEqual(svc.asked, [1, 2, 1, 1], 'Retry reads the first page again, not the third');
    assert.equal(list.loadedItems.length, 50);
    assert.equal(kindOf(list), 'loaded');
  });

  it('drops a load in flight when refreshed, and loads a list never loaded from its first page', async () => {
    const calls: { page: number; signal: AbortSignal; resolve: (r: PageResult<Item>) => void }[] = [];
    const list = new PagedList<Item>((page, signal) => new Promise((resolve) => calls.push({ page, signal, resolve })));
    const first = list.refresh();
    assert.equal(list.refreshing, false, 'a list never loaded is loading, not refreshing');
    calls[0]!.resolve({ count: 2, results: [{ id: 1 }, { id: 2 }], nextPage: null });
    await first;
    const more = list.loadMore(); // nothing more: resolves at once
    await more;
    const again = list.refresh();
    const stale = calls.length;
    const latest = list.refresh();
    assert.ok(calls[stale - 1]!.signal.aborted, 'the first refresh is cancelled');
    calls[stale - 1]!.resolve({ count: 1, results: [{ id: 9 }], nextPage: null });
    calls[stale]!.resolve({ count: 1, results: [{ id: 3 }], nextPage: null });
    await Promise.all([again, latest]);
    assert.deepEqual(list.loadedItems.map((i) => i.id), [3]);
  });

  it('reads nothing again once loaded, retries a failed next page, and restarts when the failure left nothing shown', async () => {
    const svc = fakeList(120, 50);
    const list = new PagedList(svc.fetch);
    assert.equal(list.refreshing, false);
    await list.ensureLoaded();
    await list.ensureLoaded();
    assert.deepEqual(svc.asked, [1], 'a loaded list is not read again');
    svc.failOnce(new Error('503'));
    await list.loadMore();
    await list.ensureLoaded();
    assert.deepEqual(svc.asked, [1, 2, 2], 'a draw after a failed next page tries that page again');
    // Every item shown was deleted, then the next page failed: Retry starts from the first page.
    list.remove(() => true);
    svc.failOnce(new Error('503'));
    await list.loadMore();
    assert.ok(list.state.kind === 'error' && list.state.firstPage);
    await list.ensureLoaded();
    assert.deepEqual(svc.asked, [1, 2, 2, 3, 1]);
  });

  it('tries a failed refresh again on the next draw too', async () => {
    const svc = fakeList(120, 50);
    const list = new PagedList(svc.fetch);
    await list.ensureLoaded();
    await list.loadMore();
    svc.failOnce(new Error('503'));
    await list.refresh();
    await list.ensureLoaded();
    assert.deepEqual(svc.asked, [1, 2, 1, 1]);
    assert.equal(list.loadedItems.length, 50, 'the first page read again replaced the two pages');
  });

  it('never lets the answer of a load from before a reset or a refresh land, whatever follows', async () => {
    const calls: { page: number; resolve: (r: PageResult<Item>) => void }[] = [];
    const list = new PagedList<Item>((page) => new Promise((resolve) => calls.push({ page, resolve })));
    const answer = (ids: number[]): PageResult<Item> => ({ count: 200, results: ids.map((id) => ({ id })), nextPage: 2 });
    const first = list.ensureLoaded();
    calls[0]!.resolve(answer([1]));
    await first;
    // A next page in flight; then a refresh, then a reset.
    const more = list.loadMore();
    const refreshed = list.refresh();
    assert.equal(list.refreshing, true);
    list.reset();
    assert.equal(list.refreshing, false, 'a reset drops the refresh');
    calls[1]!.resolve(answer([2]));
    calls[2]!.resolve(answer([3]));
    await Promise.all([more, refreshed]);
    assert.equal(kindOf(list), 'idle');
    assert.equal(list.loadedItems.length, 0);
    // A next page in flight; a reset, an item put on top, a refresh: only the refresh's answer lands.
    const reloaded = list.ensureLoaded();
    calls[3]!.resolve(answer([4]));
    await reloaded;
    const again = list.loadMore();
    list.reset();
    list.prepend({ id: 5 });
    const latest = list.refresh();
    calls[4]!.resolve(answer([6]));
    await again;
    assert.equal(list.refreshing, true, 'the stale answer leaves the refresh in flight');
    assert.equal(kindOf(list), 'loading');
    calls[5]!.resolve(answer([7]));
    await latest;
    assert.deepEqual(list.loadedItems.map((i) => i.id), [7]);
  });

  it('drops the earlier of two refreshes, keeping the later one in flight', async () => {
    const calls: { resolve: (r: PageResult<Item>) => void }[] = [];
    const list = new PagedList<Item>(() => new Promise((resolve) => calls.push({ resolve })));
    const first = list.ensureLoaded();
    calls[0]!.resolve({ count: 1, results: [{ id: 1 }], nextPage: null });
    await first;
    const a = list.refresh();
    const b = list.refresh();
    calls[1]!.resolve({ count: 1, results: [{ id: 2 }], nextPage: null });
    await a;
    assert.equal(list.refreshing, true);
    assert.deepEqual(list.loadedItems.map((i) => i.id), [1], 'still the items shown before');
    calls[2]!.resolve({ count: 1, results: [{ id: 3 }], nextPage: null });
    await b;
    assert.deepEqual(list.loadedItems.map((i) => i.id), [3]);
    assert.equal(list.refreshing, false);
  });

  it('counts an item put on top once, keeps "load more" of a longer list, and needs none for a first item', async () => {
    const svc = fakeList(120, 50);
    const list = new PagedList(svc.fetch);
    await list.ensureLoaded();
    list.prepend({ id: 500 });
    let state = list.state;
    assert.ok(state.kind === 'loaded' && state.count === 121 && state.hasMore && state.remaining === 70);
    list.prepend({ id: 0 }); // already shown: moves to the top, counted once
    state = list.state;
    assert.ok(state.kind === 'loaded' && state.count === 121 && state.items.length === 51);
    assert.deepEqual(list.loadedItems.slice(0, 2).map((i) => i.id), [0, 500]);

    const empty = new PagedList(fakeList(0, 50).fetch);
    await empty.ensureLoaded();
    empty.prepend({ id: 1 });
    const one = empty.state;
    assert.ok(one.kind === 'loaded' && one.count === 1 && !one.hasMore);
    // Put on top of a list not read yet: it shows, with nothing more to load.
    const unread = new PagedList<Item>(fakeList(0, 50).fetch);
    unread.prepend({ id: 1 });
    const shown = unread.state;
    assert.ok(shown.kind === 'loaded' && shown.count === 1 && !shown.hasMore);
  });

  it('replaces only an item it has, and a dispose drops the load in flight', async () => {
    const svc = fakeList(3, 50);
    const list = new PagedList(svc.fetch);
    await list.ensureLoaded();
    assert.equal(list.replace((i) => i.id === 99, { id: 100 }), false);
    assert.deepEqual(list.loadedItems.map((i) => i.id), [0, 1, 2]);
    assert.equal(list.replace((i) => i.id === 0, { id: 0 }), true, 'the first item too');
    let aborted = false;
    const pending = new PagedList<Item>((_page, signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => ((aborted = true), reject(new Error('aborted'))))));
    const load = pending.ensureLoaded();
    pending.dispose();
    await load;
    assert.ok(aborted);
    assert.equal(pending.state.kind, 'idle');
  });

  it('tells items apart by their id, or by their value when they have none', async () => {
    const pages: unknown[][] = [['a', 'b', 'a'], [{ name: 'x' }, { name: 'y' }, 'b', 7, 7, null, { id: 'k' }, { id: 'k', name: 'again' }, null]];
    const list = new PagedList<unknown>((page) => Promise.resolve({ count: 8, results: pages[page - 1]!, nextPage: page === 1 ? 2 : null }));
    await list.ensureLoaded();
    await list.loadMore();
    assert.deepEqual(list.loadedItems, ['a', 'b', { name: 'x' }, { name: 'y' }, 7, null, { id: 'k' }]);
  });

  it('drops an answer that arrives after a reset', async () => {
    let release!: () => void;
    const list = new PagedList<Item>(
      (page, signal) =>
        new Promise((resolve, reject) => {
          signal.addEventListener('abort', () => reject(new Error('aborted')));
          release = () => resolve({ count: 1, results: [{ id: page }], nextPage: null });
        }),
    );
    const first = list.ensureLoaded();
    list.reset();
    release();
    await first;
    assert.equal(list.state.kind, 'idle');
    assert.deepEqual(list.loadedItems, []);
  });

  it('never shows an item twice when the list shifted between pages', async () => {
    const pages: Record<number, Item[]> = { 1: [{ id: 1 }, { id: 2 }], 2: [{ id: 2 }, { id: 3 }] };
    const list = new PagedList<Item>((page) => Promise.resolve({ count: 4, results: pages[page] ?? [], nextPage: page === 1 ? 2 : null }));
    await list.ensureLoaded();
    await list.loadMore();
    const state = list.state;
    assert.ok(state.kind === 'loaded');
    assert.deepEqual(state.items.map((i) => i.id), [1, 2, 3]);
  });

  it('never shows an item twice when one page repeats it', async () => {
    const list = new PagedList<Item>(() => Promise.resolve({ count: 3, results: [{ id: 1 }, { id: 2 }, { id: 1 }, { id: 3 }], nextPage: null }));
    await list.ensureLoaded();
    assert.deepEqual(list.loadedItems.map((i) => i.id), [1, 2, 3]);
  });

  it('replaces and removes items in place for edits the user made', async () => {
    const svc = fakeList(3, 50);
    const list = new PagedList(svc.fetch);
    await list.ensureLoaded();
    assert.equal(list.replace((i) => i.id === 1, { id: 1 }), true);
    assert.equal(list.remove((i) => i.id === 2), 1);
    const state = list.state;
    assert.ok(state.kind === 'loaded' && state.count === 2 && state.items.length === 2);
  });

  it('answers an empty list as loaded with nothing in it', async () => {
    const list = new PagedList(fakeList(0, 50).fetch);
    await list.ensureLoaded();
    const state = list.state;
    assert.ok(state.kind === 'loaded' && state.items.length === 0 && state.count === 0 && !state.hasMore);
  });
});
