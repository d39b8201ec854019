import * as vscode from 'vscode';
import type { QueryResult } from '../../core/client/schemas/database';
import { gridColumns } from '../../core/grid/columnKinds';
import { isGridHostMessage, parseGridPageMessage, type CopyRequest, type GridHostMessage, type GridPageMessage, type ResultHeader, type UserPageMessage } from '../../core/grid/protocol';
import { resultTitle, statusLine, truncationNotice } from '../../core/grid/resultSummary';
import { ResultView } from '../../core/grid/resultView';
import { rowBlocks } from '../../core/grid/rowBlocks';
import type { Log } from '../log';
import { WebviewPanelHost, webviewPanelOptions, type WebviewPanelSpec } from '../webview/webviewPanelHost';
import { chooseExportTarget, copyText, MAX_COPY_CELLS, writeExport, type ExportFormat } from './resultsPanelExport';
import { RESULTS_MEDIA, RESULTS_PAGE_BODY, RESULTS_VIEW_TYPE } from './resultsPanelPage';
import { ResultsPanelProbe } from './resultsPanelProbe';
import type { QueryView } from './queryResults';

const SPEC: WebviewPanelSpec<GridPageMessage, GridHostMessage> = {
  viewType: RESULTS_VIEW_TYPE,
  title: 'Query Result',
  mediaFolder: RESULTS_MEDIA.folder,
  script: RESULTS_MEDIA.script,
  styles: RESULTS_MEDIA.styles,
  body: RESULTS_PAGE_BODY,
  parseMessage: parseGridPageMessage,
  isOutgoing: isGridHostMessage,
};

/** How long the rows after the first block wait for the page to show the first ones. */
const FIRST_ROWS_WAIT_MS = 1000;

interface ShownResult {
  result: QueryResult;
  header: ResultHeader;
  view: ResultView;
  /** Bumped at each sort or filter; a copy names the version it was made on. */
  version: number;
}

/**
 * The panel of one query: pending, failed, or its result sets in a grid. It keeps the rows and the
 * sort and filter of each result (the page only paints), streams the rows to the page in blocks
 * after each `ready`, and answers copy and export from its own copy of the rows.
 */
export class ResultPanel extends WebviewPanelHost<GridPageMessage, GridHostMessage> {
  private view: QueryView;
  private results: ShownResult[] = [];
  private active = 0;
  private load = 0;
  /** Bumped at each send of the whole state; a stream of blocks stops when it changes. */
  private generation = 0;
  /** Resolves the current stream's wait for the page's first painted rows. */
  private firstShown: (() => void) | undefined;
  /** Test builds only: timings, last messages, scroll measurement. */
  readonly probe = __TEST_HOOKS__ ? new ResultsPanelProbe((message) => this.post(message)) : undefined;

  private constructor(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, log: Log, view: QueryView) {
    super(panel, SPEC, extensionUri, log);
    this.view = view;
    this.adopt(view);
  }

  /** Opens the panel of a query beside the active editor (in the active group when there is none). */
  static create(extensionUri: vscode.Uri, log: Log, view: QueryView): ResultPanel {
    const column = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    // The browser's find would only search the few rows on screen; the filter searches them all.
    const options = { ...webviewPanelOptions(), enableFindWidget: false };
    const panel = vscode.window.createWebviewPanel(SPEC.viewType, panelTitle(view), { viewColumn: column, preserveFocus: true }, options);
    return new ResultPanel(panel, extensionUri, log, view);
  }

  get queryId(): string {
    return this.view.queryId;
  }

  /** Shows a new state of the query. The same result object again only brings the panel forward. */
  update(view: QueryView): void {
    const same = view.state === 'success' && this.view.state === 'success' && view.result === this.view.result;
    const stateChanged = view.state !== this.view.state;
    this.view = view;
    if (same) {
      this.panel.reveal(undefined, false);
      return;
    }
    this.adopt(view);
    if (stateChanged) this.panel.reveal(undefined, true);
    if (this.isReady) this.sendAll();
  }

  /** Exports every row of a result; without a target the user picks one. Returns where it was written. */
  async exportResult(format: ExportFormat, target?: vscode.Uri, resultIndex = this.active): Promise<vscode.Uri | undefined> {
    const shown = this.results[resultIndex];
    if (!shown) throw new Error(this.view.state === 'success' ? `This query has no result ${resultIndex + 1}.` : 'This query has no result to export yet.');
    const uri = target ?? (await chooseExportTarget(this.view.queryId, format, resultIndex, this.results.length));
    if (!uri) return undefined;
    const started = performance.now();
    // The filter is a way to look, not a choice of rows: every row is written, in the grid's sort.
    const table = { names: shown.result.column_names, rows: shown.result.result_rows, order: shown.view.sortedOrder(), kinds: shown.header.columns.map((c) => c.kind) };
    const size = await writeExport(uri, format, table);
    this.log.info(`Exported ${shown.result.result_rows.length} rows of query ${this.view.queryId} as ${format} to ${uri.toString(true)} (${size} bytes, ${Math.round(performance.now() - started)} ms)`);
    return uri;
  }

  protected override onReady(): void {
    this.probe?.ready();
    this.sendAll();
  }

  protected override async onMessage(received: GridPageMessage): Promise<void> {
    // Render reports and scroll measurements: test builds only (every other build refuses them on arrival).
    if (__TEST_HOOKS__ && this.probe?.take(received, this.active, this.results[this.active]?.header.rowCount)) return;
    const message = received as UserPageMessage;
    if (message.type === 'cancel') {
      if (this.view.state === 'pending' && message.key === this.view.queryId) this.view.cancel?.();
      return;
    }
    if (message.type === 'ready' || message.load !== this.load) return;
    if (message.type === 'shown') return this.firstShown?.();
    const shown = this.results[message.result];
    if (!shown) return;
    switch (message.type) {
      case 'activeResult':
        this.active = message.result;
        return;
      case 'sort':
        shown.view.setSort(message.sort ?? undefined);
        return this.sendOrder(message.result);
      case 'filter':
        shown.view.setFilter(message.text);
        return this.sendOrder(message.result);
      case 'copy':
        return this.copy(shown, message);
      case 'export':
        return this.exportFromPage(message.format, message.result);
    }
  }

  private adopt(view: QueryView): void {
    this.panel.title = panelTitle(view);
    this.results = [];
    if (view.state !== 'success') return;
    this.load++;
    this.active = 0;
    this.probe?.resultShown();
    this.results = (view.result.results ?? []).map((result, i) => {
      const columns = gridColumns(result.column_names, result.column_types);
      const header: ResultHeader = {
        title: resultTitle(i, result),
        query: result.query ?? '',
        columns,
        rowCount: result.result_rows.length,
        status: statusLine(result),
        truncation: truncationNotice(result) ?? null,
      };
      return { result, header, view: new ResultView(columns, result.result_rows), version: 0 };
    });
  }

  /** Sends everything the page shows: the state, then (for results) each sort and filter, then the rows. */
  private sendAll(): void {
    const generation = ++this.generation;
    const view = this.view;
    const sql = view.sql ?? null;
    if (view.state === 'pending') this.send({ type: 'pending', key: view.queryId, status: view.status, sql, cancellable: view.cancel !== undefined });
    else if (view.state === 'failure') this.send({ type: 'failure', key: view.queryId, error: view.error, sql });
    else {
      const first = view.result.results?.[0]?.query ?? null;
      this.send({ type: 'success', key: view.queryId, load: this.load, sql: sql ?? first, results: this.results.map((r) => r.header), active: this.active });
      this.results.forEach((shown, i) => {
        if (shown.view.sort || shown.view.filter) this.sendOrder(i);
      });
      void this.streamRows(generation).catch((error: unknown) => this.log.error(`Sending the rows of query ${view.queryId} failed`, error));
    }
  }

  /**
   * Sends the rows in blocks, the active result first, yielding between blocks; stops when superseded.
   * After the first block it waits (at most FIRST_ROWS_WAIT_MS) for the page to say those rows are on
   * screen: megabytes of later blocks queued behind them would otherwise hold the first paint back.
   */
  private async streamRows(generation: number): Promise<void> {
    const started = performance.now();
    const indexes = this.results.map((_, i) => i).sort((a, b) => Number(b === this.active) - Number(a === this.active));
    const shown = new Promise<void>((resolve) => {
      this.firstShown = resolve;
      setTimeout(resolve, FIRST_ROWS_WAIT_MS);
    });
    let blocks = 0;
    for (const index of indexes) {
      const { result, header } = this.results[index] as ShownResult;
      for (const block of rowBlocks(result.result_rows, header.columns.length)) {
        if (generation !== this.generation) return;
        if (!this.send({ type: 'rows', load: this.load, result: index, ...block })) return;
        blocks++;
        await (blocks === 1 ? shown : new Promise((resolve) => setImmediate(resolve)));
      }
    }
    this.probe?.sentAll();
    this.log.debug(`Query ${this.view.queryId}: sent ${blocks} blocks of rows in ${Math.round(performance.now() - started)} ms`);
  }

  private sendOrder(index: number): void {
    const shown = this.results[index];
    if (!shown) return;
    shown.version++;
    const started = performance.now();
    const order = shown.view.order();
    const took = performance.now() - started;
    if (took > 50) this.log.debug(`Query ${this.view.queryId}: ordering ${shown.header.rowCount} rows took ${Math.round(took)} ms`);
    this.send({ type: 'order', load: this.load, result: index, version: shown.version, order: order ? Array.from(order) : null, sort: shown.view.sort ?? null, filter: shown.view.filter });
  }

  private async copy(shown: ShownResult, request: CopyRequest): Promise<void> {
    if (request.version !== shown.version) return this.notice('The rows changed while copying: copy again.', true);
    const count = shown.view.length;
    const width = shown.header.columns.length;
    const bottom = Math.min(request.bottom, count - 1);
    const right = Math.min(request.right, width - 1);
    if (request.top > bottom || request.left > right) return;
    const cells = (bottom - request.top + 1) * (right - request.left + 1);
    if (cells > MAX_COPY_CELLS) return this.notice(`That is ${cells.toLocaleString('en-US')} cells, too many to copy: export the result instead.`, true);
    const rows = shown.view.rowsAt(request.top, bottom);
    const text = copyText(shown.result.column_names, shown.result.result_rows, rows, [request.left, right], request.headers, shown.header.columns.map((c) => c.kind));
    await vscode.env.clipboard.writeText(text);
    this.notice(`Copied ${rows.length.toLocaleString('en-US')} row${rows.length === 1 ? '' : 's'} × ${right - request.left + 1} column${right === request.left ? '' : 's'}.`, false);
  }

  private async exportFromPage(format: ExportFormat, index: number): Promise<void> {
    try {
      const uri = await this.exportResult(format, undefined, index);
      if (!uri) return;
      const rows = this.results[index]?.header.rowCount ?? 0;
      this.notice(`Exported ${rows.toLocaleString('en-US')} rows to ${uri.path.split('/').pop() ?? ''}.`, false);
      const open = await vscode.window.showInformationMessage(`Exported ${rows.toLocaleString('en-US')} rows to ${uri.fsPath || uri.toString(true)}.`, 'Open File');
      if (open === 'Open File') await vscode.commands.executeCommand('vscode.open', uri);
    } catch (error) {
      this.log.error(`Export of query ${this.view.queryId} failed`, error);
      const message = error instanceof Error ? error.message : String(error);
      this.notice(`Export failed: ${message}`, true);
      void vscode.window.showErrorMessage(`Could not export the query result: ${message}`);
    }
  }

  private notice(text: string, error: boolean): void {
    this.send({ type: 'notice', text, error });
  }

  private send(message: GridHostMessage): boolean {
    const sent = this.post(message);
    if (sent) this.probe?.posted(message);
    return sent;
  }
}

/** "SELECT name FROM customers… · 1,000 rows": the statement's start, and where the query stands. */
function panelTitle(view: QueryView): string {
  const statement = (view.sql ?? (view.state === 'success' ? view.result.results?.[0]?.query : undefined) ?? '').replace(/\s+/g, ' ').trim();
  const name = statement ? (statement.length > 32 ? `${statement.slice(0, 31)}…` : statement) : `Query ${view.queryId.slice(0, 8)}`;
  if (view.state === 'pending') return `${name} (running)`;
  if (view.state === 'failure') return `${name} (failed)`;
  const rows = (view.result.results ?? []).reduce((sum, r) => sum + r.result_rows.length, 0);
  return `${name} · ${rows.toLocaleString('en-US')} row${rows === 1 ? '' : 's'}`;
}
