// The query results grid: a 100,000 × 12 result fetched from the sandbox's query engine through the
// extension's client, shown in the real results panel (a webview in the browser), timed by the
// panel itself, then scrolled to the end by the page while it times its frames.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { QueryResultSet } from '../../../src/core/client/schemas/database';
import type { GridFetch, GridOpen, GridScroll } from '../protocol';
import { waitFor, workbenchApi } from '../workbench';

let fetched: { result: QueryResultSet; sql: string } | undefined;

/** Submits the query through the extension's client and keeps its result for the runs. */
export async function fetchResult(sql: string): Promise<GridFetch> {
  const client = (await workbenchApi()).connection.requireClient();
  const started = performance.now();
  const submitted = await client.database.submitQuery(sql);
  const result = await waitFor(async () => {
    const answer = await client.database.getResult(submitted.worksheet_query_id);
    if (answer.status === 'FAILURE') throw new Error(`The query failed: ${answer.error ?? 'no error text'}`);
    return answer.status === 'SUCCESS' ? answer : undefined;
  }, 'the query to finish', 120_000);
  fetched = { result, sql };
  const first = result.results?.[0];
  return { rows: first?.result_rows.length ?? 0, columns: first?.column_names.length ?? 0, fetchMs: performance.now() - started, queryId: submitted.worksheet_query_id };
}

/** Shows the fetched result in a new panel; resolves with the panel's timings once every row arrived. */
export async function openResult(): Promise<GridOpen> {
  if (!fetched) throw new Error('No result fetched yet (gridFetch first).');
  const api = await workbenchApi();
  const queryId = randomUUID();
  const shownAt = Date.now();
  api.results.show({ state: 'success', queryId, result: { ...fetched.result, worksheet_query_id: queryId }, sql: fetched.sql });
  const timings = await waitFor(() => {
    const t = api.results.debugState(queryId)?.timings;
    return t?.firstRowsMs !== undefined && t.allRowsMs !== undefined ? t : undefined;
  }, 'the grid to report its first and all rows', 120_000);
  return { queryId, shownAt, timings: { ...timings } };
}

/**
 * Runs the query the way a user does (the Run Query command: the panel opens before the query is
 * sent, and shows the rows when the result arrives); resolves with the panel's timings, measured from
 * the result's arrival, once every row is in. `shownAt` is then the result's arrival.
 */
export async function runQuery(sql: string): Promise<GridOpen> {
  const api = await workbenchApi();
  // 100,000 rows: more than a table query returns, so the database query result, as a user would choose.
  await vscode.workspace.getConfiguration('agentWorkbench').update('queries.useTablesEndpoint', false, vscode.ConfigurationTarget.Global);
  // The write resolves before the extension host's copy of the settings has it; Run Query reads that copy.
  await waitFor(() => vscode.workspace.getConfiguration('agentWorkbench').get<boolean>('queries.useTablesEndpoint') === false || undefined, 'the setting to reach the extension host', 30_000);
  const set = await vscode.commands.executeCommand<QueryResultSet | undefined>('agentWorkbench.queries.run', sql);
  if (!set || set.status !== 'SUCCESS') throw new Error(`Run Query gave no result (${set?.status ?? 'nothing'}).`);
  const queryId = set.worksheet_query_id;
  const timings = await waitFor(() => {
    const t = api.results.debugState(queryId)?.timings;
    return t?.firstRowsMs !== undefined && t.allRowsMs !== undefined ? t : undefined;
  }, 'the grid to report its first and all rows', 120_000);
  return { queryId, shownAt: timings.resultAtEpochMs ?? Number.NaN, timings: { ...timings } };
}

/** Drops the fetched result (the benchmark is over: the extension host should not carry it into the next one). */
export function forgetResult(): null {
  fetched = undefined;
  return null;
}

/** Has the page scroll from the first row to the last, timing its frames. */
export async function scrollResult(queryId: string): Promise<GridScroll> {
  const api = await workbenchApi();
  const { id: _id, ...measurement } = await api.results.measureScroll(queryId);
  return measurement;
}

/** VS Code's floor for a webview panel: ms from creating an empty one until its script says ready. */
export async function emptyWebviewReady(): Promise<number> {
  const started = performance.now();
  const panel = vscode.window.createWebviewPanel('agentWorkbenchBench.empty', 'Empty webview', { viewColumn: vscode.ViewColumn.Active, preserveFocus: true }, { enableScripts: true });
  try {
    const nonce = randomUUID().replace(/-/g, '');
    const ready = new Promise<void>((resolve) => panel.webview.onDidReceiveMessage(() => resolve()));
    panel.webview.html = `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}';"></head><body><script nonce="${nonce}">acquireVsCodeApi().postMessage({ type: 'ready' });</script></body></html>`;
    await waitFor(() => ready.then(() => true), 'the empty webview to say ready', 60_000);
    return performance.now() - started;
  } finally {
    panel.dispose();
  }
}
