// A reference tree beside the Agents view (contributed by the bench runner into the same view
// container): the least any extension can do to show a page of agents. `instant` hands VS Code
// items it already holds (VS Code's own cost of expanding a view and drawing rows); `fetch` reads
// the page with one plain fetch() from the extension host first (no client, no validation).
import * as vscode from 'vscode';
import type { ReferenceTreeArgs } from '../protocol';

export const REFERENCE_VIEW_ID = 'agentWorkbenchBench.reference';

let config: ReferenceTreeArgs | undefined;
const changed = new vscode.EventEmitter<void>();

async function page(args: ReferenceTreeArgs): Promise<string[]> {
  if (args.mode === 'instant') return args.labels ?? [];
  const url = `${args.baseUrl}/v1/agents/?organization_id=${args.organizationId}&page=1&page_size=50&ordering=${args.ordering}`;
  const response = await fetch(url, { headers: { authorization: `Bearer ${args.token}`, accept: 'application/json' } });
  const body = (await response.json()) as { results: { name: string; engine_name?: string }[] };
  return body.results.map((agent) => agent.name);
}

const provider: vscode.TreeDataProvider<string> = {
  onDidChangeTreeData: changed.event,
  getTreeItem: (label) => {
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
    item.iconPath = new vscode.ThemeIcon('hubot');
    return item;
  },
  getChildren: (element) => (element || !config ? [] : page(config)),
};

/** Registers the reference view's provider (at the runner's activation, before the view can show). */
export function registerReferenceTree(): vscode.Disposable {
  return vscode.Disposable.from(vscode.window.registerTreeDataProvider(REFERENCE_VIEW_ID, provider), changed);
}

/** Sets what the reference view shows next and invalidates it. */
export function setReferenceTree(args: ReferenceTreeArgs): null {
  config = args;
  changed.fire();
  return null;
}
