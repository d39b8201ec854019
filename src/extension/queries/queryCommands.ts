import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { QueryResultSet } from '../../core/client';
import { isFinalQueryStatus } from '../../core/serviceDecisions';
import { registerCommand } from '../commands/commandRunner';
import type { Connection } from '../connection/connection';
import { DatasetCommands } from '../constants';
import type { Log } from '../log';
import { CancelledError, isCancellation, messageOf } from '../util/errors';
import type { QueryView } from './resultsPanel';

export type { QueryView };

/** Where query results go (the results grid panels). */
export interface ResultsSink {
  show(view: QueryView): void;
  /** Gives a panel opened under a provisional key its query's ID. */
  rekey(from: string, to: string): void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_WAIT_MS = 15 * 60_000;

/** Run Query (the SQL of the active editor or its selection; CodeLens and editor title on .sql files) and Open Query Result…. */
export function registerQueryCommands(connection: Connection, results: ResultsSink, log: Log): vscode.Disposable[] {
  return [
    registerCommand(log, DatasetCommands.runQuery, async (arg?: vscode.Uri | string) => {
      const sql = typeof arg === 'string' ? arg : await sqlFromEditor(arg);
      const client = connection.requireClient();
      // The panel opens now and its page starts while the query is sent and runs.
      const waiting = new Waiting(results, `submitting:${randomUUID()}`, sql);
      waiting.show('Submitting');
      let queryId: string;
      try {
        const submitted = await client.database.submitQuery(sql, { signal: waiting.signal });
        queryId = submitted.worksheet_query_id;
        log.info(`Query ${queryId} submitted (${submitted.status})`);
        results.rekey(waiting.key, queryId);
        waiting.key = queryId;
        waiting.show(submitted.status);
      } catch (error) {
        waiting.fail(error);
        throw error;
      }
      return follow(connection, waiting, 'Running query…');
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
      const waiting = new Waiting(results, queryId.trim(), undefined);
      waiting.show('Loading');
      return follow(connection, waiting, 'Loading query result…');
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
 * One query being waited for, and its panel: pending with Cancel (in the panel and on the progress
 * notification, both stop the waiting, not the query), then its rows or its error.
 */
class Waiting {
  private readonly controller = new AbortController();

  constructor(
    private readonly results: ResultsSink,
    public key: string,
    readonly sql: string | undefined,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  cancel(): void {
    this.controller.abort();
  }

  show(status: string): void {
    this.results.show({ state: 'pending', queryId: this.key, status, sql: this.sql, cancel: () => this.cancel() });
  }

  done(set: QueryResultSet): void {
    const { key: queryId, sql } = this;
    this.results.show(set.status === 'SUCCESS' ? { state: 'success', queryId, result: set, sql } : { state: 'failure', queryId, error: set.error || 'The query failed without a message.', sql });
  }

  /** The panel says why there are no rows (never left spinning). */
  fail(error: unknown): void {
    const stopped = this.signal.aborted || isCancellation(error);
    const text = stopped ? `Stopped waiting for this query; it may still be running on the service. Open it again later with "Open Query Result…".` : messageOf(error);
    this.results.show({ state: 'failure', queryId: this.key, error: text, sql: this.sql });
  }
}

/**
 * Reads the result until the query is final, showing progress that can be cancelled (cancel stops the
 * waiting, not the query). The panel shows "still running" meanwhile and the rows or error at the end.
 */
async function follow(connection: Connection, waiting: Waiting, title: string): Promise<QueryResultSet | undefined> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const sub = token.onCancellationRequested(() => waiting.cancel());
    const queryId = waiting.key;
    const started = Date.now();
    let delay = 300;
    try {
      for (;;) {
        const set = await connection.requireClient().database.getResult(queryId, { signal: waiting.signal });
        if (isFinalQueryStatus(set.status)) {
          waiting.done(set);
          return set;
        }
        waiting.show(set.status);
        progress.report({ message: `${set.status.toLowerCase()} · ${Math.round((Date.now() - started) / 1000)} s` });
        if (Date.now() - started > MAX_WAIT_MS) throw new Error(`The query ${queryId} is still ${set.status} after ${MAX_WAIT_MS / 60_000} minutes. Open it again later with "Open Query Result…".`);
        await sleep(delay, waiting.signal);
        delay = Math.min(delay * 1.5, 3000);
      }
    } catch (error) {
      waiting.fail(error);
      if (waiting.signal.aborted) {
        void vscode.window.showInformationMessage(`Stopped waiting for query ${queryId}; it may still be running on the service. Open it later with "Open Query Result…".`);
        return undefined;
      }
      throw error;
    } finally {
      sub.dispose();
    }
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new CancelledError());
    }, { once: true });
  });
}

/** "▶ Run Query" above a .sql document (runs the whole file, or the selection when there is one). */
class RunQueryCodeLens implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!document.getText().trim()) return [];
    return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title: '$(play) Run Query', tooltip: 'Run this SQL on the service (the selection when there is one) and show the rows', command: DatasetCommands.runQuery, arguments: [document.uri] })];
  }
}
