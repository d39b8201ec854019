// The comparison page: a header per target (figures and a chart of outcomes), filters, and a
// virtualised table of cases with a column group per target. The extension sends the comparison as
// text and numbers; the page sorts, filters, paints and asks. Every value is shown as text.
import { columnsOf, visibleRows, type ColumnRef, type RowFilter } from '../../core/comparison/caseTable';
import { applyRowsUpdate, type ComparisonRowsUpdate } from '../../core/comparison/viewDelta';
import type { ComparisonHostMessage, ComparisonPageMessage, ProgressView } from '../../core/comparison/viewProtocol';
import { rowWindow } from '../../core/grid/virtualWindow';
import { byId, count, make, setText } from '../common/dom';
import type { PageLink } from '../common/pageLink';
import { CaseRows, ROW_HEIGHT } from './caseRows';
import { columnClass, columnTitle, columnWidths } from './columns';
import { summaryCards } from './summaries';
import { labelBar, labelBarKey } from './labelBar';
import { LabelPass } from './labelPass';
import { transitionPanel, transitionTargets } from './transitions';
import type { TransitionFilter } from '../../core/comparison/transitionFilter';

type Shown = Extract<ComparisonHostMessage, { type: 'comparison' }>;

const OVERSCAN = 8;
const FIRST_ROWS_MARK = 'comparison:first-rows';

export class ComparisonPage {
  private readonly viewport = byId('viewport');
  private readonly head = byId('head');
  private readonly table = byId('table');
  private readonly rows = new CaseRows(byId('canvas'));
  private readonly filters = {
    onlyChanged: byId<HTMLInputElement>('only-changed'),
    onlyFailed: byId<HTMLInputElement>('only-failed'),
    onlyMismatches: byId<HTMLInputElement>('only-mismatches'),
    text: byId<HTMLInputElement>('filter'),
  };
  private shown: Shown | undefined;
  private columns: ColumnRef[] = [];
  /** The table width the column widths were worked out for. */
  private widthFor = -1;
  private order: number[] = [];
  private sort: { column: number; descending: boolean } | null = null;
  private selected = 0;
  private firstRowsMarked = false;
  /** The transition the table is filtered to (a button of the transition panel), if any. */
  private transition: TransitionFilter | null = null;
  /** The target the baseline is compared with in the transition panel (more than two targets). */
  private transitionTo: number | undefined;
  private labelBarShows = '';
  private readonly pass: LabelPass;

  constructor(private readonly link: PageLink<ComparisonHostMessage, ComparisonPageMessage>) {
    this.viewport.addEventListener('scroll', () => this.paint(), { passive: true });
    // Another width places the columns again; another height shows other positions.
    new ResizeObserver(() => this.layout()).observe(this.viewport);
    for (const input of Object.values(this.filters)) input.addEventListener('input', () => this.applyView());
    this.table.addEventListener('keydown', (event) => this.onKey(event));
    byId('canvas').addEventListener('click', (event) => this.onClick(event));
    // A right-click selects the case whose cell's menu (This Is Right, Set Expected…) opens.
    byId('canvas').addEventListener('contextmenu', (event) => {
      const position = this.rows.positionOf(event.target);
      if (position === undefined) return;
      this.selected = position;
      this.paint();
    });
    const ask = (type: 'cancel' | 'resume'): void => void (this.shown && link.send({ type, load: this.shown.load }));
    byId('cancel').addEventListener('click', () => ask('cancel'));
    byId('resume').addEventListener('click', () => ask('resume'));
    this.pass = new LabelPass(() => this.shown, (m) => link.send(m), (index) => this.selectCase(index));
    byId('label-cases').addEventListener('click', () => this.pass.start(this.order[this.selected] ?? 0));
    for (const format of ['csv', 'json', 'markdown'] as const) {
      byId(`export-${format}`).addEventListener('click', () => this.shown && link.send({ type: 'export', load: this.shown.load, format }));
    }
  }

  /** Handles one checked message of the extension. */
  onMessage(message: ComparisonHostMessage): void {
    if (message.type === 'comparison') this.show(message);
    else if (message.type === 'rows') this.update(message);
    else if (message.type === 'dispositions' || message.type === 'inputs') this.pass.onMessage(message);
    else if (message.type === 'startPass') {
      if (this.shown && message.load === this.shown.load) this.pass.start(this.order[this.selected] ?? 0);
    }
    else if (message.type === 'progress') {
      if (this.shown && message.load === this.shown.load) this.showProgress(message.progress);
    } else this.showNotice(message.text, message.error);
  }

  private show(message: Shown): void {
    const sameLoad = this.shown?.load === message.load;
    this.shown = message;
    if (!sameLoad) {
      this.pass.stop();
      this.sort = null;
      this.transition = null;
      this.transitionTo = undefined;
    }
    this.columns = columnsOf(message.targets.length, message.keys.length);
    this.widthFor = -1;
    setText(byId('title'), message.title);
    setText(byId('subtitle'), message.subtitle);
    document.title = message.title;
    this.showProgress(message.progress);
    this.showSummaries();
    this.layout();
    this.pass.refresh();
    byId('app').setAttribute('aria-busy', 'false');
  }

  /** Rows whose cells changed while the comparison runs (and the summaries, the progress line): the same order and filters, repainted. */
  private update(message: ComparisonRowsUpdate): void {
    if (!this.shown || message.load !== this.shown.load) return;
    this.shown = applyRowsUpdate(this.shown, message);
    this.showProgress(message.progress);
    if (message.summaries) this.showSummaries();
    if (message.rows.length === 0) return;
    this.showTransitions();
    this.pass.refresh();
    // Unsorted and unfiltered, a case stays where it is: only its row, if painted, is written again.
    if (this.sort === null && !this.filtering()) {
      for (const { index } of message.rows) this.rows.repaint(this.shown.rows, this.order, index);
    } else this.applyView();
  }

  /** Column widths for the table's width (again only when it changed), then the head and the rows. */
  private layout(): void {
    if (!this.shown) return;
    const width = this.viewport.clientWidth;
    if (width !== this.widthFor) {
      this.widthFor = width;
      const widths = columnWidths(this.columns, width);
      const total = `${widths.reduce((sum, w) => sum + w, 0)}px`;
      this.table.style.setProperty('--columns', widths.map((w) => `${w}px`).join(' '));
      this.table.style.setProperty('--table-width', total);
      this.buildHead();
      this.rows.setColumns(this.columns, widths);
      this.applyView();
    } else this.paint();
  }

  private filtering(): boolean {
    const filter = this.currentFilter();
    return filter.onlyChanged || filter.onlyFailed || filter.onlyMismatches || filter.text.trim() !== '' || filter.transition != null;
  }

  private showProgress(progress: ProgressView | null): void {
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

  private showSummaries(): void {
    const shown = this.shown;
    if (!shown) return;
    const drop = (target: number): void => void (this.shown && this.link.send({ type: 'dropTarget', load: this.shown.load, target }));
    byId('summaries').replaceChildren(...summaryCards(shown.summaries, drop));
    this.showTransitions();
  }

  /** Became right / became wrong / stayed wrong and the outcome table, between the baseline and another target. */
  private showTransitions(): void {
    const shown = this.shown;
    const section = byId('transitions');
    const pair = shown ? transitionTargets(shown.targets, this.transitionTo) : undefined;
    section.hidden = !pair;
    if (!shown || !pair) return section.replaceChildren();
    // Keyboard focus stays on the button that was pressed when the panel is built again.
    const focused = document.activeElement instanceof HTMLElement && section.contains(document.activeElement) ? document.activeElement.getAttribute('aria-label') : null;
    const pick = (filter: TransitionFilter | null): void => {
      this.transition = filter;
      this.selected = 0;
      this.viewport.scrollTop = 0;
      this.showTransitions();
      this.applyView();
    };
    const chooseTo = (to: number): void => {
      this.transitionTo = to;
      if (this.transition) pick(null);
      else this.showTransitions();
    };
    section.replaceChildren(...transitionPanel(shown.targets, shown.rows, pair, this.transition, pick, chooseTo));
    if (focused) [...section.querySelectorAll<HTMLElement>('[aria-label]')].find((e) => e.getAttribute('aria-label') === focused)?.focus();
  }

  /** The label bar of the selected case (built again only when what it shows changed). */
  private showLabelBar(): void {
    const shown = this.shown;
    const bar = byId('label-bar');
    const index = this.order[this.selected];
    bar.hidden = !shown || index === undefined || shown.targets.length === 0;
    if (!shown || index === undefined) return;
    const key = labelBarKey(shown, index);
    if (key === this.labelBarShows) return;
    this.labelBarShows = key;
    const ask = (target: number, action: 'right' | 'set'): void => void (this.shown && this.link.send({ type: 'label', load: this.shown.load, index, target, key: 0, action }));
    bar.replaceChildren(...labelBar(shown, index, ask));
  }

  private buildHead(): void {
    const message = this.shown;
    if (!message) return;
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
    this.columns.forEach((column, c) => names.append(this.headCell(message, column, c)));
    this.head.replaceChildren(groups, names);
  }

  private headCell(message: Shown, column: ColumnRef, c: number): HTMLElement {
    const cell = make('div', `${columnClass(column)} sortable`, columnTitle(message.keys, column));
    cell.setAttribute('role', 'columnheader');
    cell.tabIndex = -1;
    const direction = this.sort?.column === c ? (this.sort.descending ? 'descending' : 'ascending') : 'none';
    cell.setAttribute('aria-sort', direction);
    if (direction !== 'none') cell.append(make('span', 'sort-mark', direction === 'ascending' ? ' ▲' : ' ▼'));
    cell.addEventListener('click', () => {
      const sort = this.sort;
      this.sort = sort?.column === c ? (sort.descending ? null : { column: c, descending: true }) : { column: c, descending: false };
      // A new order starts at its top, with its first case selected.
      this.selected = 0;
      this.viewport.scrollTop = 0;
      this.buildHead();
      this.applyView();
    });
    return cell;
  }

  private currentFilter(): RowFilter {
    const f = this.filters;
    return { onlyChanged: f.onlyChanged.checked, onlyFailed: f.onlyFailed.checked, onlyMismatches: f.onlyMismatches.checked, text: f.text.value, transition: this.transition };
  }

  private applyView(): void {
    const shown = this.shown;
    if (!shown) return;
    const column = this.sort ? this.columns[this.sort.column] : undefined;
    this.order = visibleRows(shown.rows, this.currentFilter(), column && this.sort ? { column, descending: this.sort.descending } : null);
    this.selected = Math.min(this.selected, Math.max(0, this.order.length - 1));
    const total = shown.rows.length;
    setText(byId('count'), this.order.length === total ? `${count(total)} cases` : `${count(this.order.length)} of ${count(total)} cases`);
    const empty = byId('empty');
    empty.hidden = this.order.length > 0;
    setText(empty, total === 0 ? 'The test set has no cases.' : 'No case matches the filters.');
    byId('canvas').style.height = `${this.order.length * ROW_HEIGHT}px`;
    this.rows.invalidate();
    this.paint();
  }

  /** Paints the rows in view (only those that show another case than before). */
  private paint(): void {
    const shown = this.shown;
    if (!shown) return;
    const viewportHeight = Math.max(0, this.viewport.clientHeight - this.head.offsetHeight);
    const view = rowWindow(this.viewport.scrollTop, { rowHeight: ROW_HEIGHT, rowCount: this.order.length, viewportHeight }, OVERSCAN);
    const capacity = Math.ceil(viewportHeight / ROW_HEIGHT) + 2 * OVERSCAN + 1;
    const any = this.rows.paint(shown.rows, this.order, view.first, view.last, this.selected, capacity);
    this.showLabelBar();
    // A mark on the page's own timeline when its first rows reach the screen (the benchmarks read it).
    if (any && !this.firstRowsMarked) {
      this.firstRowsMarked = true;
      requestAnimationFrame(() => performance.mark(FIRST_ROWS_MARK));
    }
  }

  private onClick(event: MouseEvent): void {
    const position = this.rows.positionOf(event.target);
    const shown = this.shown;
    if (position === undefined || !shown) return;
    this.selected = position;
    this.paint();
    const target = targetOf(event.target);
    const index = this.order[position];
    if (event.detail < 2 || index === undefined) return;
    // The status cell opens the job itself; any other cell of a target, the case's outputs side by side;
    // the case's own cells (its name, tags, expected outcome), the baseline against the first other target.
    if (target !== undefined && event.target instanceof HTMLElement && event.target.dataset.job !== undefined) this.link.send({ type: 'openJob', load: shown.load, index, target });
    else this.openCase(index, target);
  }

  private onKey(event: KeyboardEvent): void {
    if (!this.shown || this.order.length === 0) return;
    const page = Math.max(1, Math.floor(this.viewport.clientHeight / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -this.order.length, End: this.order.length };
    const move = moves[event.key];
    if (event.key === 'Enter') this.openCase(this.order[this.selected]!, undefined);
    else if (move !== undefined) {
      this.selected = Math.max(0, Math.min(this.order.length - 1, this.selected + move));
      const top = this.selected * ROW_HEIGHT;
      const visible = this.viewport.clientHeight - this.head.offsetHeight;
      if (top < this.viewport.scrollTop) this.viewport.scrollTop = top;
      else if (top + ROW_HEIGHT > this.viewport.scrollTop + visible) this.viewport.scrollTop = top + ROW_HEIGHT - visible;
      this.paint();
    } else return;
    event.preventDefault();
  }

  /** Selects a case (the labelling pass's) in the table when the filters show it, scrolled into view. */
  private selectCase(index: number): void {
    const position = this.order.indexOf(index);
    if (position < 0) return;
    this.selected = position;
    const top = position * ROW_HEIGHT;
    const visible = this.viewport.clientHeight - this.head.offsetHeight;
    if (top < this.viewport.scrollTop || top + ROW_HEIGHT > this.viewport.scrollTop + visible) this.viewport.scrollTop = Math.max(0, top - visible / 2);
    this.paint();
  }

  /** Opens a case: the baseline on the left, the chosen target (or the first other one) on the right. */
  private openCase(index: number, target: number | undefined): void {
    const shown = this.shown;
    if (!shown || shown.targets.length < 2) return;
    const baseline = Math.max(0, shown.targets.findIndex((t) => t.kind === 'baseline'));
    let right = target ?? (baseline === 0 ? 1 : 0);
    if (right === baseline) right = baseline === 0 ? 1 : 0;
    this.link.send({ type: 'openCase', load: shown.load, index, left: baseline, right });
  }

  private showNotice(text: string, error: boolean): void {
    const notice = byId('notice');
    notice.hidden = false;
    notice.classList.toggle('error', error);
    setText(notice, text);
  }
}

function targetOf(node: EventTarget | null): number | undefined {
  const cell = node instanceof HTMLElement ? node.closest<HTMLElement>('[data-target]') : null;
  return cell?.dataset.target === undefined ? undefined : Number(cell.dataset.target);
}
