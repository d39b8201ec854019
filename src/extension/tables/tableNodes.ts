import * as vscode from 'vscode';
import type { ServiceClient, Table, TableColumn, TableDescription } from '../../core/client';
import { clip, dateTime, relativeTime } from '../../core/format';
import { typeKind, type TypeKind } from '../../core/sql/sqlCatalog';
import type { NodeRefresher, TreeNode } from '../tree/treeNode';
import { messageOf } from '../util/errors';

/** What the nodes of the Tables view need from the view. */
export interface TablesTreeContext extends NodeRefresher {
  client(): ServiceClient;
}

const TYPE_ICONS: Record<TypeKind, string> = {
  number: 'symbol-number',
  text: 'symbol-string',
  time: 'calendar',
  boolean: 'symbol-boolean',
  structure: 'symbol-array',
  other: 'symbol-field',
};

/** A table: its columns as children; row count and last change read (describe) when first expanded. */
export class TableNode implements TreeNode {
  readonly kind = 'table';
  readonly id: string;
  readonly parent = undefined;
  private description: TableDescription | undefined;
  private describeError: string | undefined;
  private describing: Promise<void> | undefined;

  constructor(
    private listed: Table,
    private readonly ctx: TablesTreeContext,
  ) {
    this.id = `table/${listed.name}`;
  }

  /** The table as last listed. */
  get table(): Table {
    return this.listed;
  }

  /** Takes the newest listing of the table; what describe read is read again when next expanded. */
  update(table: Table): void {
    if (table === this.listed) return;
    this.listed = table;
    this.description = undefined;
    this.describeError = undefined;
    this.describing = undefined;
  }

  get name(): string {
    return this.table.name;
  }

  get columns(): TableColumn[] {
    return this.description?.columns ?? this.table.columns ?? [];
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(clip(this.name), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('table');
    const count = this.columns.length;
    const d = this.description;
    const parts = [`${count} column${count === 1 ? '' : 's'}`];
    if (typeof d?.row_count === 'number') parts.push(`${d.row_count.toLocaleString('en-US')} row${d.row_count === 1 ? '' : 's'}`);
    if (d?.updated_at) parts.push(`changed ${relativeTime(d.updated_at)}`);
    item.description = parts.join(' · ');
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**').appendText(clip(this.name, 500)).appendMarkdown('**\n\n');
    if (d) {
      md.appendMarkdown('Rows: ').appendText(typeof d.row_count === 'number' ? d.row_count.toLocaleString('en-US') : 'not known').appendMarkdown('  \n');
      md.appendMarkdown('Last change: ').appendText(d.updated_at ? dateTime(d.updated_at) : 'not known').appendMarkdown('  \n');
    } else if (this.describeError) {
      md.appendMarkdown('Row count and last change could not be read: ').appendText(this.describeError).appendMarkdown('\n\n');
    } else {
      md.appendMarkdown('Expand to read its row count and last change.\n\n');
    }
    md.appendMarkdown(`${count} column${count === 1 ? '' : 's'}`);
    item.tooltip = md;
    item.contextValue = 'table';
    return item;
  }

  getChildren(): TreeNode[] {
    // The columns are known from the list; describe adds the row count and last change, then redraws.
    this.describing ??= this.describe();
    return this.columns.map((column) => new ColumnNode(this, column));
  }

  private async describe(): Promise<void> {
    try {
      this.description = await this.ctx.client().tables.describe(this.name);
      this.describeError = undefined;
    } catch (error) {
      this.describeError = messageOf(error);
    }
    this.ctx.refresh(this);
  }
}

/** A column: its name, and its type with an icon for the kind of type. */
export class ColumnNode implements TreeNode {
  readonly kind = 'tableColumn';
  readonly id: string;

  constructor(
    readonly parent: TableNode,
    readonly column: TableColumn,
  ) {
    this.id = `${parent.id}/${column.name}`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(clip(this.column.name), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    const type = this.column.type ?? '';
    item.iconPath = new vscode.ThemeIcon(TYPE_ICONS[typeKind(type)]);
    item.description = type || 'type not known';
    item.tooltip = `${this.column.name}: ${type || 'type not known'}`;
    item.contextValue = 'tableColumn';
    return item;
  }
}
