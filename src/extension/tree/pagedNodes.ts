import { PagedList, type FetchPage } from '../../core/pagedList';
import { messageOf } from '../util/errors';
import { EmptyNode, ErrorNode, LoadMoreNode } from './messageNodes';
import type { ServiceTreeHost, TreeNode } from './treeNode';

export interface PagedNodesOptions<T, N extends TreeNode> {
  /** The node the items hang under; undefined for the top level of the view. */
  parent: TreeNode | undefined;
  host: ServiceTreeHost;
  fetchPage: FetchPage<T>;
  /** Makes the node of an item. */
  createNode: (item: T) => N;
  /** Puts a newer copy of an item into its node (the same node stays, so expansion and reveal keep working). */
  updateNode: (node: N, item: T) => void;
  /** "No agents", "No jobs match the filter"… */
  emptyText: () => string;
  /** Items not to show here (already shown elsewhere in the view). */
  hide?: (item: T) => boolean;
  /** Names the list in its error node when the view shows several lists side by side ("Personal dataset"). */
  label?: string;
}

/**
 * The one paged parent of our trees: a list read page by page, one node per item kept across redraws
 * (so VS Code can reveal it), and the children a tree shows — the items loaded so far, then "Load more…"
 * with the number remaining, an error node with Retry (its reason in the log), or a sentence saying
 * the list is empty.
 */
export class PagedNodes<T extends { id: string }, N extends TreeNode> {
  readonly list: PagedList<T>;
  private readonly nodes = new Map<string, N>();

  constructor(private readonly options: PagedNodesOptions<T, N>) {
    this.list = new PagedList(options.fetchPage);
  }

  /** The children to draw: loads the first page when nothing is loaded yet. */
  async children(): Promise<TreeNode[]> {
    const { list, parent } = this;
    // While a refresh reads the list again, the rows loaded stay (VS Code keeps their actions working); the refresh redraws when done.
    if (!list.refreshing) await list.ensureLoaded();
    const state = list.state;
    const hide = this.options.hide;
    const nodes: TreeNode[] = state.items.filter((item) => !hide?.(item)).map((item) => this.nodeFor(item));
    if (state.kind === 'idle' || state.kind === 'loading') return nodes;
    if (state.kind === 'error') {
      const label = this.options.label;
      this.options.host.failures.failed(`${this.options.host.viewName}: could not load ${label ?? (parent ? `the list under ${parent.id}` : 'its list')}`, state.error);
      nodes.push(new ErrorNode(parent, `${label ? `${label}: ` : ''}${messageOf(state.error)}`, () => this.loadMore(), undefined, label));
      return nodes;
    }
    if (state.items.length === 0) return [new EmptyNode(parent, this.options.emptyText(), this.options.label)];
    if (state.hasMore) nodes.push(new LoadMoreNode(parent, state.remaining, () => this.loadMore(), this.options.label));
    return nodes;
  }

  get parent(): TreeNode | undefined {
    return this.options.parent;
  }

  /** The items loaded so far, in order. */
  get loadedItems(): readonly T[] {
    return this.list.loadedItems;
  }

  /** The node of an item (the same object each time, given the newest copy of the item). */
  nodeFor(item: T): N {
    let node = this.nodes.get(item.id);
    if (node) this.options.updateNode(node, item);
    else this.nodes.set(item.id, (node = this.options.createNode(item)));
    return node;
  }

  /** The node of a loaded item, if any. */
  nodeOf(id: string): N | undefined {
    return this.nodes.get(id);
  }

  /** Fetches the next page (after a failure, the same page again) and redraws the parent. */
  loadMore(): void {
    void this.list.loadMore();
    this.options.host.refresh(this.parent);
  }

  /** Forgets what is loaded; the next draw reads the first page again. */
  forget(): void {
    this.list.reset();
    this.nodes.clear();
  }

  /**
   * Reads the first page again and then redraws the parent. The rows shown stay until the answer is in:
   * VS Code forgets the rows of a node it redraws until its children are answered, so a redraw that
   * waited on the service would leave a click on a row's action (Watch Job, Cancel…) with no row. A list
   * never drawn just reads its first page when it is drawn.
   */
  reload(): Promise<void> {
    const { list, options } = this;
    if (list.state.kind === 'idle') {
      this.restart();
      return Promise.resolve();
    }
    const done = list.refresh().then(() => {
      // Rows of items no longer listed go; the others keep their node (expansion and reveal keep working).
      const listed = new Set(list.loadedItems.map((item) => item.id));
      for (const id of [...this.nodes.keys()]) if (!listed.has(id)) this.nodes.delete(id);
      options.host.refresh(this.parent);
    });
    options.host.showProgress?.(done);
    return done;
  }

  /**
   * Forgets what is loaded and redraws the parent, which reads the first page: for a list whose query
   * changed (a filter), where the rows shown no longer belong and must not stay while it is read.
   */
  restart(): void {
    this.forget();
    this.options.host.refresh(this.parent);
  }

  /** Reads the list again and returns the node of an item once it is loaded (to reveal what was just created). */
  async reloadAndFind(id: string | undefined): Promise<N | undefined> {
    return (await this.reloadAndFindAll(id === undefined ? [] : [id]))[0];
  }

  /** Reads the list again and returns the nodes of the items of the first page among `ids`. */
  async reloadAndFindAll(ids: readonly string[]): Promise<N[]> {
    await this.reload();
    await this.list.ensureLoaded();
    return this.list.loadedItems.filter((item) => ids.includes(item.id)).map((item) => this.nodeFor(item));
  }

  /** Shows a newer copy of a loaded item at once (an edit the user made) and redraws its node. */
  replace(item: T): N | undefined {
    if (!this.list.replace((x) => x.id === item.id, item)) return undefined;
    const node = this.nodeFor(item);
    this.options.host.refresh(node);
    return node;
  }

  /** Takes an item the user deleted out of the list, and redraws the parent. */
  remove(id: string): void {
    this.list.remove((x) => x.id === id);
    this.nodes.delete(id);
    this.options.host.refresh(this.parent);
  }

  /** Puts an item the user just created on top, where it can be seen without reloading. */
  prepend(item: T): N {
    this.list.prepend(item);
    this.options.host.refresh(this.parent);
    return this.nodeFor(item);
  }
}
