import * as vscode from 'vscode';
import { registerCommand } from '../commands/commandRunner';
import { DatasetCommands } from '../constants';
import type { Log } from '../log';
import { CancelledError } from '../util/errors';
import { PICKED_IN, picked, target } from '../util/picked';
import { DatasetFileNode, DatasetNode } from './datasetNodes';
import type { DatasetsView } from './datasetsView';
import type { Uploads } from './uploads';

/** The commands of the Datasets view and the Explorer's *Upload to Dataset…*. */
export function registerDatasetCommands(view: DatasetsView, uploads: Uploads, log: Log): vscode.Disposable[] {
  return [
    registerCommand(log, DatasetCommands.refresh, () => view.reload()),
    registerCommand(log, DatasetCommands.refreshNode, (node?: DatasetNode) => (node instanceof DatasetNode ? node.reloadFiles() : view.reload())),
    registerCommand(log, DatasetCommands.search, async (text?: string) => {
      const value = typeof text === 'string' ? text : await vscode.window.showInputBox({ title: 'Search Datasets', prompt: 'Matches dataset name or creator (case-insensitive). Empty shows all.', value: view.searchText ?? '' });
      if (value === undefined) throw new CancelledError();
      await view.setSearch(value);
    }),
    registerCommand(log, DatasetCommands.clearSearch, () => view.setSearch(undefined)),
    registerCommand(log, DatasetCommands.deleteFile, (node: DatasetFileNode, confirmed?: boolean) => deleteFile(view, node, confirmed === true)),
    // Explorer context menu: VS Code passes the clicked file and all selected ones.
    registerCommand(log, DatasetCommands.uploadToDataset, (clicked?: vscode.Uri, selected?: vscode.Uri[], metadata?: string) => {
      const uris = selected?.length ? selected : clicked ? [clicked] : vscode.window.activeTextEditor ? [vscode.window.activeTextEditor.document.uri] : [];
      return uploads.upload(uris, undefined, metadata);
    }),
    registerCommand(log, DatasetCommands.uploadFiles, async (node?: DatasetNode, given?: vscode.Uri[], metadata?: string) => {
      const target = node instanceof DatasetNode ? { dataset: node.dataset, personal: node.personal } : undefined;
      const uris = given ?? (await vscode.window.showOpenDialog({ canSelectMany: true, canSelectFiles: true, canSelectFolders: false, openLabel: 'Upload', title: target ? `Upload Files to ${target.dataset.name}` : 'Upload Files' }));
      if (!uris?.length) throw new CancelledError();
      return uploads.upload(uris, target, metadata);
    }),
  ];
}

async function deleteFile(view: DatasetsView, node: DatasetFileNode, confirmed: boolean): Promise<void> {
  const { file } = node;
  const dataset = node.parent.dataset;
  if (!confirmed) {
    const choice = await vscode.window.showWarningMessage(`Delete “${file.name}” from the dataset “${dataset.name}”?`, { modal: true, detail: 'The file is removed from the service. This cannot be undone.' }, 'Delete');
    if (choice !== 'Delete') throw new CancelledError();
  }
  const client = view.client();
  // The file's row in the Datasets view picked the dataset it is deleted from.
  await client.datasets.deleteFile(dataset.id, file.id, { personal: node.parent.personal, ground: picked(client, target.dataset(dataset.id), PICKED_IN.datasetsView) });
  node.parent.files.remove((f) => f.id === file.id);
  view.refresh(node.parent);
  vscode.window.setStatusBarMessage(`$(trash) Deleted ${file.name}`, 4000);
}
