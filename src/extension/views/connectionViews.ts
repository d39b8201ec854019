import * as vscode from 'vscode';
import type { Connection, ConnectionState } from '../connection/connection';
import { Disposable } from '../util/disposable';

/**
 * Views whose contents come later: empty, so VS Code shows their welcome content (sign in, start the
 * sandbox, or what will appear), with the service host as description when connected.
 */
export class PlaceholderViews extends Disposable {
  private readonly views: vscode.TreeView<unknown>[];

  constructor(connection: Connection, ids: string[]) {
    super();
    this.views = ids.map((id) => this.register(vscode.window.createTreeView(id, { treeDataProvider: emptyProvider })));
    this.register(connection.onDidChange((state) => this.describe(state)));
    this.describe(connection.state);
  }

  private describe(state: ConnectionState): void {
    for (const view of this.views) view.description = state.kind === 'connected' ? state.info.host : undefined;
  }
}

const emptyProvider: vscode.TreeDataProvider<unknown> = {
  getTreeItem: () => new vscode.TreeItem(''),
  getChildren: () => [],
};
