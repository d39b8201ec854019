import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import { isUnsupported } from '../../core/serviceDecisions';
import { ContextKeys, StateKeys, Views } from '../constants';
import { PagedNodes } from '../tree/pagedNodes';
import { ServiceTreeView } from '../tree/serviceTreeView';
import type { TreeNode } from '../tree/treeNode';
import type { PageResult } from '../../core/pagedList';
import type { Table } from '../../core/client';
import type { TableCatalog } from './tableCatalog';
import { TableNode, type TablesTreeContext } from './tableNodes';

/** A table as the view lists it: keyed by its name, which the service compares without case. */
interface ListedTable {
  id: string;
  table: Table;
}
import type { TreeFailures } from '../tree/treeFailures';

/**
 * The Tables view: the organization's tables (one list, not paged) with their typed columns, searched
 * by table or column name in the view (the search is kept per workspace, like the other views'). CSV
 * files dropped onto it become tables.
 */
export class TablesView extends ServiceTreeView<string> implements TablesTreeContext {
  /** The tables as one page: the catalog reads the list whole, and SQL editing shares that answer. */
  private readonly tables: PagedNodes<ListedTable, TableNode>;

  constructor(
    context: vscode.ExtensionContext,
    connection: Connection,
    failures: TreeFailures,
    readonly catalog: TableCatalog,
    dragAndDrop?: vscode.TreeDragAndDropController<TreeNode>,
  ) {
    super(context, connection, failures, { viewId: Views.tables, viewName: 'Tables view', filterKey: StateKeys.tableSearch, filteredContextKey: ContextKeys.tablesFiltered, dragAndDrop });
    this.tables = new PagedNodes<ListedTable, TableNode>({
      parent: undefined,
      host: this,
      fetchPage: () => this.readTables(),
      createNode: (item) => new TableNode(item.table, this),
      updateNode: (node, item) => node.update(item.table),
      emptyText: () => (this.noTablesApi() ? 'This server has no tables API' : this.filterValue ? 'No tables match the search' : 'No tables — upload a CSV to make one'),
    });
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
    return this.tables.nodeOf(name.toLowerCase());
  }

  /** Reads the list again (the catalog too), then reveals a table when asked. */
  async reloadAndReveal(name?: string): Promise<void> {
    this.forget();
    this.describe();
    const node = await this.tables.reloadAndFind(name?.toLowerCase());
    if (node) await this.reveal(node, { select: true, focus: false });
  }

  protected roots(): Promise<TreeNode[]> {
    return this.tables.children();
  }

  protected forget(): void {
    this.tables.forget();
    this.catalog.invalidate();
  }

  protected filterDescription(): string {
    return this.filterValue ? `“${this.filterValue}”` : '';
  }

  private async readTables(): Promise<PageResult<ListedTable>> {
    const state = await this.catalog.load();
    if (state.kind === 'error') {
      // A server without the tables API is not a failure: the view says so instead of an error.
      if (isUnsupported(state.error)) return { count: 0, results: [], nextPage: null };
      throw state.error;
    }
    const needle = this.filterValue?.toLowerCase();
    const shown = needle ? state.tables.filter((t) => t.name.toLowerCase().includes(needle) || (t.columns ?? []).some((c) => c.name.toLowerCase().includes(needle))) : state.tables;
    return { count: shown.length, results: shown.map((table) => ({ id: table.name.toLowerCase(), table })), nextPage: null };
  }

  private noTablesApi(): boolean {
    const state = this.catalog.current;
    return state?.kind === 'error' && isUnsupported(state.error);
  }
}
