import * as vscode from 'vscode';
import type { ServiceClient } from '../../core/client';
import { pageSize } from '../configuration';
import type { Connection } from '../connection/connection';
import { Disposable } from '../util/disposable';
import { TreeProvider } from './treeProvider';
import type { NodeRefresher, TreeNode } from './treeNode';

/**
 * What every view of service data shares: its tree view and provider, empty (welcome content) while
 * signed out, read again when the connection changes, and a description of host and filter.
 */
export abstract class ServiceTreeView extends Disposable implements NodeRefresher {
  readonly provider: TreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;

  constructor(
    viewId: string,
    protected readonly connection: Connection,
    dragAndDropController?: vscode.TreeDragAndDropController<TreeNode>,
    canSelectMany = false,
  ) {
    super();
    this.provider = this.register(new TreeProvider(() => (this.connection.state.kind === 'connected' ? this.roots() : [])));
    this.treeView = this.register(vscode.window.createTreeView(viewId, { treeDataProvider: this.provider, showCollapseAll: true, dragAndDropController, canSelectMany }));
    this.register(connection.onDidChange(() => this.reload()));
  }

  /** The top-level nodes while connected. */
  protected abstract roots(): Promise<TreeNode[]>;

  /** Forgets what is loaded (lists, node caches) so that the next draw reads from the service. */
  protected abstract forget(): void;

  /** A short text of the active filter for the view description, or ''. */
  protected filterDescription(): string {
    return '';
  }

  client(): ServiceClient {
    return this.connection.requireClient();
  }

  pageSize(): number {
    return pageSize();
  }

  refresh(node?: TreeNode): void {
    this.provider.refresh(node);
  }

  /**
   * Reveals a node, best effort: when the list changed under it meanwhile (reloaded, paged), VS Code
   * cannot resolve it and revealing is simply skipped — the data is still shown.
   */
  async reveal(node: TreeNode, options: { select?: boolean; focus?: boolean; expand?: boolean }): Promise<void> {
    try {
      await this.treeView.reveal(node, options);
    } catch {
      // Nothing to do: see above.
    }
  }

  /** Reads everything again from the first page. */
  reload(): void {
    this.forget();
    this.describe();
    this.provider.refresh();
  }

  protected describe(): void {
    const state = this.connection.state;
    const host = state.kind === 'connected' ? state.info.host : undefined;
    this.treeView.description = [host, this.filterDescription()].filter(Boolean).join(' · ') || undefined;
  }
}
