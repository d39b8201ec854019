// Tables against a real sandbox: the view with typed columns, preview in the grid, a CSV uploaded and
// queried with Run Query, completion in a real SQL editor, and delete.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TableQueryResult } from '../../src/core/client';
import type { ColumnNode, TableNode } from '../../src/extension/tables/tableNodes';
import { closeAllEditors, connect, is, itemText, startSandbox, type TestSandbox, waitFor, workbench } from './support/workbench';

async function tableNodes(): Promise<TableNode[]> {
  const api = await workbench();
  return ((await api.tables.provider.getChildren()) ?? []).filter((n): n is TableNode => is(n, 'table'));
}

async function columnNodes(table: TableNode): Promise<ColumnNode[]> {
  const api = await workbench();
  return ((await api.tables.provider.getChildren(table)) ?? []).filter((n): n is ColumnNode => is(n, 'tableColumn'));
}

async function completionLabels(document: vscode.TextDocument, offset: number): Promise<string[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, document.positionAt(offset));
  return list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
}

describe('Tables', function () {
  this.timeout(90_000);
  let sandbox: TestSandbox;
  let work: string;

  before(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-tables-'));
    sandbox = await startSandbox();
    await connect(sandbox);
  });

  after(async () => {
    await closeAllEditors();
    await sandbox.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('lists the tables with typed columns, and reads the row count when a table is expanded', async () => {
    const customers = await waitFor(async () => (await tableNodes()).find((t) => t.name === 'customers'), 'the customers table');
    const columns = await columnNodes(customers);
    const id = columns.find((c) => c.column.name === 'id')!;
    assert.equal(itemText(id).description, 'Int64');
    assert.equal(itemText(id).icon, 'symbol-number');
    assert.equal(itemText(columns.find((c) => c.column.name === 'churned_at')!).icon, 'calendar');
    await waitFor(() => / rows/.test(itemText(customers).description), 'the row count in the description');
  });

  it('previews a table’s first rows in the results grid', async () => {
    const api = await workbench();
    const key = await vscode.commands.executeCommand<string>('agentWorkbench.tables.preview', 'conversations');
    const report = await waitFor(() => {
      const r = api.results.debugState(key)?.lastReport;
      return r && r.loadedRows === 50 && r.renderedRows > 0 ? r : undefined;
    }, 'the preview rows in the grid', 30_000);
    assert.equal(report.loadedRows, 50);
  });

  it('uploads a CSV as a table, shows it, and runs a query on it through the tables endpoint', async () => {
    const file = path.join(work, 'Team Scores.csv');
    fs.writeFileSync(file, 'player,score,played_on\nada,91.5,2025-03-01\nlin,78,2025-03-02\nbo,,2025-03-03\n');
    const uploaded = await vscode.commands.executeCommand<{ table_name: string }>('agentWorkbench.tables.uploadCsv', vscode.Uri.file(file), { tableName: 'team_scores', withHeaders: true });
    assert.equal(uploaded.table_name, 'team_scores');
    const node = await waitFor(async () => (await tableNodes()).find((t) => t.name === 'team_scores'), 'the new table in the view');
    assert.deepEqual((await columnNodes(node)).map((c) => `${c.column.name}:${c.column.type}`), ['player:String', 'score:Nullable(Float64)', 'played_on:Date']);
    const result = await vscode.commands.executeCommand<TableQueryResult>('agentWorkbench.queries.run', 'SELECT player FROM team_scores WHERE score > 80');
    assert.equal(result.status, 'SUCCESS', result.error ?? '');
    assert.deepEqual(result.rows, [{ player: 'ada' }]);
    assert.equal(result.truncated, false);
    assert.equal(typeof result.execution_time_ms, 'number');
  });

  it('completes table names after FROM and columns after alias. in a real SQL editor, and underlines unknown tables', async () => {
    // Files on disk, not untitled editors: nothing is left dirty to be asked about when editors close.
    const text = 'SELECT s. FROM team_scores s\nJOIN ';
    fs.writeFileSync(path.join(work, 'complete.sql'), text);
    fs.writeFileSync(path.join(work, 'unknown.sql'), 'SELECT * FROM no_such_table');
    const document = await vscode.workspace.openTextDocument(path.join(work, 'complete.sql'));
    await vscode.window.showTextDocument(document);
    const columns = await completionLabels(document, 'SELECT s.'.length);
    assert.ok(['player', 'score', 'played_on'].every((c) => columns.includes(c)), columns.join(', '));
    assert.ok(!columns.includes('customer_id'), 'only the aliased table’s columns');
    const tables = await completionLabels(document, text.length);
    assert.ok(tables.includes('team_scores') && tables.includes('customers'), tables.join(', '));
    const unknown = await vscode.workspace.openTextDocument(path.join(work, 'unknown.sql'));
    await vscode.window.showTextDocument(unknown);
    const problems = await waitFor(() => {
      const found = vscode.languages.getDiagnostics(unknown.uri).filter((d) => /Unknown table no_such_table/.test(d.message));
      return found.length > 0 ? found : undefined;
    }, 'the unknown table to be underlined');
    assert.equal(problems.length, 1);
    assert.equal(unknown.getText(problems[0]!.range), 'no_such_table');
  });

  it('treats a SQL file above the size cap as plain text, with one note saying checks are off', async () => {
    const big = `${'SELECT * FROM no_such_table;\n'.repeat(1500)}SELECT s. FROM team_scores s`;
    fs.writeFileSync(path.join(work, 'big.sql'), big);
    const document = await vscode.workspace.openTextDocument(path.join(work, 'big.sql'));
    await vscode.window.showTextDocument(document);
    const notes = await waitFor(() => {
      const found = vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === 'Agent Workbench');
      return found.length > 0 ? found : undefined;
    }, 'the note on the large file');
    assert.equal(notes.length, 1, 'one note, no underlined table');
    assert.equal(notes[0]!.severity, vscode.DiagnosticSeverity.Information);
    assert.match(notes[0]!.message, /Checks are off for this document while you type/);
    const columns = await completionLabels(document, big.length - ' FROM team_scores s'.length);
    assert.ok(!columns.includes('player'), 'no completion from the catalog');
  });

  it('deletes a table after confirmation, and it leaves the view', async () => {
    await vscode.commands.executeCommand('agentWorkbench.tables.delete', 'team_scores', true);
    await waitFor(async () => !(await tableNodes()).some((t) => t.name === 'team_scores'), 'the table to leave the view');
  });
});
