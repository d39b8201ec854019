/**
 * What to offer at the cursor of a SQL text: table and CTE names after FROM/JOIN, the columns of a
 * source after `alias.`, and elsewhere the columns of the query's sources with keywords — nothing
 * inside comments and strings. Pure: the editor layer turns the answer into completion items.
 */
import { nameOf, tokenize, type SqlToken } from './sqlLexer';
import type { SqlCatalog } from './sqlCatalog';
import { ScopeResolver } from './sqlResolver';
import { analyzeStatement, splitStatements, type QueryBlock } from './sqlScopes';

export type SqlCompletionKind = 'table' | 'cte' | 'column' | 'keyword';

export interface SqlCompletion {
  label: string;
  kind: SqlCompletionKind;
  /** A column's type and where it comes from; a table's column count. */
  detail?: string;
}

export interface SqlCompletionAnswer {
  /** What the cursor is in (tests and the editor's logging). */
  context: 'silent' | 'tables' | 'columns' | 'general';
  items: SqlCompletion[];
  /** Where the word being typed starts (the range to replace ends at the cursor). */
  replaceFrom: number;
}

export const SQL_KEYWORDS = [
  'SELECT', 'FROM', 'WHERE', 'GROUP BY', 'ORDER BY', 'HAVING', 'LIMIT', 'OFFSET', 'JOIN', 'LEFT JOIN', 'INNER JOIN', 'CROSS JOIN',
  'ON', 'USING', 'AS', 'AND', 'OR', 'NOT', 'IN', 'IS NULL', 'IS NOT NULL', 'LIKE', 'ILIKE', 'BETWEEN', 'DISTINCT', 'WITH', 'UNION ALL',
  'CASE', 'WHEN', 'THEN', 'ELSE', 'END', 'ASC', 'DESC', 'COUNT', 'SUM', 'AVG', 'MIN', 'MAX',
];
const TABLE_KEYWORDS = new Set(['FROM', 'JOIN', 'INTO', 'TABLE', 'UPDATE']);

/** The token the cursor is inside (not merely touching at its start). */
function tokenAt(tokens: readonly SqlToken[], offset: number): SqlToken | undefined {
  for (const token of tokens) {
    if (token.start >= offset) return undefined;
    if (offset < token.end) return token;
    if (offset === token.end && (token.open || (token.kind === 'comment' && token.text.startsWith('--')) || token.kind === 'word')) return token;
  }
  return undefined;
}

/** Completion at `offset` of `text`. */
export function sqlCompletions(text: string, offset: number, catalog: SqlCatalog): SqlCompletionAnswer {
  const tokens = tokenize(text);
  const at = tokenAt(tokens, offset);
  if (at && (at.kind === 'comment' || at.kind === 'string' || at.kind === 'quoted' || at.kind === 'number')) return { context: 'silent', items: [], replaceFrom: offset };
  const replaceFrom = at?.kind === 'word' ? at.start : offset;
  const significant = tokens.filter((t) => t.kind !== 'comment' && t.end <= replaceFrom);
  const prev = significant[significant.length - 1];
  const block = blockAt(text, tokens, offset);
  const resolver = new ScopeResolver(catalog);
  if (prev?.kind === 'dot') {
    const qualifier = nameOf(significant[significant.length - 2]);
    return { context: 'columns', items: qualifier === undefined ? [] : qualifiedColumns(resolver, catalog, block, qualifier), replaceFrom };
  }
  if (isTablePosition(significant)) return { context: 'tables', items: tableItems(resolver, catalog, block), replaceFrom };
  return { context: 'general', items: generalItems(resolver, catalog, block), replaceFrom };
}

/** The innermost query around the cursor. */
export function blockAt(text: string, tokens: readonly SqlToken[], offset: number): QueryBlock | undefined {
  const statement = splitStatements(text, tokens).find((s) => s.start <= offset && offset <= s.end);
  if (!statement) return undefined;
  let best: QueryBlock | undefined;
  for (const block of analyzeStatement(statement)) {
    if (block.start <= offset && offset <= block.end && (!best || block.end - block.start <= best.end - best.start)) best = block;
  }
  return best;
}

/** Right after FROM/JOIN, or after a comma in a FROM list at the same depth. */
function isTablePosition(tokens: readonly SqlToken[]): boolean {
  const prev = tokens[tokens.length - 1];
  if (prev?.kind === 'word' && TABLE_KEYWORDS.has(prev.text.toUpperCase())) return true;
  if (prev?.kind !== 'comma') return false;
  let depth = 0;
  for (let i = tokens.length - 2; i >= 0; i--) {
    const t = tokens[i]!;
    if (t.kind === 'close') depth++;
    else if (t.kind === 'open') {
      if (depth === 0) return false;
      depth--;
    } else if (depth === 0 && t.kind === 'word') {
      const word = t.text.toUpperCase();
      if (word === 'FROM') return true;
      if (word === 'SELECT' || word === 'WHERE' || word === 'ON' || word === 'GROUP' || word === 'ORDER' || word === 'BY' || word === 'HAVING' || word === 'JOIN') return false;
    }
  }
  return false;
}

function tableItems(resolver: ScopeResolver, catalog: SqlCatalog, block: QueryBlock | undefined): SqlCompletion[] {
  const ctes = resolver.visibleCtes(block).map((c): SqlCompletion => ({ label: c.name, kind: 'cte', detail: 'common table expression' }));
  const tables = [...catalog.tables].map((t): SqlCompletion => ({ label: t.name, kind: 'table', detail: `${t.columns.length} column${t.columns.length === 1 ? '' : 's'}` }));
  return [...ctes, ...tables];
}

function qualifiedColumns(resolver: ScopeResolver, catalog: SqlCatalog, block: QueryBlock | undefined, qualifier: string): SqlCompletion[] {
  const found = resolver.sourceNamed(block, qualifier);
  if (found) return resolver.sourceColumns(found.source, found.block).map((c) => ({ label: c.name, kind: 'column', detail: columnDetail(c.type, found.source.name ?? found.source.alias) }));
  const cte = resolver.cte(block, qualifier);
  if (cte) return resolver.cteColumns(cte).map((c) => ({ label: c.name, kind: 'column', detail: columnDetail(c.type, cte.name) }));
  const table = catalog.table(qualifier);
  return table ? table.columns.map((c) => ({ label: c.name, kind: 'column', detail: columnDetail(c.type, table.name) })) : [];
}

function generalItems(resolver: ScopeResolver, catalog: SqlCatalog, block: QueryBlock | undefined): SqlCompletion[] {
  const items: SqlCompletion[] = [];
  const seen = new Set<string>();
  for (const { source, block: owner } of resolver.visibleSources(block)) {
    for (const column of resolver.sourceColumns(source, owner)) {
      const key = column.name.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      items.push({ label: column.name, kind: 'column', detail: columnDetail(column.type, source.alias ?? source.name) });
    }
  }
  // Before a FROM is written there are no sources: the tables themselves are the useful names.
  if (items.length === 0) items.push(...tableItems(resolver, catalog, block));
  for (const keyword of SQL_KEYWORDS) items.push({ label: keyword, kind: 'keyword' });
  return items;
}

function columnDetail(type: string, from: string | undefined): string {
  return [type, from].filter((part) => part).join(' — ');
}

