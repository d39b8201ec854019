/** Hover and problems for SQL text: a column's type under the cursor, and tables the catalog does not have. */
import { nameOf, tokenize } from './sqlLexer';
import type { CatalogColumn, SqlCatalog } from './sqlCatalog';
import { blockAt } from './sqlCompletion';
import { ScopeResolver, analyzeStatement, splitStatements } from './sqlScopes';

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

/** Every FROM/JOIN source naming a table that is neither in the catalog nor a CTE in scope. */
export function unknownTables(text: string, catalog: SqlCatalog): UnknownTable[] {
  const out: UnknownTable[] = [];
  const resolver = new ScopeResolver(catalog);
  for (const statement of splitStatements(text)) {
    for (const block of analyzeStatement(statement)) {
      for (const source of block.sources) {
        if (source.name === undefined || !source.nameToken) continue;
        if (catalog.table(source.name) || resolver.cte(block, source.name)) continue;
        out.push({ start: source.nameToken.start, end: source.nameToken.end, name: source.name });
      }
    }
  }
  return out;
}
