import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import { isUnsupported } from '../../core/serviceDecisions';
import { ContextKeys, StateKeys, Views } from '../constants';
import { EmptyNode, ErrorNode } from '../tree/messageNodes';
import { ServiceTreeView } from '../tree/serviceTreeView';
import type { TreeNode } from '../tree/treeNode';
import { messageOf } from '../util/errors';
import type { TableCatalog } from './tableCatalog';
import { TableNode, type TablesTreeContext } from './tableNodes';

/**
 * The Tables view: the organization's tables (one list, not paged) with their typed columns, searched
 * by table or column name in the view (the search is kept per workspace, like the other views'). CSV
 * files dropped onto it become tables.
 */
export class TablesView extends ServiceTreeView<string> implements TablesTreeContext {
  private readonly nodes = new Map<string, TableNode>();

  constructor(
    context: vscode.ExtensionContext,
    connection: Connection,
    readonly catalog: TableCatalog,
    dragAndDrop?: vscode.TreeDragAndDropController<TreeNode>,
  ) {
    super(context, connection, { viewId: Views.tables, viewName: 'Tables view', filterKey: StateKeys.tableSearch, filteredContextKey: ContextKeys.tablesFiltered, dragAndDrop });
    this.describe();
  }

  get searchText(): string | undefined {
    return this.filterValue;
  }

  /** Shows only tables whose name, or one of whose columns' names, holds the text (empty: all). */
  setSearch(text: string | undefined): Promise<void> {
    return this.applyFilter(text?.trim() || undefined);
  }

  /** The node of a table as last listed. */
  nodeOf(name: string): TableNode | undefined {
    return this.nodes.get(name.toLowerCase());
  }

  /** Reads the list again (the catalog too), then reveals a table when asked. */
  async reloadAndReveal(name?: string): Promise<void> {
    this.reload();
    if (!name) return;
    await this.catalog.load();
    await this.roots();
    const node = this.nodeOf(name);
    if (node) await this.reveal(node, { select: true, focus: false });
  }

  protected async roots(): Promise<TreeNode[]> {
    const state = await this.catalog.load();
    if (state.kind === 'error') {
      if (isUnsupported(state.error)) return [new EmptyNode(undefined, 'This server has no tables API')];
      return [new ErrorNode(undefined, messageOf(state.error), () => this.reload())];
    }
    const needle = this.filterValue?.toLowerCase();
    const shown = needle ? state.tables.filter((t) => t.name.toLowerCase().includes(needle) || (t.columns ?? []).some((c) => c.name.toLowerCase().includes(needle))) : state.tables;
    if (shown.length === 0) return [new EmptyNode(undefined, needle ? 'No tables match the search' : 'No tables — upload a CSV to make one')];
    return shown.map((table) => {
      const key = table.name.toLowerCase();
      let node = this.nodes.get(key);
      if (!node || node.table !== table) this.nodes.set(key, (node = new TableNode(table, this)));
      return node;
    });
  }

  protected forget(): void {
    this.nodes.clear();
    this.catalog.invalidate();
  }

  protected filterDescription(): string {
    return this.filterValue ? `“${this.filterValue}”` : '';
  }
}
