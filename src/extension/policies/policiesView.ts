import * as vscode from 'vscode';
import type { Policy } from '../../core/client';
import { PagedList } from '../../core/pagedList';
import type { Connection } from '../connection/connection';
import { ContextKeys, Views } from '../constants';
import { pagedChildren } from '../tree/pagedChildren';
import { ServiceTreeView } from '../tree/serviceTreeView';
import type { TreeNode } from '../tree/treeNode';
import { PolicyNode, type PoliciesTreeContext } from './policyNodes';

/** The Policies view: policies page by page (with search), each with its versions. */
export class PoliciesView extends ServiceTreeView implements PoliciesTreeContext {
  private search: string | undefined;
  private readonly list: PagedList<Policy>;
  private readonly nodes = new Map<string, PolicyNode>();

  constructor(connection: Connection) {
    super(Views.policies, connection);
    this.list = new PagedList((page, signal) => this.client().policies.list({ page, page_size: this.pageSize(), search: this.search, ordering: 'name' }, { signal }));
    this.describe();
  }

  get searchText(): string | undefined {
    return this.search;
  }

  /** Narrows the list with the service's search (empty: all policies). */
  setSearch(text: string | undefined): void {
    this.search = text?.trim() || undefined;
    void vscode.commands.executeCommand('setContext', ContextKeys.policiesFiltered, Boolean(this.search));
    this.reload();
  }

  /** The node of a policy that is loaded, if any. */
  nodeOf(policyId: string): PolicyNode | undefined {
    return this.nodes.get(policyId);
  }

  /** Shows a renamed or re-described policy at once, without reading the list again. */
  updatePolicy(policy: Policy): void {
    this.list.replace((p) => p.id === policy.id, policy);
    const node = this.nodes.get(policy.id);
    if (node) node.policy = policy;
    this.refresh(node);
  }

  /** Takes a deleted policy out of the list. */
  removePolicy(policyId: string): void {
    this.list.remove((p) => p.id === policyId);
    this.nodes.delete(policyId);
    this.refresh();
  }

  /**
   * After a new version (saved, restored, or perhaps created when the answer was lost): reads the
   * policy and its versions again and reveals the new version when known.
   */
  async showNewVersion(policyId: string, versionId: string | undefined): Promise<void> {
    let node = this.nodes.get(policyId);
    try {
      const policy = await this.client().policies.get(policyId);
      if (node) {
        node.policy = policy;
        this.list.replace((p) => p.id === policyId, policy);
      } else {
        this.list.prepend(policy);
        node = this.nodeFor(policy);
        this.refresh();
      }
    } catch {
      // The versions are still read again below; the policy row keeps its last known state.
    }
    if (!node) return;
    node.reloadVersions();
    this.refresh(node);
    await node.versions.ensureLoaded();
    const version = node.versions.loadedItems.find((v) => v.id === versionId);
    if (version) await this.reveal(node.nodeFor(version), { select: true, focus: false, expand: true });
  }

  protected async roots(): Promise<TreeNode[]> {
    return pagedChildren({
      parent: undefined,
      list: this.list,
      refresher: this,
      emptyText: this.search ? 'No policies match the search' : 'No policies yet — use “New Policy…”',
      toNode: (policy) => this.nodeFor(policy),
    });
  }

  protected forget(): void {
    this.list.reset();
    this.nodes.clear();
  }

  protected override filterDescription(): string {
    return this.search ? `“${this.search}”` : '';
  }

  private nodeFor(policy: Policy): PolicyNode {
    let node = this.nodes.get(policy.id);
    if (node) node.policy = policy;
    else this.nodes.set(policy.id, (node = new PolicyNode(policy, this)));
    return node;
  }
}
