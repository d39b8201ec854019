import * as vscode from 'vscode';
import type { QueryResultSet } from '../../core/client';
import { followQuery } from '../../core/queries/followQuery';
import { registerCommand } from '../commands/commandRunner';
import type { Connection } from '../connection/connection';
import { DatasetCommands } from '../constants';
import type { Log } from '../log';
import { CancelledError } from '../util/errors';

/** What the results grid shows: still running, failed (with the service's error), or the rows. */
export type QueryView =
  | { state: 'pending'; queryId: string; status: string; sql?: string }
  | { state: 'failure'; queryId: string; error: string; sql?: string }
  | { state: 'success'; queryId: string; result: QueryResultSet; sql?: string };

/** Where query results go (the results grid panels). */
export interface ResultsSink {
  show(view: QueryView): void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Run Query (the SQL of the active editor or its selection; CodeLens and editor title on .sql files) and Open Query Result…. */
export function registerQueryCommands(connection: Connection, results: ResultsSink, log: Log): vscode.Disposable[] {
  return [
    registerCommand(log, DatasetCommands.runQuery, async (arg?: vscode.Uri | string) => {
      const sql = typeof arg === 'string' ? arg : await sqlFromEditor(arg);
      const submitted = await connection.requireClient().database.submitQuery(sql);
      log.info(`Query ${submitted.worksheet_query_id} submitted (${submitted.status})`);
      results.show({ state: 'pending', queryId: submitted.worksheet_query_id, status: submitted.status, sql });
      return follow(connection, results, submitted.worksheet_query_id, sql, 'Running query…');
    }),
    registerCommand(log, DatasetCommands.openQueryResult, async (id?: string) => {
      const queryId =
        id ??
        (await vscode.window.showInputBox({
          title: 'Open Query Result',
          prompt: 'The ID of the query (worksheet query ID)',
          validateInput: (v) => (UUID.test(v.trim()) ? undefined : 'A query ID is a UUID'),
        }));
      if (!queryId) throw new CancelledError();
      return follow(connection, results, queryId.trim(), undefined, 'Loading query result…');
    }),
    vscode.languages.registerCodeLensProvider({ language: 'sql' }, new RunQueryCodeLens()),
  ];
}

/** The SQL to run: the selection when there is one, else the whole document. */
async function sqlFromEditor(uri?: vscode.Uri): Promise<string> {
  const editor = uri ? await vscode.window.showTextDocument(uri, { preserveFocus: true }) : vscode.window.activeTextEditor;
  if (!editor) throw new Error('Open a .sql file (or select SQL in an editor) to run a query.');
  const text = editor.selection.isEmpty ? editor.document.getText() : editor.document.getText(editor.selection);
  const sql = text.trim();
  if (!sql) throw new Error('There is no SQL to run: the editor (or the selection) is empty.');
  return sql;
}

/**
 * Reads the result until the query is final, showing progress that can be cancelled (cancel stops the
 * waiting, not the query). The panel shows "still running" meanwhile and the rows or error at the end.
 */
async function follow(connection: Connection, results: ResultsSink, queryId: string, sql: string | undefined, title: string): Promise<QueryResultSet | undefined> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort(new CancelledError()));
    try {
      const set = await followQuery((signal) => connection.requireClient().database.getResult(queryId, { signal }), queryId, {
        signal: controller.signal,
        onPending: (pending, elapsedMs) => {
          results.show({ state: 'pending', queryId, status: pending.status, sql });
          progress.report({ message: `${pending.status.toLowerCase()} · ${Math.round(elapsedMs / 1000)} s` });
        },
      });
      results.show(set.status === 'SUCCESS' ? { state: 'success', queryId, result: set, sql } : { state: 'failure', queryId, error: set.error || 'The query failed without a message.', sql });
      return set;
    } catch (error) {
      if (token.isCancellationRequested) {
        void vscode.window.showInformationMessage(`Stopped waiting for query ${queryId}; it may still be running on the service. Open it later with "Open Query Result…".`);
        return undefined;
      }
      throw error;
    } finally {
      sub.dispose();
    }
  });
}

/** "▶ Run Query" above a .sql document (runs the whole file, or the selection when there is one). */
class RunQueryCodeLens implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!document.getText().trim()) return [];
    return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title: '$(play) Run Query', tooltip: 'Run this SQL on the service (the selection when there is one) and show the rows', command: DatasetCommands.runQuery, arguments: [document.uri] })];
  }
}
