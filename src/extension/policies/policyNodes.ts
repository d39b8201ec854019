import * as vscode from 'vscode';
import type { Policy, PolicyVersion } from '../../core/client';
import { clip, dateTime, relativeTime } from '../../core/format';
import { isTrialEntity } from '../../core/trial/trialMarker';
import type { PagedList } from '../../core/pagedList';
import { creatorName } from '../agents/agentNodes';
import { PolicyCommands } from '../constants';
import { PagedNodes } from '../tree/pagedNodes';
import type { ServiceTreeHost, TreeNode } from '../tree/treeNode';

/** What the nodes of the Policies view need from the view. */
export type PoliciesTreeContext = ServiceTreeHost;

/** A policy: name, description and last change; under it its versions, newest first. */
export class PolicyNode implements TreeNode {
  readonly kind = 'policy';
  readonly id: string;
  readonly parent = undefined;
  private readonly versionNodes: PagedNodes<PolicyVersion, PolicyVersionNode>;

  constructor(
    public policy: Policy,
    ctx: PoliciesTreeContext,
  ) {
    this.id = `policy/${policy.id}`;
    this.versionNodes = new PagedNodes({
      parent: this,
      host: ctx,
      fetchPage: (page, signal) => ctx.client().policies.listVersions(this.policy.id, { page, page_size: ctx.pageSize(), ordering: '-created_at' }, { signal }),
      createNode: (version) => new PolicyVersionNode(this, version),
      updateNode: (node, version) => (node.version = version),
      emptyText: () => 'No versions',
    });
  }

  get versions(): PagedList<PolicyVersion> {
    return this.versionNodes.list;
  }

  idForCopy(): string {
    return this.policy.id;
  }

  getTreeItem(): vscode.TreeItem {
    const p = this.policy;
    const item = new vscode.TreeItem(clip(p.name), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    const trial = isTrialEntity(p);
    item.iconPath = new vscode.ThemeIcon(trial ? 'beaker' : 'law');
    const changed = p.updated_at ?? p.created_at;
    // A trial's policy says so instead of showing its marker.
    item.description = [trial ? 'trial' : clip(p.description, 120), changed ? `changed ${relativeTime(changed)}` : ''].filter(Boolean).join(' · ');
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**').appendText(clip(p.name, 2000)).appendMarkdown('**\n\n');
    if (p.description) md.appendText(clip(p.description, 2000)).appendMarkdown('\n\n');
    md.appendMarkdown('Policy ID: ').appendText(p.id).appendMarkdown('  \n');
    md.appendMarkdown('Current version ID: ').appendText(p.current_version_id ?? 'none').appendMarkdown('  \n');
    md.appendMarkdown('Created: ').appendText(dateTime(p.created_at)).appendMarkdown('  \n');
    if (p.updated_at) md.appendMarkdown('Last change: ').appendText(dateTime(p.updated_at));
    item.tooltip = md;
    item.contextValue = 'policy';
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return this.versionNodes.children();
  }

  /** The node of a version (the same object each time, so the view can reveal it). */
  nodeFor(version: PolicyVersion): PolicyVersionNode {
    return this.versionNodes.nodeFor(version);
  }

  /** Reads the versions again (after a save or restore). */
  reloadVersions(): void {
    void this.versionNodes.reload();
  }

  /** Reads the versions again and returns the node of one of them once loaded (to reveal it). */
  reloadAndFind(versionId: string | undefined): Promise<PolicyVersionNode | undefined> {
    return this.versionNodes.reloadAndFind(versionId);
  }
}

/** One version of a policy: name, creation time, author, the current one marked; opening it edits it. */
export class PolicyVersionNode implements TreeNode {
  readonly kind = 'policyVersion';
  readonly id: string;
  constructor(
    readonly parent: PolicyNode,
    public version: PolicyVersion,
  ) {
    this.id = `${parent.id}/${version.id}`;
  }

  get policy(): Policy {
    return this.parent.policy;
  }

  get isCurrent(): boolean {
    return this.policy.current_version_id === this.version.id;
  }

  get name(): string {
    return this.version.version_name || 'unnamed version';
  }

  idForCopy(): string {
    return this.version.id;
  }

  getTreeItem(): vscode.TreeItem {
    const v = this.version;
    const item = new vscode.TreeItem(clip(this.name), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.isCurrent ? 'star-full' : 'git-commit', this.isCurrent ? new vscode.ThemeColor('charts.yellow') : undefined);
    const author = creatorName(v.created_by);
    item.description = [this.isCurrent ? 'current' : '', relativeTime(v.created_at), author ?? ''].filter(Boolean).join(' · ');
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**').appendText(this.name).appendMarkdown(`**${this.isCurrent ? ' (current)' : ''}\n\n`);
    if (v.created_at) md.appendMarkdown('Created: ').appendText(dateTime(v.created_at)).appendMarkdown('  \n');
    if (author) md.appendMarkdown('Author: ').appendText(author).appendMarkdown('  \n');
    if (v.base_version_id) md.appendMarkdown('Based on version: ').appendText(v.base_version_id).appendMarkdown('  \n');
    md.appendMarkdown('Version ID: ').appendText(v.id);
    item.tooltip = md;
    item.contextValue = this.isCurrent ? 'policyVersion.current' : 'policyVersion';
    item.command = { command: PolicyCommands.openVersion, title: 'Open Policy Version', arguments: [this] };
    return item;
  }
}
