import type * as vscode from 'vscode';
import type { Policy } from '../../core/client';
import type { Connection } from '../connection/connection';
import { ContextKeys, StateKeys, Views } from '../constants';
import { PagedNodes } from '../tree/pagedNodes';
import { ServiceTreeView } from '../tree/serviceTreeView';
import type { TreeNode } from '../tree/treeNode';
import { PolicyNode, type PoliciesTreeContext } from './policyNodes';
import type { TreeFailures } from '../tree/treeFailures';

/** The Policies view: policies page by page (with a search kept per workspace), each with its versions. */
export class PoliciesView extends ServiceTreeView<string> implements PoliciesTreeContext {
  private readonly policies: PagedNodes<Policy, PolicyNode>;

  constructor(context: vscode.ExtensionContext, connection: Connection, failures: TreeFailures) {
    super(context, connection, failures, { viewId: Views.policies, viewName: 'Policies view', filterKey: StateKeys.policySearch, filteredContextKey: ContextKeys.policiesFiltered });
    this.policies = new PagedNodes({
      parent: undefined,
      host: this,
      fetchPage: (page, signal) => this.client().policies.list({ page, page_size: this.pageSize(), search: this.filterValue, ordering: 'name' }, { signal }),
      createNode: (policy) => new PolicyNode(policy, this),
      updateNode: (node, policy) => (node.policy = policy),
      emptyText: () => (this.filterValue ? 'No policies match the search' : 'No policies yet — use “New Policy…”'),
    });
    this.describe();
  }

  get searchText(): string | undefined {
    return this.filterValue;
  }

  /** Narrows the list with the service's search (empty: all policies); kept for the workspace. */
  setSearch(text: string | undefined): Promise<void> {
    return this.applyFilter(text?.trim() || undefined);
  }

  /** The node of a policy that is loaded, if any. */
  nodeOf(policyId: string): PolicyNode | undefined {
    return this.policies.nodeOf(policyId);
  }

  /** Shows a renamed or re-described policy at once, without reading the list again. */
  updatePolicy(policy: Policy): void {
    this.policies.replace(policy);
  }

  /** Takes a deleted policy out of the list. */
  removePolicy(policyId: string): void {
    this.policies.remove(policyId);
  }

  /**
   * After a new version (saved, restored, or perhaps created when the answer was lost): reads the
   * policy and its versions again and reveals the new version when known.
   */
  async showNewVersion(policyId: string, versionId: string | undefined): Promise<void> {
    let node = this.policies.nodeOf(policyId);
    try {
      const policy = await this.client().policies.get(policyId);
      node = this.policies.replace(policy) ?? this.policies.prepend(policy);
    } catch {
      // The versions are still read again below; the policy row keeps its last known state.
    }
    if (!node) return;
    await this.reveal(await node.reloadAndFind(versionId), { select: true, focus: false, expand: true });
  }

  protected roots(): Promise<TreeNode[]> {
    return this.policies.children();
  }

  protected forget(): void {
    this.policies.forget();
  }

  protected filterDescription(): string {
    return this.filterValue ? `“${this.filterValue}”` : '';
  }
}
