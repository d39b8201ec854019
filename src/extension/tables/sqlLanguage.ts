import * as vscode from 'vscode';
import { LIVE_CHECK_MAX_CHARS } from '../../core/documents/checkBudget';
import { baseTypeName } from '../../core/sql/sqlCatalog';
import type { SqlCompletionKind } from '../../core/sql/sqlCompletion';
import { LiveChecker, type TextProblem } from '../documents/liveChecker';
import { Disposable } from '../util/disposable';
import { loadSqlEngine } from './sqlEngine';
import type { TableCatalog } from './tableCatalog';

const SQL: vscode.DocumentSelector = { language: 'sql' };

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
  private readonly diagnostics = this.register(new LiveChecker('sql'));

  constructor(private readonly catalog: TableCatalog) {
    super();
    this.register(vscode.languages.registerCompletionItemProvider(SQL, { provideCompletionItems: (doc, pos, token) => this.complete(doc, pos, token) }, '.', ' '));
    this.register(vscode.languages.registerHoverProvider(SQL, { provideHover: (doc, pos) => this.hover(doc, pos) }));
    this.register(this.diagnostics.watch({ matches: (doc) => doc.languageId === 'sql', check: (text) => this.check(text), maxChars: LIVE_CHECK_MAX_CHARS.sql }));
    this.register(catalog.onDidChange(() => this.diagnostics.recheckAll()));
  }

  private async complete(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.CompletionList | undefined> {
    // Above the size cap the document is plain text: no completion rather than a blocked editor.
    if (this.diagnostics.overBudget(document)) return undefined;
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
    if (this.diagnostics.overBudget(document)) return undefined;
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

  private async check(text: string): Promise<TextProblem[]> {
    const catalog = await this.catalog.sqlCatalog();
    // Without a catalog every table would look unknown: say nothing rather than something wrong.
    if (!catalog || catalog.size === 0) return [];
    return loadSqlEngine()
      .unknownTables(text, catalog)
      .map((u) => ({ offset: u.start, length: u.end - u.start, message: `Unknown table ${u.name}: the organization has no table of this name.`, severity: 'warning' }));
  }
}
