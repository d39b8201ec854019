// Everything around the grid: result tabs, the filter box, export buttons, the status line with its
// notices, the note about rows the service cut off, and the view of the focused cell's whole value.
import type { ResultHeader } from '../../core/grid/protocol';
import { byId, count, make, setText } from '../common/dom';

const FILTER_DELAY_MS = 150;
const NOTICE_MS = 4000;
/** The cell view shows this much of a value; copying the cell gives all of it. */
const CELL_VIEW_CHARS = 20_000;

export interface ToolbarActions {
  activate(result: number): void;
  filter(text: string): void;
  exportAs(format: 'csv' | 'json'): void;
  copyWithNames(): void;
}

export class Toolbar {
  private readonly tabs = byId('tabs');
  private readonly filterBox = byId<HTMLInputElement>('filter');
  private readonly matchCount = byId('match-count');
  private readonly status = byId('status');
  private readonly selectionInfo = byId('selection-info');
  private readonly notice = byId('notice');
  private readonly truncation = byId('truncation');
  private readonly cellName = byId('cell-view-name');
  private readonly cellValue = byId('cell-view-value');
  private filterTimer: ReturnType<typeof setTimeout> | undefined;
  private noticeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly actions: ToolbarActions) {
    this.filterBox.addEventListener('input', () => {
      clearTimeout(this.filterTimer);
      this.filterTimer = setTimeout(() => this.actions.filter(this.filterBox.value), FILTER_DELAY_MS);
    });
    this.filterBox.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.filterBox.value) {
        this.filterBox.value = '';
        clearTimeout(this.filterTimer);
        this.actions.filter('');
        e.stopPropagation();
      } else if (e.key === 'Enter' || e.key === 'ArrowDown') {
        byId('grid').focus();
        e.preventDefault();
      }
    });
    byId('export-csv').addEventListener('click', () => this.actions.exportAs('csv'));
    byId('export-json').addEventListener('click', () => this.actions.exportAs('json'));
    byId('copy-names').addEventListener('click', () => this.actions.copyWithNames());
    this.tabs.addEventListener('keydown', (e) => this.onTabKey(e));
  }

  /** Builds the tabs (only when there are several results) and marks the active one. */
  showTabs(results: readonly ResultHeader[], active: number): void {
    this.tabs.hidden = results.length < 2;
    this.tabs.replaceChildren(
      ...results.map((result, i) => {
        const tab = make('button', 'tab', result.title);
        tab.type = 'button';
        tab.id = `tab-${i}`;
        tab.setAttribute('role', 'tab');
        tab.setAttribute('aria-controls', 'grid');
        if (result.query) tab.title = result.query;
        tab.addEventListener('click', () => this.actions.activate(i));
        return tab;
      }),
    );
    this.markTab(active);
  }

  markTab(active: number): void {
    this.tabs.querySelectorAll<HTMLButtonElement>('[role="tab"]').forEach((tab, i) => {
      tab.setAttribute('aria-selected', String(i === active));
      tab.tabIndex = i === active ? 0 : -1;
    });
  }

  /** The status line and the truncation note of the shown result. */
  showResult(result: ResultHeader, filter: string): void {
    setText(this.status, result.status);
    this.truncation.hidden = result.truncation === null;
    setText(this.truncation, result.truncation ?? '');
    if (this.filterBox.value !== filter) this.filterBox.value = filter;
  }

  /** "1,234 of 100,000 rows match" while a filter is on; "Filtering…" while the extension works. */
  showMatches(text: string): void {
    setText(this.matchCount, text);
  }

  matchText(shown: number, total: number, filter: string): string {
    if (filter.trim() === '') return '';
    return `${count(shown)} of ${count(total)} row${total === 1 ? '' : 's'} match`;
  }

  showSelection(text: string): void {
    setText(this.selectionInfo, text);
  }

  /** A short message in the status line (errors stay until the next one). */
  flash(text: string, error = false): void {
    clearTimeout(this.noticeTimer);
    setText(this.notice, text);
    this.notice.classList.toggle('error', error);
    if (!error) this.noticeTimer = setTimeout(() => setText(this.notice, ''), NOTICE_MS);
  }

  /** The focused cell's column and its whole value (up to a limit), selectable. */
  showCell(column: string, value: string | null | undefined): void {
    setText(this.cellName, column);
    this.cellValue.classList.toggle('null', value === null);
    if (value === undefined) setText(this.cellValue, '');
    else if (value === null) setText(this.cellValue, 'NULL');
    else if (value.length > CELL_VIEW_CHARS) setText(this.cellValue, `${value.slice(0, CELL_VIEW_CHARS)}… (${count(value.length - CELL_VIEW_CHARS)} more characters: copy the cell for all of it)`);
    else setText(this.cellValue, value);
  }

  focusFilter(): void {
    this.filterBox.focus();
    this.filterBox.select();
  }

  focusCellView(): void {
    this.cellValue.focus();
  }

  private onTabKey(e: KeyboardEvent): void {
    const tabs = [...this.tabs.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
    const current = tabs.findIndex((tab) => tab.getAttribute('aria-selected') === 'true');
    const next = e.key === 'ArrowRight' ? current + 1 : e.key === 'ArrowLeft' ? current - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : undefined;
    if (next === undefined || tabs.length === 0) return;
    const index = (next + tabs.length) % tabs.length;
    this.actions.activate(index);
    tabs[index]?.focus();
    e.preventDefault();
  }
}
