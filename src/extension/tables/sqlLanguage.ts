import * as vscode from 'vscode';
import { baseTypeName, type SqlCatalog } from '../../core/sql/sqlCatalog';
import type { SqlCompletionKind } from '../../core/sql/sqlCompletion';
import { Disposable } from '../util/disposable';
import { loadSqlEngine } from './sqlEngine';
import type { TableCatalog } from './tableCatalog';

const SQL: vscode.DocumentSelector = { language: 'sql' };
const DIAGNOSTIC_DELAY_MS = 300;

const ITEM_KINDS: Record<SqlCompletionKind, vscode.CompletionItemKind> = {
  table: vscode.CompletionItemKind.Struct,
  cte: vscode.CompletionItemKind.Interface,
  column: vscode.CompletionItemKind.Field,
  keyword: vscode.CompletionItemKind.Keyword,
};
/** Columns and tables before keywords. */
const SORT: Record<SqlCompletionKind, string> = { cte: '0', table: '1', column: '1', keyword: '9' };

/**
 * SQL editing in `.sql` files against the organization's tables: completion (tables after FROM/JOIN,
 * columns, `alias.` columns, keywords), hover with a column's type, and unknown tables underlined.
 * The SQL logic is in src/core/sql; this only adapts it to the editor.
 */
export class SqlLanguageFeatures extends Disposable {
  private readonly diagnostics = this.register(vscode.languages.createDiagnosticCollection('agentWorkbench.sql'));
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly catalog: TableCatalog) {
    super();
    this.register(vscode.languages.registerCompletionItemProvider(SQL, { provideCompletionItems: (doc, pos, token) => this.complete(doc, pos, token) }, '.', ' '));
    this.register(vscode.languages.registerHoverProvider(SQL, { provideHover: (doc, pos) => this.hover(doc, pos) }));
    this.register(vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)));
    this.register(vscode.workspace.onDidOpenTextDocument((doc) => this.schedule(doc)));
    this.register(vscode.workspace.onDidCloseTextDocument((doc) => this.diagnostics.delete(doc.uri)));
    this.register(catalog.onDidChange(() => {
      for (const doc of vscode.workspace.textDocuments) this.schedule(doc);
    }));
    this.register({ dispose: () => this.timers.forEach((t) => clearTimeout(t)) });
    for (const doc of vscode.workspace.textDocuments) this.schedule(doc);
  }

  private async complete(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.CompletionList | undefined> {
    const catalog = await this.catalog.sqlCatalog();
    if (!catalog || token.isCancellationRequested) return undefined;
    const text = document.getText();
    const offset = document.offsetAt(position);
    const answer = loadSqlEngine().sqlCompletions(text, offset, catalog);
    if (answer.context === 'silent') return new vscode.CompletionList([], false);
    const range = new vscode.Range(document.positionAt(answer.replaceFrom), position);
    const items = answer.items.map((c, i) => {
      const item = new vscode.CompletionItem({ label: c.label, description: c.detail }, ITEM_KINDS[c.kind]);
      item.range = range;
      item.sortText = `${SORT[c.kind]}${String(i).padStart(5, '0')}`;
      if (c.kind === 'column' && c.detail) item.detail = c.detail;
      return item;
    });
    return new vscode.CompletionList(items, false);
  }

  private async hover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const catalog = await this.catalog.sqlCatalog();
    if (!catalog) return undefined;
    const found = loadSqlEngine().sqlHover(document.getText(), document.offsetAt(position), catalog);
    if (!found) return undefined;
    const md = new vscode.MarkdownString();
    if (found.kind === 'column') {
      md.appendMarkdown('Column **').appendText(found.name).appendMarkdown('**');
      if (found.source) md.appendMarkdown(' of ').appendText(found.source);
      md.appendMarkdown('\n\n').appendMarkdown(found.type ? 'Type: `' : 'Type not known').appendText(found.type ? found.type : '').appendMarkdown(found.type ? '`' : '');
      if (found.type && baseTypeName(found.type) !== found.type) md.appendMarkdown(' (may be NULL)');
    } else {
      md.appendMarkdown('Table **').appendText(found.name).appendMarkdown(`** · ${found.columns.length} columns\n\n`);
      for (const c of found.columns.slice(0, 30)) md.appendMarkdown('- ').appendText(`${c.name}: ${c.type}`).appendMarkdown('\n');
      if (found.columns.length > 30) md.appendMarkdown(`- … ${found.columns.length - 30} more`);
    }
    return new vscode.Hover(md, new vscode.Range(document.positionAt(found.start), document.positionAt(found.end)));
  }

  private schedule(document: vscode.TextDocument): void {
    if (document.languageId !== 'sql') return;
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      void this.check(document);
    }, DIAGNOSTIC_DELAY_MS));
  }

  private async check(document: vscode.TextDocument): Promise<void> {
    if (document.isClosed) return;
    const catalog: SqlCatalog | undefined = await this.catalog.sqlCatalog();
    // Without a catalog every table would look unknown: say nothing rather than something wrong.
    if (!catalog || catalog.size === 0) {
      this.diagnostics.delete(document.uri);
      return;
    }
    const problems = loadSqlEngine().unknownTables(document.getText(), catalog).map((u) => {
      const d = new vscode.Diagnostic(new vscode.Range(document.positionAt(u.start), document.positionAt(u.end)), `Unknown table ${u.name}: the organization has no table of this name.`, vscode.DiagnosticSeverity.Warning);
      d.source = 'Agent Workbench';
      return d;
    });
    this.diagnostics.set(document.uri, problems);
  }
}
