import * as vscode from 'vscode';
import type { Dataset, DatasetFile } from '../../core/client';
import { bytes, clip, dateTime, relativeTime } from '../../core/format';
import type { PagedList } from '../../core/pagedList';
import { creatorName } from '../agents/agentNodes';
import { PagedNodes } from '../tree/pagedNodes';
import type { ServiceTreeHost, TreeNode } from '../tree/treeNode';

/** What the nodes of the Datasets view need from the view. */
export type DatasetsTreeContext = ServiceTreeHost;

/** A dataset (the organization's, or the user's personal one) with its files, page by page. */
export class DatasetNode implements TreeNode {
  readonly kind = 'dataset';
  readonly id: string;
  readonly parent = undefined;
  private readonly fileNodes: PagedNodes<DatasetFile, DatasetFileNode>;

  constructor(
    public dataset: Dataset,
    readonly personal: boolean,
    ctx: DatasetsTreeContext,
  ) {
    this.id = `dataset/${personal ? 'personal/' : ''}${dataset.id}`;
    this.fileNodes = new PagedNodes({
      parent: this,
      host: ctx,
      fetchPage: (page, signal) => ctx.client().datasets.listFiles(this.dataset.id, { page, page_size: ctx.pageSize(), personal }, { signal }),
      createNode: (file) => new DatasetFileNode(this, file),
      updateNode: (node, file) => (node.file = file),
      emptyText: () => 'No files — drop files here or use “Upload Files…”',
    });
  }

  get files(): PagedList<DatasetFile> {
    return this.fileNodes.list;
  }

  idForCopy(): string {
    return this.dataset.id;
  }

  getTreeItem(): vscode.TreeItem {
    const d = this.dataset;
    const item = new vscode.TreeItem(clip(d.name), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.personal ? 'account' : 'database');
    const creator = creatorName(d.creator);
    item.description = [this.personal ? 'personal' : '', creator ?? '', relativeTime(d.created_at)].filter(Boolean).join(' · ');
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**').appendText(clip(d.name, 2000)).appendMarkdown(`**${this.personal ? ' (your personal dataset)' : ''}\n\n`);
    if (creator) md.appendMarkdown('Creator: ').appendText(creator).appendMarkdown('  \n');
    md.appendMarkdown('Created: ').appendText(dateTime(d.created_at)).appendMarkdown('  \n');
    md.appendMarkdown('Dataset ID: ').appendText(d.id).appendMarkdown('\n\nDrop files from the Explorer here to upload them.');
    item.tooltip = md;
    item.contextValue = 'dataset';
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return this.fileNodes.children();
  }

  /** The node of a file (the same object each time, so the view can reveal it). */
  nodeFor(file: DatasetFile): DatasetFileNode {
    return this.fileNodes.nodeFor(file);
  }

  /** Reads the files again (after an upload or delete elsewhere). */
  reloadFiles(): void {
    void this.fileNodes.reload();
  }

  /** Reads the files again and returns the nodes of the given files that are on the first page (to reveal them). */
  reloadAndFindFiles(ids: readonly string[]): Promise<DatasetFileNode[]> {
    return this.fileNodes.reloadAndFindAll(ids);
  }
}

/** A file of a dataset: name, size in human units, creation time, creator. */
export class DatasetFileNode implements TreeNode {
  readonly kind = 'datasetFile';
  readonly id: string;
  constructor(
    readonly parent: DatasetNode,
    public file: DatasetFile,
  ) {
    this.id = `${parent.id}/${file.id}`;
  }

  idForCopy(): string {
    return this.file.id;
  }

  getTreeItem(): vscode.TreeItem {
    const f = this.file;
    const item = new vscode.TreeItem(clip(f.name), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.resourceUri = vscode.Uri.from({ scheme: 'agent-workbench-file', path: `/${f.name}` }); // file-type icon from the name
    item.iconPath = vscode.ThemeIcon.File;
    const creator = creatorName(f.creator);
    item.description = [bytes(f.size), relativeTime(f.created_at), creator ?? ''].filter(Boolean).join(' · ');
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**').appendText(clip(f.name, 2000)).appendMarkdown('**\n\n');
    md.appendMarkdown('Size: ').appendText(`${bytes(f.size)} (${f.size.toLocaleString('en-US')} bytes)`).appendMarkdown('  \n');
    md.appendMarkdown('Created: ').appendText(dateTime(f.created_at)).appendMarkdown('  \n');
    if (creator) md.appendMarkdown('Creator: ').appendText(creator).appendMarkdown('  \n');
    md.appendMarkdown('File ID: ').appendText(f.id);
    item.tooltip = md;
    item.contextValue = 'datasetFile';
    return item;
  }
}
