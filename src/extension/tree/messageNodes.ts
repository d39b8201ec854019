import * as vscode from 'vscode';
import type { TreeNode } from './treeNode';
import { TreeCommands } from '../constants';

/** Shown where a list failed to load: the service's message, and clicking (or the inline action) retries. */
export class ErrorNode implements TreeNode {
  readonly kind = 'error';
  readonly id: string;
  constructor(
    readonly parent: TreeNode | undefined,
    private readonly message: string,
    readonly retry: () => void,
    private readonly detail?: string,
    list?: string,
  ) {
    this.id = placeId(parent, list, 'error');
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.message, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    item.description = 'click to retry';
    item.tooltip = this.detail ? `${this.message}\n\n${this.detail}` : this.message;
    item.contextValue = 'error';
    item.command = { command: TreeCommands.retry, title: 'Retry', arguments: [this] };
    item.accessibilityInformation = { label: `Error: ${this.message}. Activate to retry.` };
    return item;
  }
}

/** Says plainly that a list is empty (or empty under the active filter), instead of showing nothing. */
export class EmptyNode implements TreeNode {
  readonly kind = 'empty';
  readonly id: string;
  constructor(
    readonly parent: TreeNode | undefined,
    private readonly text: string,
    list?: string,
  ) {
    this.id = placeId(parent, list, 'empty');
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.text, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('info');
    item.contextValue = 'empty';
    return item;
  }
}

/** The last node of a paged list: says how many remain and fetches the next page when clicked. */
export class LoadMoreNode implements TreeNode {
  readonly kind = 'loadMore';
  readonly id: string;
  constructor(
    readonly parent: TreeNode | undefined,
    private readonly remaining: number,
    readonly loadMore: () => void,
    list?: string,
  ) {
    this.id = placeId(parent, list, 'load-more');
  }

  getTreeItem(): vscode.TreeItem {
    const label = this.remaining > 0 ? `Load more… (${this.remaining.toLocaleString('en-US')} remaining)` : 'Load more…';
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('more');
    item.contextValue = 'loadMore';
    item.command = { command: TreeCommands.loadMore, title: 'Load More', arguments: [this] };
    return item;
  }
}

/** The id of a message node: unique per parent, and per list when a parent shows several lists. */
function placeId(parent: TreeNode | undefined, list: string | undefined, kind: string): string {
  return [parent?.id ?? 'root', list, kind].filter(Boolean).join('/');
}
