import * as vscode from 'vscode';
import type { Dataset, DatasetFile } from '../../core/client';
import { PagedList } from '../../core/pagedList';
import type { Connection } from '../connection/connection';
import { ContextKeys, Views } from '../constants';
import { messageOf } from '../util/errors';
import { ErrorNode } from '../tree/messageNodes';
import { pagedChildren } from '../tree/pagedChildren';
import { ServiceTreeView } from '../tree/serviceTreeView';
import type { TreeNode } from '../tree/treeNode';
import { DatasetNode, type DatasetsTreeContext } from './datasetNodes';

/** A dataset and whether it is the user's personal one (uploads then leave out the organization). */
export interface DatasetTarget {
  dataset: Dataset;
  personal: boolean;
}

/**
 * The Datasets view: the user's personal dataset first, then the organization's datasets page by
 * page (with search), each with its files. Files dropped from the Explorer onto a dataset are uploaded.
 */
export class DatasetsView extends ServiceTreeView implements DatasetsTreeContext {
  private search: string | undefined;
  private readonly list: PagedList<Dataset>;
  private readonly personal: PagedList<Dataset>;
  private readonly nodes = new Map<string, DatasetNode>();

  constructor(connection: Connection, dragAndDrop?: vscode.TreeDragAndDropController<TreeNode>) {
    super(Views.datasets, connection, dragAndDrop);
    this.list = new PagedList((page, signal) => this.client().datasets.list({ page, page_size: this.pageSize(), search: this.search }, { signal }));
    // The personal datasets are few: one page is all of them.
    this.personal = new PagedList(async (_page, signal) => ({ ...(await this.client().datasets.list({ personal: true, page_size: 50 }, { signal })), nextPage: null }));
    this.describe();
  }

  get searchText(): string | undefined {
    return this.search;
  }

  /** Narrows the organization's datasets with the service's search (empty: all). */
  setSearch(text: string | undefined): void {
    this.search = text?.trim() || undefined;
    void vscode.commands.executeCommand('setContext', ContextKeys.datasetsFiltered, Boolean(this.search));
    this.reload();
  }

  /** The personal datasets and the first page of the organization's (for pickers). */
  async targets(): Promise<DatasetTarget[]> {
    await Promise.all([this.personal.ensureLoaded(), this.list.ensureLoaded()]);
    return [...this.personal.loadedItems.map((dataset) => ({ dataset, personal: true })), ...this.list.loadedItems.map((dataset) => ({ dataset, personal: false }))];
  }

  /** After an upload: reads the dataset's files again and reveals the new ones. */
  async showUploaded(target: DatasetTarget, files: DatasetFile[]): Promise<void> {
    const node = this.nodes.get(target.dataset.id);
    if (!node) return;
    node.reloadFiles();
    await node.files.ensureLoaded();
    this.refresh(node);
    const shown = node.files.loadedItems.filter((f) => files.some((u) => u.id === f.id));
    for (const [i, file] of shown.entries()) await this.reveal(node.nodeFor(file), { select: i === 0, focus: false, expand: true });
  }

  /** The loaded node of a dataset, if any. */
  nodeOf(datasetId: string): DatasetNode | undefined {
    return this.nodes.get(datasetId);
  }

  protected async roots(): Promise<TreeNode[]> {
    await this.personal.ensureLoaded();
    const personalState = this.personal.state;
    const personal: TreeNode[] =
      personalState.kind === 'error'
        ? [new ErrorNode(undefined, `Personal dataset: ${messageOf(personalState.error)}`, () => this.reload())]
        : this.personal.loadedItems.map((d) => this.nodeFor(d, true));
    const org = await pagedChildren({
      parent: undefined,
      list: this.list,
      refresher: this,
      emptyText: this.search ? 'No datasets match the search' : 'No datasets in this organization',
      toNode: (d) => this.nodeFor(d, false),
    });
    return [...(this.search ? [] : personal), ...org];
  }

  protected forget(): void {
    this.list.reset();
    this.personal.reset();
    this.nodes.clear();
  }

  protected override filterDescription(): string {
    return this.search ? `“${this.search}”` : '';
  }

  private nodeFor(dataset: Dataset, personal: boolean): DatasetNode {
    let node = this.nodes.get(dataset.id);
    if (node) node.dataset = dataset;
    else this.nodes.set(dataset.id, (node = new DatasetNode(dataset, personal, this)));
    return node;
  }
}
