import * as vscode from 'vscode';
import { Disposable } from '../util/disposable';
import { messageOf } from '../util/errors';
import { ErrorNode } from './messageNodes';
import { reportTreeFailure, reportTreeWarning } from './treeFailures';
import type { NodeRefresher, TreeNode } from './treeNode';

/**
 * The tree data provider all our views share: nodes render themselves; refresh is per node. It is the
 * last guard of a view: children that fail become an error node (and a line in the log), and a node
 * listed twice under one parent is shown once — VS Code refuses a whole view over one repeated id.
 */
export class TreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode>, NodeRefresher {
  private readonly changed = this.register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly viewName: string,
    private readonly roots: () => TreeNode[] | Promise<TreeNode[]>,
  ) {
    super();
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    try {
      const children = node ? ((await node.getChildren?.()) ?? []) : await this.roots();
      return this.once(children, node);
    } catch (error) {
      reportTreeFailure(`${this.viewName}: could not show ${node ? node.id : 'its list'}`, error);
      return [new ErrorNode(node, messageOf(error), () => this.refresh(node))];
    }
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  /** Redraws a node and its children, or the whole view. */
  refresh(node?: TreeNode): void {
    this.changed.fire(node);
  }

  private once(children: TreeNode[], parent: TreeNode | undefined): TreeNode[] {
    const seen = new Set<string>();
    const unique = children.filter((child) => !seen.has(child.id) && seen.add(child.id));
    if (unique.length < children.length) reportTreeWarning(`${this.viewName}: ${children.length - unique.length} item(s) listed twice under ${parent?.id ?? 'the top level'}; each is shown once.`);
    return unique;
  }
}
