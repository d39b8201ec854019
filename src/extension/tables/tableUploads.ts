import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TableUploaded } from '../../core/client';
import { bytes } from '../../core/format';
import { suggestTableName, tableNameProblem } from '../../core/tables/tableNames';
import { TableCommands } from '../constants';
import type { Log } from '../log';
import { CancelledError, isCancellation } from '../util/errors';
import { NEW_THING } from '../util/picked';
import type { TablesView } from './tablesView';

/** What an upload asks; given by the caller (scripts, tests) or asked of the user. */
export interface TableUploadChoices {
  tableName?: string;
  withHeaders?: boolean;
}

/**
 * Uploads a local CSV file as a new table: the name checked while it is typed (the service's rules,
 * and the names already taken), whether the first row holds the column names, then the file streamed
 * with progress and Cancel. The new table is shown in the Tables view, ready to preview.
 */
export class TableUploads {
  constructor(
    private readonly view: TablesView,
    private readonly log: Log,
  ) {}

  async upload(uri: vscode.Uri | undefined, choices: TableUploadChoices = {}, signal?: AbortSignal): Promise<TableUploaded> {
    if (!uri) throw new Error('Choose a .csv file to upload as a table (in the Explorer, or drop it onto the Tables view).');
    if (uri.scheme !== 'file') throw new Error('Only files on this machine can be uploaded as tables.');
    if (path.extname(uri.fsPath).toLowerCase() !== '.csv') throw new Error(`Only .csv files can be uploaded as tables; ${path.basename(uri.fsPath)} is not one.`);
    const stat = await fs.stat(uri.fsPath);
    if (!stat.isFile()) throw new Error(`${path.basename(uri.fsPath)} is not a file.`);
    if (stat.size === 0) throw new Error(`Not uploaded (nothing sent): ${path.basename(uri.fsPath)} is empty.`);
    const tableName = choices.tableName ?? (await this.askName(uri));
    const problem = tableNameProblem(tableName);
    if (problem) throw new Error(`Not uploaded (nothing sent): ${problem}`);
    const withHeaders = choices.withHeaders ?? (await askHeaders());
    const uploaded = await this.send(uri, stat.size, tableName, withHeaders, signal);
    this.log.info(`Uploaded ${uri.fsPath} as table ${uploaded.table_name}`);
    await this.view.reloadAndReveal(uploaded.table_name);
    void vscode.window.showInformationMessage(`Table ${uploaded.table_name} was created from ${path.basename(uri.fsPath)}.`, 'Preview', 'New Query').then((choice) => {
      if (choice === 'Preview') void vscode.commands.executeCommand(TableCommands.preview, uploaded.table_name);
      if (choice === 'New Query') void vscode.commands.executeCommand(TableCommands.newQuery, uploaded.table_name);
    });
    return uploaded;
  }

  private async askName(uri: vscode.Uri): Promise<string> {
    const state = this.view.catalog.current;
    const taken = new Set(state?.kind === 'loaded' ? state.tables.map((t) => t.name.toLowerCase()) : []);
    const name = await vscode.window.showInputBox({
      title: `Upload ${path.basename(uri.fsPath)} as Table`,
      prompt: 'The name of the new table: 1–128 letters, digits or “_”, not starting with a digit.',
      value: suggestTableName(path.basename(uri.fsPath)),
      validateInput: (value) => tableNameProblem(value) ?? (taken.has(value.toLowerCase()) ? `A table named ${value} already exists; choose another name.` : undefined),
    });
    if (name === undefined) throw new CancelledError();
    return name;
  }

  private send(uri: vscode.Uri, size: number, tableName: string, withHeaders: boolean, signal?: AbortSignal): Thenable<TableUploaded> {
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Uploading ${path.basename(uri.fsPath)} as table ${tableName}`, cancellable: true }, async (progress, token) => {
      const controller = new AbortController();
      const subs = [token.onCancellationRequested(() => controller.abort())];
      signal?.addEventListener('abort', () => controller.abort(), { once: true });
      if (signal?.aborted) controller.abort();
      let reported = 0;
      try {
        return await this.view.client().tables.upload(
          {
            filePath: uri.fsPath,
            tableName,
            withHeaders,
            onProgress: (sent, total) => {
              const percent = (sent / Math.max(total, 1)) * 100;
              progress.report({ message: `${bytes(Math.min(sent, size))} of ${bytes(size)} (${Math.floor(percent)}%)`, increment: percent - reported });
              reported = percent;
            },
          },
          // A new table (its name is checked against the tables there): nothing that exists is written.
          { signal: controller.signal, ground: NEW_THING },
        );
      } catch (error) {
        if (controller.signal.aborted || isCancellation(error)) {
          void vscode.window.showInformationMessage(`The upload of ${path.basename(uri.fsPath)} was cancelled; no table ${tableName} was created unless the service had already finished.`);
          this.view.reload();
          throw new CancelledError();
        }
        throw error;
      } finally {
        for (const s of subs) s.dispose();
      }
    });
  }
}

async function askHeaders(): Promise<boolean> {
  const pick = await vscode.window.showQuickPick(
    [
      { label: 'First row holds the column names', value: true },
      { label: 'First row is data', description: 'columns are named column_1, column_2, …', value: false },
    ],
    { title: 'Upload as Table: column names' },
  );
  if (!pick) throw new CancelledError();
  return pick.value;
}

/** CSV files dragged from the Explorer onto the Tables view become tables. */
export class TableDropController implements vscode.TreeDragAndDropController<unknown> {
  readonly dropMimeTypes = ['text/uri-list', 'files'];
  readonly dragMimeTypes: string[] = [];
  uploads: TableUploads | undefined;

  async handleDrop(_target: unknown, data: vscode.DataTransfer, token: vscode.CancellationToken): Promise<void> {
    const list = await data.get('text/uri-list')?.asString();
    if (token.isCancellationRequested || !list || !this.uploads) return;
    const uris = list.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#')).map((l) => vscode.Uri.parse(l));
    const csv = uris.find((u) => u.path.toLowerCase().endsWith('.csv'));
    if (!csv) {
      void vscode.window.showInformationMessage('Drop a .csv file onto the Tables view to upload it as a table.');
      return;
    }
    await vscode.commands.executeCommand(TableCommands.uploadCsv, csv);
  }
}
