import type * as vscode from 'vscode';
import type { ServiceClient } from '../../core/client';
import type { TreeFailures } from './treeFailures';

/**
 * A node of one of our trees. A node is data (an agent, a job…), a list that loads page by page, or a
 * message: an error with Retry, "empty", or "Load more…" (style principle 6: trees never throw and never
 * spin forever).
 */
export interface TreeNode {
  /**
   * Unique within the view and stable across refreshes, so VS Code keeps expansion and can reveal it:
   * the parent's id and the item's own, so the same item in two places has two ids.
   */
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

/** What the nodes of a view of service data need from their view: redraws, the client, the page size, its name and its failure log. */
export interface ServiceTreeHost extends NodeRefresher {
  /** "Policies view": where a failure happened, as the log says it. */
  readonly viewName: string;
  /** Where its failures are written. */
  readonly failures: TreeFailures;
  client(): ServiceClient;
  pageSize(): number;
  /** Shows the view's progress bar until `work` settles (a list read again while its rows stay shown). */
  showProgress?(work: Promise<unknown>): void;
}
