import type * as vscode from 'vscode';

/**
 * A node of one of our trees. A node is data (an agent, a job…), a list that loads page by page, or a
 * message: an error with Retry, "empty", or "Load more…" (style principle 6: trees never throw and never
 * spin forever).
 */
export interface TreeNode {
  /** Unique within the view and stable across refreshes, so VS Code keeps expansion and can reveal it. */
  readonly id: string;
  /** What the node is ('agent', 'job', 'error'…): a plain tag, usable where `instanceof` is not (another bundle, tests). */
  readonly kind: string;
  readonly parent: TreeNode | undefined;
  getTreeItem(): vscode.TreeItem;
  getChildren?(): TreeNode[] | Promise<TreeNode[]>;
}

/** Something that can redraw a node (or the whole view when given nothing). */
export interface NodeRefresher {
  refresh(node?: TreeNode): void;
}
