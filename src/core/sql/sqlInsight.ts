/** Hover and problems for SQL text: a column's type under the cursor, and tables the catalog does not have. */
import { nameOf, tokenize } from './sqlLexer';
import type { CatalogColumn, SqlCatalog } from './sqlCatalog';
import { blockAt } from './sqlCompletion';
import { parsedTables } from './sqlParser';
import { ScopeResolver } from './sqlResolver';
import { analyzeStatement, splitStatements, type Statement } from './sqlScopes';

export type SqlHover =
  | { kind: 'column'; start: number; end: number; name: string; type: string; source?: string }
  | { kind: 'table'; start: number; end: number; name: string; columns: readonly CatalogColumn[] };

/** What the name under the cursor is: a column (with its type) or a table (with its columns). */
export function sqlHover(text: string, offset: number, catalog: SqlCatalog): SqlHover | undefined {
  const tokens = tokenize(text);
  const index = tokens.findIndex((t) => t.start <= offset && offset <= t.end && (t.kind === 'word' || t.kind === 'quoted'));
  const token = tokens[index];
  const name = nameOf(token);
  if (!token || name === undefined) return undefined;
  const block = blockAt(text, tokens, offset);
  const resolver = new ScopeResolver(catalog);
  const qualified = tokens[index - 1]?.kind === 'dot' ? nameOf(tokens[index - 2]) : undefined;
  if (block) {
    const type = resolver.columnType(block, name, qualified);
    if (type !== undefined) {
      const source = qualified ?? resolver.visibleSources(block).find(({ source: s, block: b }) => resolver.sourceColumns(s, b).some((c) => c.name.toLowerCase() === name.toLowerCase()))?.source;
      const sourceName = typeof source === 'string' ? source : (source?.name ?? source?.alias);
      return { kind: 'column', start: token.start, end: token.end, name, type, source: sourceName };
    }
  }
  if (qualified === undefined && !resolver.cte(block, name)) {
    const table = catalog.table(name);
    if (table) return { kind: 'table', start: token.start, end: token.end, name: table.name, columns: table.columns };
  }
  return undefined;
}

export interface UnknownTable {
  start: number;
  end: number;
  name: string;
}

/**
 * How many characters of statements one check gives node-sql-parser. It takes some 40 µs a character
 * (and more on long join chains), so past this the tolerant scope analysis, which is linear, judges
 * alone: a check stays within its budget however long the text.
 */
export const PARSER_BUDGET_CHARS = 1000;

/**
 * Every table a statement reads that is neither in the catalog nor a CTE in scope. A statement
 * node-sql-parser can read (within {@link PARSER_BUDGET_CHARS}) is judged by its table list; any other
 * (ClickHouse-only syntax, text being typed, a long statement) by the tolerant scope analysis.
 * Positions come from the tokens either way.
 */
export function unknownTables(text: string, catalog: SqlCatalog): UnknownTable[] {
  const out: UnknownTable[] = [];
  let parserBudget = PARSER_BUDGET_CHARS;
  for (const statement of splitStatements(text)) {
    if (statement.tokens.length === 0) continue;
    const length = statement.end - statement.start;
    const parsed = length <= parserBudget ? unknownByParser(text, statement, catalog) : undefined;
    if (length <= parserBudget) parserBudget -= length;
    out.push(...(parsed ?? unknownByScopes(statement, catalog)));
  }
  return out;
}

function unknownByParser(text: string, statement: Statement, catalog: SqlCatalog): UnknownTable[] | undefined {
  const parsed = parsedTables(text.slice(statement.start, statement.end));
  if (!parsed) return undefined;
  const ctes = new Set(parsed.ctes.map((n) => n.toLowerCase()));
  const unknown = new Set(parsed.tables.filter((n) => !catalog.table(n) && !ctes.has(n.toLowerCase())).map((n) => n.toLowerCase()));
  if (unknown.size === 0) return [];
  // Where the analysis found the name as a source, that is the place; else every token spelling it.
  const sources = analyzeStatement(statement).flatMap((b) => b.sources).filter((s) => s.nameToken && s.name !== undefined && unknown.has(s.name.toLowerCase()));
  const tokens = sources.length > 0 ? sources.map((s) => s.nameToken!) : statement.tokens.filter((t) => unknown.has(nameOf(t)?.toLowerCase() ?? ''));
  return tokens.sort((a, b) => a.start - b.start).map((t) => ({ start: t.start, end: t.end, name: nameOf(t)! }));
}

function unknownByScopes(statement: Statement, catalog: SqlCatalog): UnknownTable[] {
  const out: UnknownTable[] = [];
  const resolver = new ScopeResolver(catalog);
  for (const block of analyzeStatement(statement)) {
    for (const source of block.sources) {
      if (source.name === undefined || !source.nameToken) continue;
      if (catalog.table(source.name) || resolver.cte(block, source.name)) continue;
      out.push({ start: source.nameToken.start, end: source.nameToken.end, name: source.name });
    }
  }
  return out;
}
