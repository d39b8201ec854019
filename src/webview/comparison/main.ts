// The comparison page: a header per target (figures and a chart of outcomes), filters, and a
// virtualised table of cases with a column group per target. The extension sends the comparison as
// text and numbers; the page sorts, filters, paints and asks. Every value is shown as text.
import { rowWindow } from '../../core/grid/virtualWindow';
import { columnsOf, visibleRows, type ColumnRef, type RowFilter } from '../../core/comparison/caseTable';
import { applyRowsUpdate, type ComparisonRowsUpdate } from '../../core/comparison/viewDelta';
import { isComparisonHostMessage, type ComparisonHostMessage, type ComparisonPageMessage, type ProgressView, type RowView, type SummaryView } from '../../core/comparison/viewProtocol';
import { byId, count, make, setText } from '../common/dom';
import { outcomeChart } from './outcomeChart';
import { vscodeApi } from '../common/vscodeApi';

const api = vscodeApi<ComparisonPageMessage>();
const send = (message: ComparisonPageMessage): void => api.postMessage(message);

type Shown = Extract<ComparisonHostMessage, { type: 'comparison' }>;

const ROW_HEIGHT = 24;
const OVERSCAN = 8;

const viewport = byId('viewport');
const canvas = byId('canvas');
const head = byId('head');
const table = byId('table');
const filterInputs = {
  onlyChanged: byId<HTMLInputElement>('only-changed'),
  onlyFailed: byId<HTMLInputElement>('only-failed'),
  onlyMismatches: byId<HTMLInputElement>('only-mismatches'),
  text: byId<HTMLInputElement>('filter'),
};

let shown: Shown | undefined;
let columns: ColumnRef[] = [];
let order: number[] = [];
let sort: { column: number; descending: boolean } | null = null;
let selected = 0;
let painted = '';
/** The row elements painted, by position in `order` (valid for the `order` and `selected` they were made with). */
const rowElements = new Map<number, HTMLElement>();
let firstRowsMarked = false;
const READY_MARK = 'comparison:ready';
const FIRST_ROWS_MARK = 'comparison:first-rows';

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data;
  if (!isComparisonHostMessage(message)) return;
  if (message.type === 'comparison') show(message);
  else if (message.type === 'rows') update(message);
  else if (message.type === 'progress') {
    if (shown && message.load === shown.load) showProgress(message.progress);
  } else showNotice(message.text, message.error);
});

function show(message: Shown): void {
  const sameLoad = shown?.load === message.load;
  shown = message;
  if (!sameLoad) sort = null;
  columns = columnsOf(message.targets.length, message.keys.length);
  table.style.setProperty('--columns', columns.map(columnWidth).join(' '));
  // Head and rows share one width (the least the columns need, or the view's when wider), so their
  // flexible columns come out the same: rows are placed absolutely and give the table no width of their own.
  table.style.setProperty('--table-min-width', `${columns.reduce((sum, column) => sum + columnMinWidth(column), 0)}px`);
  setText(byId('title'), message.title);
  setText(byId('subtitle'), message.subtitle);
  document.title = message.title;
  showProgress(message.progress);
  showSummaries(message.summaries);
  buildHead(message);
  applyView();
  byId('app').setAttribute('aria-busy', 'false');
}

/** Rows whose cells changed while the comparison runs (and the summaries, the progress line): the same order and filters, repainted. */
function update(message: ComparisonRowsUpdate): void {
  if (!shown || message.load !== shown.load) return;
  shown = applyRowsUpdate(shown, message);
  showProgress(message.progress);
  if (message.summaries) showSummaries(message.summaries);
  if (message.rows.length === 0) return;
  // Unsorted and unfiltered, a case stays where it is: only its row, if painted, is made again.
  if (sort === null && !filtering()) {
    for (const { index } of message.rows) {
      const old = rowElements.get(index);
      if (!old) continue;
      const element = rowElement(shown, index, index);
      old.replaceWith(element);
      rowElements.set(index, element);
    }
  } else applyView();
}

function filtering(): boolean {
  const filter = currentFilter();
  return filter.onlyChanged || filter.onlyFailed || filter.onlyMismatches || filter.text.trim() !== '';
}

function showProgress(progress: ProgressView | null): void {
  const line = byId('progress');
  line.hidden = !progress;
  setText(line, progress?.text ?? '');
  line.classList.toggle('running', progress?.running ?? false);
  byId('cancel').hidden = !progress?.cancellable;
  // Start before anything ran, Resume for one that stopped with work left (or follows jobs and has cases without one).
  const resume = byId('resume');
  resume.hidden = !progress?.action;
  setText(resume, progress?.action === 'start' ? 'Start' : 'Resume');
}

function showSummaries(summaries: SummaryView[]): void {
  const box = byId('summaries');
  box.replaceChildren(
    ...summaries.map((s, index) => {
      const card = make('div', 'card');
      card.append(make('h2', 'card-title', s.label));
      const figures = make('dl', 'figures');
      const add = (name: string, value: string, tone = ''): void => {
        const term = make('dt', '', name);
        const detail = make('dd', tone, value);
        figures.append(term, detail);
      };
      add('Accuracy', s.accuracy);
      if (s.changed !== null) add('Changed', count(s.changed), s.changed > 0 ? 'changed' : '');
      else add('Changed', 'baseline');
      add('Failures', count(s.failures), s.failures > 0 ? 'failed' : '');
      add('Done', s.running > 0 ? `${count(s.done)} (${count(s.running)} running)` : count(s.done));
      add('Cost', s.cost.toFixed(4));
      add('Tokens', count(s.tokens));
      add('p50 / p95', `${ms(s.p50Ms)} / ${ms(s.p95Ms)}`);
      card.append(figures, outcomeChart(s.outcomes, `Outcomes of ${s.label}`));
      if (s.failed !== null) {
        card.classList.add('target-failed');
        card.append(make('p', 'failed target-failure', `Runs nothing more: ${s.failed}`));
      }
      if (s.droppable) {
        const drop = make('button', 'secondary drop-target', 'Drop This Target');
        drop.setAttribute('type', 'button');
        drop.title = 'Leave this target and its results out of the comparison';
        drop.addEventListener('click', () => shown && send({ type: 'dropTarget', load: shown.load, target: index }));
        card.append(drop);
      }
      return card;
    }),
  );
}

function ms(value: number | null): string {
  if (value === null) return '–';
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
}

function columnTitle(message: Shown, column: ColumnRef): string {
  if (column.kind === 'case') return 'Case';
  if (column.kind === 'expected') return 'Expected';
  const f = column.field;
  if (f === 'state') return 'Status';
  if (f === 'cost') return 'Cost';
  if (f === 'tokens') return 'Tokens';
  if (f === 'duration') return 'Duration';
  return message.keys[f.key] ?? '';
}

function columnWidth(column: ColumnRef): string {
  if (column.kind === 'case') return 'minmax(160px, 2fr)';
  if (column.kind === 'expected') return 'minmax(90px, 1fr)';
  const f = column.field;
  if (f === 'state') return '72px';
  if (typeof f === 'object') return 'minmax(100px, 1.5fr)';
  return f === 'cost' ? '72px' : '86px';
}

/** The least width of a column, in px (the first value of its `columnWidth`), padding included. */
function columnMinWidth(column: ColumnRef): number {
  return Number(/(\d+)px/.exec(columnWidth(column))?.[1] ?? 0);
}

function columnClass(column: ColumnRef): string {
  if (column.kind !== 'target') return `col col-${column.kind}`;
  const f = column.field;
  const name = typeof f === 'string' ? f : 'key';
  return `col col-${name} group-${column.target % 2 === 0 ? 'even' : 'odd'}${f === 'state' ? ' group-start' : ''}`;
}

function buildHead(message: Shown): void {
  const groups = make('div', 'row head-groups');
  groups.setAttribute('role', 'row');
  groups.append(make('div', 'col col-case'), make('div', 'col col-expected'));
  message.targets.forEach((target, t) => {
    const group = make('div', `col group-label group-${t % 2 === 0 ? 'even' : 'odd'} group-start`, target.label);
    group.title = `${target.label} (${target.kind})`;
    group.style.gridColumn = `span ${message.keys.length + 4}`;
    groups.append(group);
  });
  const names = make('div', 'row head-names');
  names.setAttribute('role', 'row');
  columns.forEach((column, c) => {
    const cell = make('div', `${columnClass(column)} sortable`, columnTitle(message, column));
    cell.setAttribute('role', 'columnheader');
    cell.tabIndex = -1;
    const direction = sort?.column === c ? (sort.descending ? 'descending' : 'ascending') : 'none';
    cell.setAttribute('aria-sort', direction);
    if (direction !== 'none') cell.append(make('span', 'sort-mark', direction === 'ascending' ? ' ▲' : ' ▼'));
    cell.addEventListener('click', () => {
      sort = sort?.column === c ? (sort.descending ? null : { column: c, descending: true }) : { column: c, descending: false };
      // A new order starts at its top, with its first case selected.
      selected = 0;
      viewport.scrollTop = 0;
      buildHead(message);
      applyView();
    });
    names.append(cell);
  });
  head.replaceChildren(groups, names);
}

function currentFilter(): RowFilter {
  return {
    onlyChanged: filterInputs.onlyChanged.checked,
    onlyFailed: filterInputs.onlyFailed.checked,
    onlyMismatches: filterInputs.onlyMismatches.checked,
    text: filterInputs.text.value,
  };
}

function applyView(): void {
  if (!shown) return;
  const column = sort ? columns[sort.column] : undefined;
  order = visibleRows(shown.rows, currentFilter(), column && sort ? { column, descending: sort.descending } : null);
  selected = Math.min(selected, Math.max(0, order.length - 1));
  setText(byId('count'), order.length === shown.rows.length ? `${count(order.length)} cases` : `${count(order.length)} of ${count(shown.rows.length)} cases`);
  const empty = byId('empty');
  empty.hidden = order.length > 0;
  setText(empty, shown.rows.length === 0 ? 'The test set has no cases.' : 'No case matches the filters.');
  canvas.style.height = `${order.length * ROW_HEIGHT}px`;
  dropRows();
  paint();
}

/** Forgets every painted row (the order or what the rows show changed). */
function dropRows(): void {
  painted = '';
  rowElements.clear();
  canvas.replaceChildren();
}

/**
 * Paints the rows in view. A row element stays while its position stays in view and nothing it shows
 * changed (same order, selection and row): scrolling makes only the rows that come into view.
 */
function paint(): void {
  if (!shown) return;
  const viewportHeight = Math.max(0, viewport.clientHeight - head.offsetHeight);
  const window_ = rowWindow(viewport.scrollTop, { rowHeight: ROW_HEIGHT, rowCount: order.length, viewportHeight }, OVERSCAN);
  const key = `${window_.first}:${window_.last}:${selected}`;
  if (key === painted) return;
  if (!painted.endsWith(`:${selected}`)) dropRows();
  painted = key;
  for (const [position, element] of rowElements) {
    if (position >= window_.first && position <= window_.last) continue;
    element.remove();
    rowElements.delete(position);
  }
  const added: HTMLElement[] = [];
  for (let i = window_.first; i <= window_.last; i++) {
    if (rowElements.has(i)) continue;
    const element = rowElement(shown, order[i]!, i);
    rowElements.set(i, element);
    added.push(element);
  }
  canvas.append(...added);
  // A mark on the page's own timeline when its first rows reach the screen (the benchmarks read it).
  if (rowElements.size > 0 && !firstRowsMarked) {
    firstRowsMarked = true;
    requestAnimationFrame(() => performance.mark(FIRST_ROWS_MARK));
  }
}

function rowElement(message: Shown, index: number, position: number): HTMLElement {
  const row = message.rows[index]!;
  const element = make('div', `row${row.changed ? ' changed' : ''}${row.failed ? ' failed' : ''}${position === selected ? ' selected' : ''}`);
  element.setAttribute('role', 'row');
  element.setAttribute('aria-rowindex', String(position + 3));
  element.style.transform = `translateY(${position * ROW_HEIGHT}px)`;
  columns.forEach((column) => element.append(cellElement(row, column)));
  element.addEventListener('click', (event) => {
    selected = position;
    painted = '';
    paint();
    const target = targetOf(event.target);
    if (event.detail < 2 || target === undefined || !shown) return;
    // The status cell opens the job itself; any other cell of a target, the case's outputs side by side.
    if (event.target instanceof HTMLElement && event.target.dataset.job !== undefined) send({ type: 'openJob', load: shown.load, index, target });
    else openCase(index, target);
  });
  return element;
}

function cellElement(row: RowView, column: ColumnRef): HTMLElement {
  const cell = make('div', columnClass(column));
  cell.setAttribute('role', 'gridcell');
  if (column.kind === 'case') {
    cell.textContent = row.case;
    cell.title = [row.case, row.tags ? `Tags: ${row.tags}` : '', row.why ?? ''].filter(Boolean).join('\n');
    return cell;
  }
  if (column.kind === 'expected') {
    cell.textContent = row.expected ?? '';
    return cell;
  }
  cell.dataset.target = String(column.target);
  const data = row.cells[column.target];
  if (!data) return cell;
  const f = column.field;
  if (f === 'state') {
    cell.textContent = data.state === 'none' ? '' : data.state;
    cell.classList.add(`state-${data.state}`);
    cell.dataset.job = '';
    if (data.state !== 'none') cell.title = 'Double-click to open the job';
  } else if (f === 'cost') cell.textContent = data.cost === null ? '' : data.cost.toFixed(4);
  else if (f === 'tokens') cell.textContent = data.tokens === null ? '' : count(data.tokens);
  else if (f === 'duration') cell.textContent = ms(data.durationMs);
  else {
    const value = data.values[f.key] ?? '';
    cell.textContent = value;
    cell.title = data.changed && row.why ? `${value}\n${row.why}` : value;
    // The outcome is what differs between targets and what an expectation is checked against.
    if (data.changed) cell.classList.add('diff');
    if (data.mismatch === true && f.key === 0) cell.classList.add('mismatch');
  }
  return cell;
}

function targetOf(node: EventTarget | null): number | undefined {
  const cell = node instanceof HTMLElement ? node.closest<HTMLElement>('[data-target]') : null;
  return cell?.dataset.target === undefined ? undefined : Number(cell.dataset.target);
}

/** Opens a case: the baseline on the left, the chosen target (or the first other one) on the right. */
function openCase(index: number, target: number | undefined): void {
  if (!shown || shown.targets.length < 2) return;
  const baseline = Math.max(0, shown.targets.findIndex((t) => t.kind === 'baseline'));
  let right = target ?? (baseline === 0 ? 1 : 0);
  if (right === baseline) right = baseline === 0 ? 1 : 0;
  send({ type: 'openCase', load: shown.load, index, left: baseline, right });
}

function showNotice(text: string, error: boolean): void {
  const notice = byId('notice');
  notice.hidden = false;
  notice.classList.toggle('error', error);
  setText(notice, text);
}

viewport.addEventListener('scroll', () => paint(), { passive: true });
new ResizeObserver(() => {
  // Another height shows other positions; the rows painted stay valid.
  painted = `-1:-1:${selected}`;
  paint();
}).observe(viewport);
for (const input of Object.values(filterInputs)) input.addEventListener('input', () => applyView());
table.addEventListener('keydown', (event) => {
  if (!shown || order.length === 0) return;
  const page = Math.max(1, Math.floor(viewport.clientHeight / ROW_HEIGHT) - 1);
  const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -order.length, End: order.length };
  if (event.key === 'Enter') {
    openCase(order[selected]!, undefined);
  } else if (moves[event.key] !== undefined) {
    selected = Math.max(0, Math.min(order.length - 1, selected + moves[event.key]!));
    const top = selected * ROW_HEIGHT;
    const visible = viewport.clientHeight - head.offsetHeight;
    if (top < viewport.scrollTop) viewport.scrollTop = top;
    else if (top + ROW_HEIGHT > viewport.scrollTop + visible) viewport.scrollTop = top + ROW_HEIGHT - visible;
    painted = '';
    paint();
  } else return;
  event.preventDefault();
});
byId('cancel').addEventListener('click', () => shown && send({ type: 'cancel', load: shown.load }));
byId('resume').addEventListener('click', () => shown && send({ type: 'resume', load: shown.load }));
for (const format of ['csv', 'json', 'markdown'] as const) {
  byId(`export-${format}`).addEventListener('click', () => shown && send({ type: 'export', load: shown.load, format }));
}
performance.mark(READY_MARK);
send({ type: 'ready' });
