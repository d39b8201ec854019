import * as vscode from 'vscode';
import { Disposable } from '../util/disposable';
import type { NodeRefresher, TreeNode } from './treeNode';

/** The tree data provider all our views share: nodes render themselves; refresh is per node. */
export class TreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode>, NodeRefresher {
  private readonly changed = this.register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly roots: () => TreeNode[] | Promise<TreeNode[]>) {
    super();
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  getChildren(node?: TreeNode): vscode.ProviderResult<TreeNode[]> {
    return node ? (node.getChildren?.() ?? []) : this.roots();
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  /** Redraws a node and its children, or the whole view. */
  refresh(node?: TreeNode): void {
    this.changed.fire(node);
  }
}
