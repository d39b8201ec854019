import * as vscode from 'vscode';
import type { QueryResultSet } from '../../core/client/schemas/database';
import type { Log } from '../log';
import { targetUri, type ExportFormat } from './resultsPanelExport';
import type { ResultsPanelProbe } from './resultsPanelProbe';
import { ResultPanel } from './resultsPanelView';

/** What a query result panel shows: a query still running, one that failed, or its result sets. */
export type QueryView =
  | { state: 'pending'; queryId: string; status: string; sql?: string }
  | { state: 'failure'; queryId: string; error: string; sql?: string }
  | { state: 'success'; queryId: string; result: QueryResultSet; sql?: string };

/**
 * The query result panels, one per query ID. A panel shows the query's state and, once it
 * succeeded, its rows in a grid (sort, filter, select, copy, export). Closing a panel frees its rows.
 */
export class ResultsPanels implements vscode.Disposable {
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
    const panel = ResultPanel.create(this.context.extensionUri, this.log, view);
    this.panels.set(view.queryId, panel);
    panel.onDidDispose(() => {
      if (this.panels.get(view.queryId) === panel) this.panels.delete(view.queryId);
    });
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
