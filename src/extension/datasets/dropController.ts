import * as vscode from 'vscode';
import type { TreeNode } from '../tree/treeNode';
import { isCancellation, messageOf } from '../util/errors';
import { DatasetFileNode, DatasetNode } from './datasetNodes';
import type { Uploads } from './uploads';

/** Files dragged from the Explorer (or the desktop) onto a dataset, or onto one of its files, are uploaded to that dataset. */
export class DatasetDropController implements vscode.TreeDragAndDropController<TreeNode> {
  readonly dropMimeTypes = ['text/uri-list', 'files'];
  readonly dragMimeTypes: string[] = [];
  uploads: Uploads | undefined;

  async handleDrop(target: TreeNode | undefined, data: vscode.DataTransfer, token: vscode.CancellationToken): Promise<void> {
    const dataset = target instanceof DatasetNode ? target : target instanceof DatasetFileNode ? target.parent : undefined;
    if (!dataset || !this.uploads) {
      void vscode.window.showInformationMessage('Drop the files onto a dataset to upload them there.');
      return;
    }
    const list = await data.get('text/uri-list')?.asString();
    if (token.isCancellationRequested || !list) return;
    const uris = list
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => vscode.Uri.parse(line));
    try {
      await this.uploads.upload(uris, { dataset: dataset.dataset, personal: dataset.personal });
    } catch (error) {
      if (!isCancellation(error)) void vscode.window.showErrorMessage(messageOf(error));
    }
  }
}
