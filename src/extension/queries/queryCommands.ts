import * as vscode from 'vscode';
import type { QueryResultSet, TableQueryResult } from '../../core/client';
import { isFinalQueryStatus } from '../../core/serviceDecisions';
import { tableQueryResultSet, truncatedMeaning } from '../../core/tables/tableResults';
import { registerCommand } from '../commands/commandRunner';
import { tablesQueryRowLimit } from '../configuration';
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
const MAX_WAIT_MS = 15 * 60_000;

/** Statuses after which a table query will not change. */
const FINAL_TABLE_STATUSES = new Set(['SUCCESS', 'FAILURE', 'REVOKED']);

/** Servers (by base URL) that answered 404/405 to the tables query endpoint: they get the database query. */
const withoutTablesEndpoint = new Set<string>();

const isUnsupported = (error: unknown): boolean => (error as { kind?: unknown } | undefined)?.kind === 'unsupported';
const isNotFound = (error: unknown): boolean => (error as { status?: unknown } | undefined)?.status === 404 || isUnsupported(error);

/**
 * Run Query (the SQL of the active editor or its selection; CodeLens and editor title on .sql files)
 * and Open Query Result…. Queries go to the tables endpoint (row limit from the settings) where the
 * server has it, else to the interface's database query.
 */
export function registerQueryCommands(connection: Connection, results: ResultsSink, log: Log): vscode.Disposable[] {
  return [
    registerCommand(log, DatasetCommands.runQuery, async (arg?: vscode.Uri | string) => {
      const sql = typeof arg === 'string' ? arg : await sqlFromEditor(arg);
      const client = connection.requireClient();
      if (!withoutTablesEndpoint.has(client.baseUrl)) {
        const limit = tablesQueryRowLimit();
        try {
          const submitted = await client.tables.query(sql, limit);
          log.info(`Table query ${submitted.table_query_id} submitted (${submitted.status}, limit ${limit})`);
          results.show({ state: 'pending', queryId: submitted.table_query_id, status: submitted.status, sql });
          return await follow(results, tableReader(connection, results, submitted.table_query_id, sql, limit), submitted.table_query_id, sql, 'Running query…');
        } catch (error) {
          if (!isUnsupported(error)) throw error;
          withoutTablesEndpoint.add(client.baseUrl);
          log.info(`${client.baseUrl} has no tables query endpoint; using the database query endpoint.`);
        }
      }
      const submitted = await client.database.submitQuery(sql);
      log.info(`Query ${submitted.worksheet_query_id} submitted (${submitted.status})`);
      results.show({ state: 'pending', queryId: submitted.worksheet_query_id, status: submitted.status, sql });
      return follow(results, databaseReader(connection, results, submitted.worksheet_query_id, sql), submitted.worksheet_query_id, sql, 'Running query…');
    }),
    registerCommand(log, DatasetCommands.openQueryResult, async (id?: string) => {
      const queryId =
        id ??
        (await vscode.window.showInputBox({
          title: 'Open Query Result',
          prompt: 'The ID of the query (a table query ID or a worksheet query ID)',
          validateInput: (v) => (UUID.test(v.trim()) ? undefined : 'A query ID is a UUID'),
        }));
      if (!queryId) throw new CancelledError();
      const wanted = queryId.trim();
      const client = connection.requireClient();
      // An ID may be a table query's or a database query's: the tables endpoint is asked first.
      if (!withoutTablesEndpoint.has(client.baseUrl)) {
        try {
          await client.tables.queryResult(wanted);
          return await follow(results, tableReader(connection, results, wanted, undefined, undefined), wanted, undefined, 'Loading query result…');
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
      }
      return follow(results, databaseReader(connection, results, wanted, undefined), wanted, undefined, 'Loading query result…');
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

/** How to read one kind of query result: the read, when it is final, and what the grid shows then. */
interface ResultReader<T extends { status: string }> {
  read(signal: AbortSignal): Promise<T>;
  isFinal(result: T): boolean;
  /** Shows a final result; returns nothing. */
  showFinal(result: T): void;
}

/** The database query result (the interface's). */
function databaseReader(connection: Connection, results: ResultsSink, queryId: string, sql: string | undefined): ResultReader<QueryResultSet> {
  return {
    read: (signal) => connection.requireClient().database.getResult(queryId, { signal }),
    isFinal: (set) => isFinalQueryStatus(set.status),
    showFinal: (set) => results.show(set.status === 'SUCCESS' ? { state: 'success', queryId, result: set, sql } : { state: 'failure', queryId, error: set.error || 'The query failed without a message.', sql }),
  };
}

/** A table query's result: rows, execution time and `truncated` go to the same grid. */
function tableReader(connection: Connection, results: ResultsSink, queryId: string, sql: string | undefined, limit: number | undefined): ResultReader<TableQueryResult> {
  return {
    read: (signal) => connection.requireClient().tables.queryResult(queryId, { signal }),
    isFinal: (result) => FINAL_TABLE_STATUSES.has(result.status),
    showFinal: (result) => {
      if (result.status === 'SUCCESS') {
        results.show({ state: 'success', queryId, result: tableQueryResultSet(result, sql), sql });
        if (result.truncated) void vscode.window.showInformationMessage(truncatedMeaning(limit));
        return;
      }
      const error = result.error || (result.status === 'REVOKED' ? 'The query was stopped on the service (revoked).' : 'The query failed without a message.');
      results.show({ state: 'failure', queryId, error, sql });
    },
  };
}

/**
 * Reads the result until the query is final, showing progress that can be cancelled (cancel stops the
 * waiting, not the query). The panel shows "still running" meanwhile and the rows or error at the end.
 */
async function follow<T extends { status: string }>(results: ResultsSink, reader: ResultReader<T>, queryId: string, sql: string | undefined, title: string): Promise<T | undefined> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    const started = Date.now();
    let delay = 300;
    try {
      for (;;) {
        const result = await reader.read(controller.signal);
        if (reader.isFinal(result)) {
          reader.showFinal(result);
          return result;
        }
        results.show({ state: 'pending', queryId, status: result.status, sql });
        progress.report({ message: `${result.status.toLowerCase()} · ${Math.round((Date.now() - started) / 1000)} s` });
        if (Date.now() - started > MAX_WAIT_MS) throw new Error(`The query ${queryId} is still ${result.status} after ${MAX_WAIT_MS / 60_000} minutes. Open it again later with "Open Query Result…".`);
        await sleep(delay, controller.signal);
        delay = Math.min(delay * 1.5, 3000);
      }
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
