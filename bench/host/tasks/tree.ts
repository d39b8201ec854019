// The Agents view from the extension host's side: its ordering, and the timing of VS Code's
// request for the root's children (the orchestrator times the same thing in the browser).
import type { TreeNode } from '../../../src/extension/tree/treeNode';
import type { TreeRootTiming } from '../protocol';
import { workbenchApi } from '../workbench';

let last: TreeRootTiming | null = null;
let calls = 0;
let instrumented = false;

function labelOf(node: TreeNode | undefined): string | null {
  const label = node?.getTreeItem().label;
  return typeof label === 'string' ? label : (label?.label ?? null);
}

/** Times every root request VS Code makes to the Agents view's provider (installed once). */
async function instrument(): Promise<void> {
  if (instrumented) return;
  const { provider } = (await workbenchApi()).agents;
  const original = provider.getChildren.bind(provider);
  // VS Code calls the provider object's method when it needs children: an own property wins.
  provider.getChildren = (node?: TreeNode) => {
    if (node) return original(node);
    const startedAt = Date.now();
    const started = performance.now();
    calls++;
    return Promise.resolve(original(undefined)).then((nodes) => {
      last = { startedAt, durationMs: performance.now() - started, nodes: nodes?.length ?? 0, firstLabel: labelOf(nodes?.[0]), calls };
      return nodes;
    });
  };
  instrumented = true;
}

/** Sets the view's ordering (null: the service's default); the view reads its first page again when shown. */
export async function setTreeOrdering(ordering: string | null): Promise<null> {
  await instrument();
  await (await workbenchApi()).agents.setFilter(ordering ? { ordering } : {});
  return null;
}

/** The last root request seen. */
export function lastRoot(): TreeRootTiming | null {
  return last;
}
