import * as vscode from 'vscode';
import { Views } from '../constants';
import type { Connection, ConnectionState } from '../connection/connection';
import { Disposable } from '../util/disposable';

/**
 * Registers the three views and keeps their description on the service host, so the connected
 * state is visible in the side bar. Signed out, a view is empty and VS Code shows its welcome content.
 */
export class ConnectionViews extends Disposable {
  private readonly views: vscode.TreeView<unknown>[];

  constructor(connection: Connection, providers: Record<string, vscode.TreeDataProvider<unknown>>) {
    super();
    this.views = [Views.agents, Views.policies, Views.datasets].map((id) =>
      this.register(vscode.window.createTreeView(id, { treeDataProvider: providers[id] ?? emptyProvider, showCollapseAll: id !== Views.datasets })),
    );
    this.register(connection.onDidChange((state) => this.describe(state)));
    this.describe(connection.state);
  }

  /** The tree view of the given id. */
  view(id: string): vscode.TreeView<unknown> | undefined {
    return this.views.find((_, i) => [Views.agents, Views.policies, Views.datasets][i] === id);
  }

  private describe(state: ConnectionState): void {
    for (const view of this.views) view.description = state.kind === 'connected' ? state.info.host : undefined;
  }
}

const emptyProvider: vscode.TreeDataProvider<unknown> = {
  getTreeItem: () => new vscode.TreeItem(''),
  getChildren: () => [],
};
