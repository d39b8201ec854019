import * as vscode from 'vscode';
import type { ServiceClient } from '../../core/client';
import { pageSize } from '../configuration';
import type { Connection } from '../connection/connection';
import { Disposable } from '../util/disposable';
import type { TreeFailures } from './treeFailures';
import { TreeProvider } from './treeProvider';
import type { ServiceTreeHost, TreeNode } from './treeNode';

/** What makes one view of service data different from the others. */
export interface ServiceTreeOptions {
  viewId: string;
  /** "Policies view", for the log. */
  viewName: string;
  /** The `workspaceState` key its filter or search is kept under. */
  filterKey: string;
  /** The context key that says a filter is active (for the Clear button). */
  filteredContextKey: string;
  dragAndDrop?: vscode.TreeDragAndDropController<TreeNode>;
  /** Rows can be chosen together (commands get the selection as their second argument). */
  canSelectMany?: boolean;
}

/**
 * What every view of service data shares: its tree view and provider, empty (welcome content) while
 * signed out, read again when the connection changes, a filter or search kept per workspace, and a
 * description of host and filter.
 */
export abstract class ServiceTreeView<F> extends Disposable implements ServiceTreeHost {
  readonly provider: TreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  readonly viewName: string;
  protected filterValue: F | undefined;

  constructor(
    protected readonly context: vscode.ExtensionContext,
    protected readonly connection: Connection,
    readonly failures: TreeFailures,
    private readonly options: ServiceTreeOptions,
  ) {
    super();
    this.viewName = options.viewName;
    this.filterValue = context.workspaceState.get<F>(options.filterKey);
    this.provider = this.register(new TreeProvider(options.viewName, () => (this.connection.state.kind === 'connected' ? this.roots() : []), failures));
    this.treeView = this.register(vscode.window.createTreeView(options.viewId, { treeDataProvider: this.provider, showCollapseAll: true, dragAndDropController: options.dragAndDrop, canSelectMany: options.canSelectMany ?? false }));
    this.register(connection.onDidChange(() => this.reload()));
  }

  /** The top-level nodes while connected. */
  protected abstract roots(): Promise<TreeNode[]>;

  /** Forgets what is loaded (lists, node caches) so that the next draw reads from the service. */
  protected abstract forget(): void;

  /** A short text of the active filter for the view description, or ''. */
  protected abstract filterDescription(): string;

  /** True when the filter narrows the list. */
  protected isFiltered(): boolean {
    return this.filterValue !== undefined;
  }

  /** Applies a filter (undefined: none), keeps it for the workspace, and reads the list again. */
  protected async applyFilter(filter: F | undefined): Promise<void> {
    this.filterValue = filter;
    await this.context.workspaceState.update(this.options.filterKey, filter);
    this.reload();
  }

  /** The filter kept for this workspace (what the view starts with after a reload). */
  rememberedFilter(): F | undefined {
    return this.context.workspaceState.get<F>(this.options.filterKey);
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

  showProgress(work: Promise<unknown>): void {
    void vscode.window.withProgress({ location: { viewId: this.options.viewId } }, () => work);
  }

  /**
   * Reveals a node, best effort: when the list changed under it meanwhile (reloaded, paged), VS Code
   * cannot resolve it and revealing is simply skipped — the data is still shown.
   */
  async reveal(node: TreeNode | undefined, options: { select?: boolean; focus?: boolean; expand?: boolean | number }): Promise<void> {
    if (!node) return;
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
    void vscode.commands.executeCommand('setContext', this.options.filteredContextKey, this.isFiltered());
  }
}
