import * as vscode from 'vscode';
import { previewResultSet } from '../../core/tables/tableResults';
import { registerCommand } from '../commands/commandRunner';
import { TableCommands } from '../constants';
import type { Log } from '../log';
import type { ResultsSink } from '../queries/queryCommands';
import { CancelledError } from '../util/errors';
import { PICKED_IN, picked, target } from '../util/picked';
import { TableNode } from './tableNodes';
import type { TableUploadChoices, TableUploads } from './tableUploads';
import type { TablesView } from './tablesView';

/** The service's preview answers at most this many rows. */
export const PREVIEW_ROWS = 50;
/** Up to this many columns are listed in a new query; more become `*`. */
const LISTED_COLUMNS = 12;

/** The commands of the Tables view and the Explorer's *Upload as Table…*. */
export function registerTableCommands(view: TablesView, uploads: TableUploads, results: ResultsSink, log: Log): vscode.Disposable[] {
  const nameOf = (arg: unknown): string => {
    if (arg instanceof TableNode) return arg.name;
    if (typeof arg === 'string' && arg) return arg;
    throw new Error('Choose a table in the Tables view.');
  };
  return [
    registerCommand(log, TableCommands.refresh, () => view.reload()),
    registerCommand(log, TableCommands.search, async (text?: string) => {
      const value = typeof text === 'string' ? text : await vscode.window.showInputBox({ title: 'Search Tables', prompt: 'Matches table or column names (case-insensitive). Empty shows all.', value: view.searchText ?? '' });
      if (value === undefined) throw new CancelledError();
      await view.setSearch(value);
    }),
    registerCommand(log, TableCommands.clearSearch, () => view.setSearch(undefined)),
    registerCommand(log, TableCommands.preview, async (arg?: unknown) => {
      const name = nameOf(arg);
      const preview = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Previewing ${name}` }, () => view.client().tables.preview(name, PREVIEW_ROWS));
      const key = `preview:${name}`;
      results.show({ state: 'success', queryId: key, result: previewResultSet(preview, key), sql: `Preview of ${name}` });
      return key;
    }),
    registerCommand(log, TableCommands.newQuery, async (arg?: unknown) => {
      const name = nameOf(arg);
      const columns = view.nodeOf(name)?.columns ?? [];
      const list = columns.length > 0 && columns.length <= LISTED_COLUMNS ? columns.map((c) => sqlName(c.name)).join(', ') : '*';
      const document = await vscode.workspace.openTextDocument({ language: 'sql', content: `SELECT ${list}\nFROM ${sqlName(name)}\nLIMIT 100\n` });
      await vscode.window.showTextDocument(document);
      return document.uri;
    }),
    registerCommand(log, TableCommands.copyName, async (arg?: unknown) => {
      const name = nameOf(arg);
      await vscode.env.clipboard.writeText(name);
      vscode.window.setStatusBarMessage(`$(clippy) Copied ${name}`, 3000);
    }),
    registerCommand(log, TableCommands.delete, async (arg?: unknown, confirmed?: boolean) => {
      const name = nameOf(arg);
      if (confirmed !== true) {
        const choice = await vscode.window.showWarningMessage(`Delete the table “${name}”?`, { modal: true, detail: 'The table and all its rows are dropped from the service. This cannot be undone.' }, 'Delete');
        if (choice !== 'Delete') throw new CancelledError();
      }
      // Its row, and the question that named it, picked the table.
      const client = view.client();
      await client.tables.delete(name, { ground: picked(client, target.table(name), arg instanceof TableNode ? PICKED_IN.tablesView : 'the confirmation of Delete Table') });
      view.reload();
      vscode.window.setStatusBarMessage(`$(trash) Deleted table ${name}`, 4000);
    }),
    // Explorer context menu (the clicked file), the view's title button (asks for a file), or a drop.
    registerCommand(log, TableCommands.uploadCsv, async (clicked?: vscode.Uri, selectedOrChoices?: vscode.Uri[] | TableUploadChoices, choices?: TableUploadChoices) => {
      const given = Array.isArray(selectedOrChoices) ? choices : (selectedOrChoices ?? choices);
      const uri = clicked instanceof vscode.Uri ? clicked : (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'CSV files': ['csv'] }, openLabel: 'Upload as Table', title: 'Upload as Table' }))?.[0];
      if (!uri) throw new CancelledError();
      return uploads.upload(uri, given);
    }),
  ];
}

/** A name as SQL reads it: bare when it is a plain identifier, else in double quotes. */
export function sqlName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}
