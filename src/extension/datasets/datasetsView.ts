import * as vscode from 'vscode';
import type { Dataset, DatasetFile } from '../../core/client';
import type { Connection } from '../connection/connection';
import { ContextKeys, StateKeys, Views } from '../constants';
import { PagedNodes } from '../tree/pagedNodes';
import { ServiceTreeView } from '../tree/serviceTreeView';
import type { TreeNode } from '../tree/treeNode';
import { DatasetNode, type DatasetsTreeContext } from './datasetNodes';
import type { TreeFailures } from '../tree/treeFailures';

/** A dataset and whether it is the user's personal one (uploads then leave out the organization). */
export interface DatasetTarget {
  dataset: Dataset;
  personal: boolean;
}

/**
 * The Datasets view: the user's personal dataset first, then the organization's datasets page by
 * page (with search), each with its files. Files dropped from the Explorer onto a dataset are uploaded.
 */
export class DatasetsView extends ServiceTreeView<string> implements DatasetsTreeContext {
  private readonly organization: PagedNodes<Dataset, DatasetNode>;
  private readonly personal: PagedNodes<Dataset, DatasetNode>;

  constructor(context: vscode.ExtensionContext, connection: Connection, failures: TreeFailures, dragAndDrop?: vscode.TreeDragAndDropController<TreeNode>) {
    super(context, connection, failures, { viewId: Views.datasets, viewName: 'Datasets view', filterKey: StateKeys.datasetSearch, filteredContextKey: ContextKeys.datasetsFiltered, dragAndDrop });
    const nodes = (personal: boolean) => ({
      parent: undefined,
      host: this,
      createNode: (dataset: Dataset) => new DatasetNode(dataset, personal, this),
      updateNode: (node: DatasetNode, dataset: Dataset) => (node.dataset = dataset),
    });
    this.organization = new PagedNodes({
      ...nodes(false),
      fetchPage: (page, signal) => this.client().datasets.list({ page, page_size: this.pageSize(), search: this.filterValue }, { signal }),
      emptyText: () => (this.filterValue ? 'No datasets match the search' : 'No datasets in this organization'),
      // A dataset the service lists both as the user's and in the organization is shown once, as the user's.
      hide: (dataset) => !this.filterValue && this.personal.nodeOf(dataset.id) !== undefined,
    });
    // The personal datasets are few: one page is all of them.
    this.personal = new PagedNodes({
      ...nodes(true),
      fetchPage: async (_page, signal) => ({ ...(await this.client().datasets.list({ personal: true, page_size: 50 }, { signal })), nextPage: null }),
      emptyText: () => 'No personal dataset',
      label: 'Personal dataset',
    });
    this.describe();
  }

  get searchText(): string | undefined {
    return this.filterValue;
  }

  /** Narrows the organization's datasets with the service's search (empty: all); kept for the workspace. */
  setSearch(text: string | undefined): Promise<void> {
    return this.applyFilter(text?.trim() || undefined);
  }

  /** The personal datasets and the first page of the organization's (for pickers), each once. */
  async targets(): Promise<DatasetTarget[]> {
    await Promise.all([this.personal.list.ensureLoaded(), this.organization.list.ensureLoaded()]);
    const personal = this.personal.loadedItems;
    const organization = this.organization.loadedItems.filter((d) => !personal.some((p) => p.id === d.id));
    return [...personal.map((dataset) => ({ dataset, personal: true })), ...organization.map((dataset) => ({ dataset, personal: false }))];
  }

  /** After an upload: reads the dataset's files again and reveals the new ones. */
  async showUploaded(target: DatasetTarget, files: DatasetFile[]): Promise<void> {
    const node = this.nodeOf(target.dataset.id);
    if (!node) return;
    const shown = await node.reloadAndFindFiles(files.map((file) => file.id));
    for (const [i, file] of shown.entries()) await this.reveal(file, { select: i === 0, focus: false, expand: true });
  }

  /** The loaded node of a dataset, if any. */
  nodeOf(datasetId: string): DatasetNode | undefined {
    return this.personal.nodeOf(datasetId) ?? this.organization.nodeOf(datasetId);
  }

  protected async roots(): Promise<TreeNode[]> {
    const personal = this.filterValue ? [] : await this.personal.children();
    const organization = await this.organization.children();
    return [...personal.filter((n) => n.kind !== 'empty'), ...organization];
  }

  protected forget(): void {
    this.organization.forget();
    this.personal.forget();
  }

  protected filterDescription(): string {
    return this.filterValue ? `“${this.filterValue}”` : '';
  }
}
