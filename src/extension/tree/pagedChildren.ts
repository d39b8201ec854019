import type { PagedList } from '../../core/pagedList';
import { messageOf } from '../util/errors';
import { EmptyNode, ErrorNode, LoadMoreNode } from './messageNodes';
import type { NodeRefresher, TreeNode } from './treeNode';

export interface PagedChildrenOptions<T> {
  parent: TreeNode | undefined;
  list: PagedList<T>;
  toNode: (item: T) => TreeNode;
  refresher: NodeRefresher;
  /** "No agents", "No jobs match the filter"… */
  emptyText: string;
}

/**
 * The children of a paged list as a tree shows them: the items loaded so far, then "Load more…" with
 * the number remaining, an error node with Retry, or a sentence saying the list is empty.
 */
export async function pagedChildren<T>(options: PagedChildrenOptions<T>): Promise<TreeNode[]> {
  const { list, parent, refresher } = options;
  await list.ensureLoaded();
  const state = list.state;
  if (state.kind === 'idle' || state.kind === 'loading') return state.items.map(options.toNode);
  const nodes = state.items.map(options.toNode);
  if (state.kind === 'error') {
    const retry = (): void => {
      void list.loadMore();
      refresher.refresh(parent);
    };
    nodes.push(new ErrorNode(parent, messageOf(state.error), retry));
    return nodes;
  }
  if (state.items.length === 0) return [new EmptyNode(parent, options.emptyText)];
  if (state.hasMore) {
    nodes.push(new LoadMoreNode(parent, state.remaining, () => {
      void list.loadMore();
      refresher.refresh(parent);
    }));
  }
  return nodes;
}
