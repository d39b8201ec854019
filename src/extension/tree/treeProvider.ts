import * as vscode from 'vscode';
import { Disposable } from '../util/disposable';
import { messageOf } from '../util/errors';
import { ErrorNode } from './messageNodes';
import type { TreeFailures } from './treeFailures';
import type { NodeRefresher, TreeNode } from './treeNode';

/**
 * The tree data provider all our views share: nodes render themselves; refresh is per node. It is the
 * last guard of a view: children that fail become an error node (and a line in the log), and a node
 * listed twice under one parent is shown once — VS Code refuses a whole view over one repeated id.
 *
 * A node is never refreshed while VS Code is asking for children: VS Code forgets a node's subtree when
 * the node is refreshed, and children it was still waiting for are then registered a second time
 * ("Element with id … is already registered": the list stays blank until a reload). Refreshes asked for
 * meanwhile wait until every request for children has been answered, then go together.
 */
export class TreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode>, NodeRefresher {
  private readonly changed = this.register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private asking = 0;
  private readonly queued = new Set<TreeNode>();
  private flushTimer: NodeJS.Timeout | undefined;
  /** What each drawn node last looked like, by id: a redraw that would change nothing is skipped. */
  private readonly drawn = new Map<string, { node: TreeNode; look: string }>();

  constructor(
    private readonly viewName: string,
    private readonly roots: () => TreeNode[] | Promise<TreeNode[]>,
    private readonly failures: TreeFailures,
  ) {
    super();
    this.register({ dispose: () => clearTimeout(this.flushTimer) });
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const item = node.getTreeItem();
    this.drawn.set(node.id, { node, look: lookOf(item) });
    return item;
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    this.asking++;
    try {
      const children = node ? ((await node.getChildren?.()) ?? []) : await this.roots();
      return this.once(children, node);
    } catch (error) {
      this.failures.failed(`${this.viewName}: could not show ${node ? node.id : 'its list'}`, error);
      return [new ErrorNode(node, messageOf(error), () => this.refresh(node))];
    } finally {
      this.asking--;
      this.scheduleFlush();
    }
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  /** Redraws a node and its children (once VS Code has its pending children), or the whole view at once. */
  refresh(node?: TreeNode): void {
    if (!node) {
      // VS Code drops every pending request for children itself when the whole view is refreshed.
      this.queued.clear();
      this.drawn.clear();
      this.changed.fire(undefined);
      return;
    }
    this.queued.add(node);
    this.scheduleFlush();
  }

  /** Redraws a node only when what it shows changed (the data it reads changed); a node not drawn yet shows it when drawn. */
  redraw(node: TreeNode): void {
    const drawn = this.drawn.get(node.id);
    if (drawn?.node !== node || lookOf(node.getTreeItem()) === drawn.look) return;
    this.refresh(node);
  }

  /** Redraws every drawn node whose text changed with time ("1 min ago"). */
  redrawAll(): void {
    for (const { node } of [...this.drawn.values()]) this.redraw(node);
  }

  private scheduleFlush(): void {
    if (this.flushTimer || this.asking > 0 || this.queued.size === 0) return;
    // After the answer for children has been taken in by VS Code (it registers them right after it resolves).
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      if (this.asking > 0) return; // the end of that request flushes
      const nodes = [...this.queued];
      this.queued.clear();
      for (const node of nodes) this.changed.fire(node);
    }, 0);
  }

  private once(children: TreeNode[], parent: TreeNode | undefined): TreeNode[] {
    const seen = new Set<string>();
    const unique = children.filter((child) => !seen.has(child.id) && seen.add(child.id));
    if (unique.length < children.length) this.failures.corrected(`${this.viewName}: ${children.length - unique.length} item(s) listed twice under ${parent?.id ?? 'the top level'}; each is shown once.`);
    return unique;
  }
}

/** What a tree item shows, as one comparable string. */
function lookOf(item: vscode.TreeItem): string {
  const text = (value: unknown): unknown => (value instanceof vscode.MarkdownString ? value.value : value);
  const icon = item.iconPath instanceof vscode.ThemeIcon ? [item.iconPath.id, item.iconPath.color?.id] : JSON.stringify(item.iconPath ?? null);
  return JSON.stringify([text(item.label), item.description, text(item.tooltip), icon, item.contextValue, item.collapsibleState]);
}
