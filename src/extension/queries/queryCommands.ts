import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { QueryResultSet, TableQueryResult } from '../../core/client';
import { followQuery } from '../../core/queries/followQuery';
import { isFinalQueryStatus, isNotFound, isUnsupported } from '../../core/serviceDecisions';
import { tableQueryResultSet, truncatedMeaning } from '../../core/tables/tableResults';
import { registerCommand } from '../commands/commandRunner';
import { queriesUseTablesEndpoint, tablesQueryRowLimit } from '../configuration';
import type { Connection } from '../connection/connection';
import { QueryCommands } from '../constants';
import type { Log } from '../log';
import { CancelledError, isCancellation, messageOf } from '../util/errors';
import type { QueryView } from './queryResults';

export type { QueryView };

/** Where query results go (the results grid panels). */
export interface ResultsSink {
  show(view: QueryView): void;
  /** Gives a panel opened under a provisional key its query's ID. */
  rekey(from: string, to: string): void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Statuses after which a table query will not change. */
const FINAL_TABLE_STATUSES = new Set(['SUCCESS', 'FAILURE', 'REVOKED']);


/**
 * Run Query (the SQL of the active editor or its selection; CodeLens and editor title on .sql files)
 * and Open Query Result…. Queries go to the tables endpoint (row limit from the settings) where the
 * server has it, else to the interface's database query. The panel opens the moment the command
 * runs, so its page starts while the query is sent and runs.
 */
export function registerQueryCommands(connection: Connection, results: ResultsSink, log: Log): vscode.Disposable[] {
  // Servers (by base URL) that answered 404/405 to the tables query endpoint get the database query;
  // forgotten when the connection changes, since a server may be upgraded or another one reached.
  const withoutTablesEndpoint = new Set<string>();
  return [
    connection.onDidChange(() => withoutTablesEndpoint.clear()),
    registerCommand(log, QueryCommands.run, async (arg?: vscode.Uri | string) => {
      const sql = typeof arg === 'string' ? arg : await sqlFromEditor(arg);
      const client = connection.requireClient();
      const waiting = new Waiting(results, `submitting:${randomUUID()}`, sql);
      waiting.show('Submitting');
      try {
        if (queriesUseTablesEndpoint() && !withoutTablesEndpoint.has(client.baseUrl)) {
          const limit = tablesQueryRowLimit();
          try {
            const submitted = await client.tables.query(sql, limit, { signal: waiting.signal });
            log.info(`Table query ${submitted.table_query_id} submitted (${submitted.status}, limit ${limit})`);
            waiting.submitted(submitted.table_query_id, submitted.status);
            return await follow(waiting, tableReader(connection, waiting, limit), 'Running query…');
          } catch (error) {
            if (!isUnsupported(error)) throw error;
            withoutTablesEndpoint.add(client.baseUrl);
            log.info(`${client.baseUrl} has no tables query endpoint; using the database query endpoint.`);
          }
        }
        const submitted = await client.database.submitQuery(sql, { signal: waiting.signal });
        log.info(`Query ${submitted.worksheet_query_id} submitted (${submitted.status})`);
        waiting.submitted(submitted.worksheet_query_id, submitted.status);
      } catch (error) {
        waiting.fail(error);
        throw error;
      }
      return follow(waiting, databaseReader(connection, waiting), 'Running query…');
    }),
    registerCommand(log, QueryCommands.openResult, async (id?: string) => {
      const queryId =
        id ??
        (await vscode.window.showInputBox({
          title: 'Open Query Result',
          prompt: 'The ID of the query (a table query ID or a worksheet query ID)',
          validateInput: (v) => (UUID.test(v.trim()) ? undefined : 'A query ID is a UUID'),
        }));
      if (!queryId) throw new CancelledError();
      const waiting = new Waiting(results, queryId.trim(), undefined);
      waiting.show('Loading');
      const client = connection.requireClient();
      // An ID may be a table query's or a database query's: the tables endpoint is asked first.
      if (!withoutTablesEndpoint.has(client.baseUrl)) {
        try {
          await client.tables.queryResult(waiting.key, { signal: waiting.signal });
          return await follow(waiting, tableReader(connection, waiting, undefined), 'Loading query result…');
        } catch (error) {
          if (!isNotFound(error) && !isUnsupported(error)) {
            waiting.fail(error);
            throw error;
          }
        }
      }
      return follow(waiting, databaseReader(connection, waiting), 'Loading query result…');
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
    readonly results: ResultsSink,
    public key: string,
    readonly sql: string | undefined,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  cancel(): void {
    this.controller.abort(new CancelledError());
  }

  show(status: string): void {
    this.results.show({ state: 'pending', queryId: this.key, status, sql: this.sql, cancel: () => this.cancel() });
  }

  /** The service gave the query its ID: the panel opened under a provisional key takes it. */
  submitted(queryId: string, status: string): void {
    this.results.rekey(this.key, queryId);
    this.key = queryId;
    this.show(status);
  }

  /** The panel says why there are no rows (never left spinning). */
  fail(error: unknown): void {
    const stopped = this.signal.aborted || isCancellation(error);
    const text = stopped ? `Stopped waiting for this query; it may still be running on the service. Open it again later with "Open Query Result…".` : messageOf(error);
    this.results.show({ state: 'failure', queryId: this.key, error: text, sql: this.sql });
  }
}

/** How to read one kind of query result: the read, when it is final, and what the grid shows then. */
interface ResultReader<T extends { status: string }> {
  read: (signal: AbortSignal) => Promise<T>;
  isFinal: (result: T) => boolean;
  /** Shows a final result; returns nothing. */
  showFinal: (result: T) => void;
}

/** The database query result (the interface's). */
function databaseReader(connection: Connection, waiting: Waiting): ResultReader<QueryResultSet> {
  return {
    read: (signal) => connection.requireClient().database.getResult(waiting.key, { signal }),
    isFinal: (set) => isFinalQueryStatus(set.status),
    showFinal: (set) => {
      const { key: queryId, sql } = waiting;
      waiting.results.show(set.status === 'SUCCESS' ? { state: 'success', queryId, result: set, sql } : { state: 'failure', queryId, error: set.error || 'The query failed without a message.', sql });
    },
  };
}

/** A table query's result: rows, execution time and `truncated` go to the same grid. */
function tableReader(connection: Connection, waiting: Waiting, limit: number | undefined): ResultReader<TableQueryResult> {
  return {
    read: (signal) => connection.requireClient().tables.queryResult(waiting.key, { signal }),
    isFinal: (result) => FINAL_TABLE_STATUSES.has(result.status),
    showFinal: (result) => {
      const { key: queryId, sql } = waiting;
      if (result.status === 'SUCCESS') {
        waiting.results.show({ state: 'success', queryId, result: tableQueryResultSet(result, sql), sql });
        if (result.truncated) void vscode.window.showInformationMessage(truncatedMeaning(limit));
        return;
      }
      const error = result.error || (result.status === 'REVOKED' ? 'The query was stopped on the service (revoked).' : 'The query failed without a message.');
      waiting.results.show({ state: 'failure', queryId, error, sql });
    },
  };
}

/**
 * Reads the result until the query is final, showing progress that can be cancelled (cancel stops the
 * waiting, not the query). The panel shows "still running" meanwhile and the rows or error at the end.
 */
async function follow<T extends { status: string }>(waiting: Waiting, reader: ResultReader<T>, title: string): Promise<T | undefined> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const sub = token.onCancellationRequested(() => waiting.cancel());
    try {
      const result = await followQuery(reader.read, waiting.key, {
        signal: waiting.signal,
        isFinal: reader.isFinal,
        onPending: (pending, elapsedMs) => {
          waiting.show(pending.status);
          progress.report({ message: `${pending.status.toLowerCase()} · ${Math.round(elapsedMs / 1000)} s` });
        },
      });
      reader.showFinal(result);
      return result;
    } catch (error) {
      waiting.fail(error);
      if (waiting.signal.aborted) {
        void vscode.window.showInformationMessage(`Stopped waiting for query ${waiting.key}; it may still be running on the service. Open it later with "Open Query Result…".`);
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
    return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title: '$(play) Run Query', tooltip: 'Run this SQL on the service (the selection when there is one) and show the rows', command: QueryCommands.run, arguments: [document.uri] })];
  }
}
