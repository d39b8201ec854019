import * as vscode from 'vscode';
import type { QueryResultSet } from '../../core/client/schemas/database';
import type { Log } from '../log';
import { targetUri, type ExportFormat } from './resultsPanelExport';
import type { ResultsPanelProbe } from './resultsPanelProbe';
import type { ResultPanel } from './resultPanel';
import { loadPanels } from '../lazyPanels';

/**
 * What a query result panel shows: a query still running (with Cancel when `cancel` is given: it
 * stops the waiting), one that failed, or its result sets. `queryId` keys the panel; before the
 * service gave the query an ID, any unique key (see `rekey`).
 */
export type QueryView =
  | { state: 'pending'; queryId: string; status: string; sql?: string; cancel?: () => void }
  | { state: 'failure'; queryId: string; error: string; sql?: string }
  | { state: 'success'; queryId: string; result: QueryResultSet; sql?: string };

/**
 * The query result panels, one per query ID. A panel shows the query's state and, once it
 * succeeded, its rows in a grid (sort, filter, select, copy, export). Closing a panel frees its rows.
 *
 * Open a panel as `pending` the moment the user asks for rows (before the request goes out): an
 * empty webview takes about a second to start, and it starts while the service works, so the rows
 * show as soon as the `success` view arrives. Run Query and Open Query Result do so; anything else
 * that shows rows (a table's preview, a comparison) can do the same.
 */
export class QueryResults implements vscode.Disposable {
  private readonly panels = new Map<string, ResultPanel>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Log,
  ) {}

  /** Shows (or updates) the panel of this query; one panel per query ID, reused. */
  show(view: QueryView): void {
    const existing = this.panels.get(view.queryId);
    if (existing) {
      existing.update(view);
      return;
    }
    const panel = loadPanels().ResultPanel.create(this.context.extensionUri, this.log, view);
    this.panels.set(view.queryId, panel);
    panel.onDidDispose(() => {
      for (const [key, open] of this.panels) if (open === panel) this.panels.delete(key);
    });
  }

  /** Gives the panel opened under a provisional key its query's ID (once the service answered). */
  rekey(from: string, to: string): void {
    const panel = this.panels.get(from);
    if (!panel || from === to) return;
    this.panels.delete(from);
    this.panels.get(to)?.dispose();
    this.panels.set(to, panel);
  }

  /** The probe of a query's panel (test builds only). */
  probe(queryId: string): ResultsPanelProbe | undefined {
    return this.panels.get(queryId)?.probe;
  }

  /**
   * Exports every row of a result (the active one unless `resultIndex` says) as CSV or JSON, in the
   * grid's current sort; the grid's filter is not applied. Asks where to save unless `targetPath`
   * (absolute) is given. Returns the path written, or undefined when the user cancelled.
   */
  async exportResult(queryId: string, format: ExportFormat, targetPath?: string, resultIndex?: number): Promise<string | undefined> {
    const panel = this.panels.get(queryId);
    if (!panel) throw new Error(`No result panel is open for query ${queryId}.`);
    const uri = await panel.exportResult(format, targetPath === undefined ? undefined : targetUri(targetPath), resultIndex);
    if (!uri) return undefined;
    return uri.scheme === 'file' ? uri.fsPath : uri.toString(true);
  }

  dispose(): void {
    for (const panel of [...this.panels.values()]) panel.dispose();
    this.panels.clear();
  }
}
