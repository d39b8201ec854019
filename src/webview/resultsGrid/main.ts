// The query results page: the pending and failure states, and the grid of a result. The extension
// holds the rows and decides their order; this page paints, selects and asks (sort, filter, copy,
// export). Every message from the extension is checked on arrival and every value shown as text.
import { startWidths } from '../../core/grid/columnWidths';
import type { GridHostMessage, UserHostMessage } from '../../core/grid/protocol';
import { cellSelection, selectedRange } from '../../core/grid/selection';
import { byId, count, setText } from '../common/dom';
import { GridHeader } from './gridHeader';
import { GridInput } from './gridInput';
import { GridRenderer } from './gridRenderer';
import { link, loadState, saveState, send, type PageState } from './host';
import { RowStore } from './rowStore';
import { TestReports } from './testReports';
import { Toolbar } from './toolbar';

/** A `copy` event this soon after Ctrl/Cmd+C was handled as a key belongs to the same press. */
const COPY_DEDUPE_MS = 300;

const grid = byId('grid');
const viewport = byId('viewport');
const renderer = new GridRenderer({ grid, viewport, header: byId('header'), headerRow: byId('header-row'), body: byId('body') });
const header = new GridHeader(byId('header-row'));
const input = new GridInput(renderer, header, {
  sort: (col) => requestSort(col),
  copy: (headers) => {
    lastKeyCopy = Date.now();
    requestCopy(headers);
  },
  selectionChanged: () => showSelection(),
  widthsChanged: () => rememberWidths(),
  autoFit: (col) => autoFit(col),
  focusFilter: () => toolbar.focusFilter(),
  focusCellView: () => toolbar.focusCellView(),
});
const toolbar = new Toolbar({
  activate: (result) => activate(result, true),
  filter: (text) => requestFilter(text),
  exportAs: (format) => send({ type: 'export', load, result: active, format }),
  copyWithNames: () => requestCopy(true),
});

let load = -1;
/** The load whose first painted rows the extension was told of (it holds the other rows back until then). */
let shownLoad = -1;
/** The query the pending state waits for (what Cancel stops waiting for). */
let pendingKey = '';
let stores: RowStore[] = [];
let active = 0;
let page: PageState | undefined;
/** Results whose widths were guessed before any row arrived (sized again from the first rows). */
const guessedWidths = new Set<number>();
/** When Ctrl/Cmd+C was last handled as a key (VS Code may follow it with a `copy` event for the same press). */
let lastKeyCopy = 0;
/** Test builds only: render reports and scroll measurement. */
const reports = __TEST_HOOKS__ ? new TestReports({ renderer, viewport, load: () => load, active: () => active, store: () => stores[active] }) : undefined;

function showState(state: 'pending' | 'failure' | 'success'): void {
  for (const id of ['pending', 'failure', 'success'] as const) byId(id).hidden = id !== state;
  byId('app').setAttribute('aria-busy', String(state === 'pending'));
}

function showSql(id: string, sql: string | null): void {
  const element = byId(id);
  element.hidden = sql === null || sql === '';
  setText(element, sql ?? '');
}

function onMessage(received: GridHostMessage): void {
  // Scroll measurement: test builds only (every other build refuses the message on arrival).
  if (__TEST_HOOKS__ && received.type === 'measureScroll') return void reports?.measure(received.id);
  const message = received as UserHostMessage;
  switch (message.type) {
    case 'pending':
      showState('pending');
      pendingKey = message.key;
      byId('pending-cancel').hidden = !message.cancellable;
      setText(byId('pending-status'), message.status);
      return showSql('pending-sql', message.sql);
    case 'failure':
      showState('failure');
      setText(byId('failure-error'), message.error);
      return showSql('failure-sql', message.sql);
    case 'success':
      load = message.load;
      page = loadState(message.key, message.load);
      stores = message.results.map((result) => new RowStore(result));
      guessedWidths.clear();
      reports?.reset();
      showState('success');
      toolbar.showTabs(message.results, message.active);
      if (stores.length === 0) return showNoResults();
      return activate(page.active < stores.length ? page.active : message.active, false);
    case 'rows':
      return onRows(message);
    case 'order':
      return onOrder(message);
    case 'notice':
      return toolbar.flash(message.text, message.error);
  }
}

function activate(result: number, fromUser: boolean): void {
  const store = stores[result];
  const state = page;
  if (!store || !state) return;
  // Switching tabs keeps where the previous result was scrolled to.
  if (fromUser) rememberScroll();
  active = result;
  state.active = result;
  saveState(state);
  if (fromUser) send({ type: 'activeResult', load, result });
  toolbar.markTab(result);
  const columns = store.header.columns;
  header.build(columns);
  const widths = state.widths[result] ?? startWidths(columns, store.sample(200), renderer.fontCharWidth);
  if (!state.widths[result] && store.loaded === 0) guessedWidths.add(result);
  renderer.show(store, widths);
  header.layout(renderer.gutter, widths);
  header.showSort(store.sort);
  toolbar.showResult(store.header, store.filter);
  toolbar.showMatches(toolbar.matchText(store.length, store.header.rowCount, store.filter));
  showEmpty(store);
  // Painting first gives the scroll area its height, so a remembered position is not cut to zero.
  renderer.paint();
  const scroll = state.scroll[result];
  viewport.scrollTop = scroll?.top ?? 0;
  viewport.scrollLeft = scroll?.left ?? 0;
  input.select(store.length > 0 && columns.length > 0 ? cellSelection({ row: 0, col: 0 }) : undefined, false);
}

/** A query that succeeded without any result set (the service sent none). */
function showNoResults(): void {
  header.build([]);
  renderer.show(new RowStore({ title: '', query: '', columns: [], rowCount: 0, status: '', truncation: null }), []);
  toolbar.showResult({ title: '', query: '', columns: [], rowCount: 0, status: 'No result sets', truncation: null }, '');
  const empty = byId('empty');
  empty.hidden = false;
  setText(empty, 'The query finished without a result set.');
}

function showEmpty(store: RowStore): void {
  const empty = byId('empty');
  const text = store.header.columns.length === 0 ? 'The query returned no columns.' : store.length > 0 ? '' : store.filter ? 'No row matches the filter.' : 'The query returned no rows.';
  empty.hidden = text === '';
  setText(empty, text);
}

function onRows(message: Extract<GridHostMessage, { type: 'rows' }>): void {
  const store = stores[message.result];
  if (message.load !== load || !store) return;
  try {
    store.add(message.start, message.count, message.cells);
  } catch (error) {
    toolbar.flash(`Some rows could not be shown: ${(error as Error).message}`, true);
    return;
  }
  if (message.result !== active) return;
  if (guessedWidths.delete(message.result)) resize(startWidths(store.header.columns, store.sample(200), renderer.fontCharWidth));
  renderer.invalidate();
}

function onOrder(message: Extract<GridHostMessage, { type: 'order' }>): void {
  const store = stores[message.result];
  if (message.load !== load || !store) return;
  store.order = message.order;
  store.sort = message.sort;
  store.filter = message.filter;
  store.version = message.version;
  if (message.result !== active) return;
  header.showSort(store.sort);
  toolbar.flash('');
  toolbar.showMatches(toolbar.matchText(store.length, store.header.rowCount, store.filter));
  showEmpty(store);
  input.select(renderer.selection ?? (store.length > 0 ? cellSelection({ row: 0, col: 0 }) : undefined), false);
}

function requestSort(col: number): void {
  const store = stores[active];
  if (!store) return;
  const sort = store.sort?.column !== col ? { column: col, direction: 'asc' as const } : store.sort.direction === 'asc' ? { column: col, direction: 'desc' as const } : null;
  toolbar.flash(sort ? 'Sorting…' : 'Back to the order of the service…');
  send({ type: 'sort', load, result: active, sort });
}

function requestFilter(text: string): void {
  if (!stores[active]) return;
  toolbar.showMatches('Filtering…');
  send({ type: 'filter', load, result: active, text });
}

function requestCopy(headers: boolean): void {
  const store = stores[active];
  const selection = renderer.selection;
  if (!store || !selection) return;
  const range = selectedRange(selection, renderer.size);
  send({ type: 'copy', load, result: active, version: store.version, ...range, headers });
}

function showSelection(): void {
  const store = stores[active];
  const selection = renderer.selection;
  if (!store || !selection) {
    toolbar.showSelection('');
    toolbar.showCell('', undefined);
    return;
  }
  const range = selectedRange(selection, renderer.size);
  const rows = range.bottom - range.top + 1;
  const cols = range.right - range.left + 1;
  toolbar.showSelection(rows * cols > 1 ? `${count(rows)} row${rows === 1 ? '' : 's'} × ${count(cols)} column${cols === 1 ? '' : 's'} selected` : '');
  const { row, col } = selection.focus;
  toolbar.showCell(store.header.columns[col]?.name ?? '', store.cell(store.rowAt(row), col));
}

function resize(widths: number[]): void {
  renderer.setWidths(widths);
  header.layout(renderer.gutter, widths);
}

function autoFit(col: number): void {
  const store = stores[active];
  if (!store) return;
  const fitted = startWidths(store.header.columns, store.sample(500), renderer.fontCharWidth);
  const widths = [...renderer.columnWidths];
  widths[col] = fitted[col] ?? widths[col] ?? 0;
  resize(widths);
  rememberWidths();
}

function rememberWidths(): void {
  if (!page) return;
  page.widths[active] = [...renderer.columnWidths];
  guessedWidths.delete(active);
  saveState(page);
}

function rememberScroll(): void {
  if (!page || !stores[active]) return;
  page.scroll[active] = { top: viewport.scrollTop, left: viewport.scrollLeft };
  saveState(page);
}

renderer.onPainted = () => {
  reports?.painted();
  if (shownLoad !== load && (stores[active]?.loaded ?? 0) > 0) {
    shownLoad = load;
    const shown = load;
    requestAnimationFrame(() => send({ type: 'shown', load: shown }));
  }
  if (renderer.selection) showSelection();
};
viewport.addEventListener('scroll', () => rememberScrollSoon(), { passive: true });
let scrollTimer: ReturnType<typeof setTimeout> | undefined;
function rememberScrollSoon(): void {
  clearTimeout(scrollTimer);
  scrollTimer = setTimeout(rememberScroll, 300);
}

byId('pending-cancel').addEventListener('click', () => {
  byId('pending-cancel').hidden = true;
  send({ type: 'cancel', key: pendingKey });
});

// VS Code runs its copy command (Ctrl/Cmd+C) as a `copy` event in the page; the grid copies through the extension.
document.addEventListener('copy', (e) => {
  if (document.activeElement !== grid) return;
  e.preventDefault();
  if (Date.now() - lastKeyCopy > COPY_DEDUPE_MS) requestCopy(false);
});

link.start(onMessage, { type: 'ready' });
