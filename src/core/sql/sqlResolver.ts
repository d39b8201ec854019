/** Names to columns, against a catalog, through the CTEs, subqueries and aliases the scope analysis found. */
import { isKeyword, nameOf } from './sqlLexer';
import type { CatalogColumn, SqlCatalog } from './sqlCatalog';
import { MAX_DEPTH, tokenOf, type Cte, type Item, type QueryBlock, type Source } from './sqlScopes';

/** Resolves names to columns against a catalog, through CTEs and subqueries. */
export class ScopeResolver {
  constructor(private readonly catalog: SqlCatalog) {}

  /** The CTEs visible in a block: its own, then its ancestors'. */
  visibleCtes(block: QueryBlock | undefined): Cte[] {
    const out: Cte[] = [];
    for (let b = block; b; b = b.parent) out.push(...b.ctes);
    return out;
  }

  /** The sources whose columns a block can use: its own, then (unless isolated) its ancestors'. */
  visibleSources(block: QueryBlock | undefined): Array<{ source: Source; block: QueryBlock }> {
    const out: Array<{ source: Source; block: QueryBlock }> = [];
    for (let b = block; b; b = b.isolated ? undefined : b.parent) for (const source of b.sources) out.push({ source, block: b });
    return out;
  }

  /** The CTE a name means in a block, if any. */
  cte(block: QueryBlock | undefined, name: string): Cte | undefined {
    const key = name.toLowerCase();
    return this.visibleCtes(block).find((c) => c.name.toLowerCase() === key);
  }

  /** The columns of a source seen from the block that reads it. */
  sourceColumns(source: Source, block: QueryBlock, depth = 0): CatalogColumn[] {
    if (depth > MAX_DEPTH) return [];
    if (source.query) return this.queryColumns(source.query, depth + 1);
    if (source.name === undefined) return [];
    const cte = this.cte(block, source.name);
    if (cte) return this.cteColumns(cte, depth + 1);
    return [...(this.catalog.table(source.name)?.columns ?? [])];
  }

  cteColumns(cte: Cte, depth = 0): CatalogColumn[] {
    if (cte.columnNames?.length) {
      const inner = cte.query ? this.queryColumns(cte.query, depth + 1) : [];
      return cte.columnNames.map((name, i) => ({ name, type: inner[i]?.type ?? '' }));
    }
    return cte.query ? this.queryColumns(cte.query, depth + 1) : [];
  }

  /** The columns a query offers: its select list's names (`*` and `t.*` expanded). */
  queryColumns(block: QueryBlock, depth = 0): CatalogColumn[] {
    if (depth > MAX_DEPTH) return [];
    const out: CatalogColumn[] = [];
    for (const item of block.selectList) out.push(...this.selectItemColumns(item, block, depth));
    return out;
  }

  /** The source an alias or table name means in a block (its own sources first, then outer ones). */
  sourceNamed(block: QueryBlock | undefined, qualifier: string): { source: Source; block: QueryBlock } | undefined {
    const key = qualifier.toLowerCase();
    const visible = this.visibleSources(block);
    return (
      visible.find((v) => v.source.alias?.toLowerCase() === key) ??
      visible.find((v) => v.source.alias === undefined && v.source.name?.toLowerCase() === key)
    );
  }

  private selectItemColumns(item: Item[], block: QueryBlock, depth: number): CatalogColumn[] {
    const tokens = item.map(tokenOf);
    const last = tokens[tokens.length - 1];
    if (tokens.length === 1 && last?.kind === 'operator' && last.text === '*') {
      return block.sources.flatMap((s) => this.sourceColumns(s, block, depth + 1));
    }
    if (tokens.length === 3 && tokens[1]?.kind === 'dot' && last?.text === '*') {
      const found = this.sourceNamed(block, nameOf(tokens[0]) ?? '');
      return found ? this.sourceColumns(found.source, found.block, depth + 1) : [];
    }
    const lastName = nameOf(last);
    if (lastName === undefined) return [];
    const beforeLast = item.length >= 2 ? item[item.length - 2] : undefined;
    const aliased = tokens.length >= 2 && (isKeyword(tokenOf(beforeLast), 'AS') || (tokenOf(beforeLast)?.kind !== 'dot' && tokenOf(beforeLast)?.kind !== 'operator'));
    if (tokens.length === 1 || (tokens.length === 3 && tokens[1]?.kind === 'dot')) {
      const qualifier = tokens.length === 3 ? nameOf(tokens[0]) : undefined;
      return [{ name: lastName, type: this.columnType(block, lastName, qualifier) ?? '' }];
    }
    return aliased ? [{ name: lastName, type: '' }] : [];
  }

  /** The type of a column as a block sees it, through a qualifier when given. */
  columnType(block: QueryBlock, column: string, qualifier?: string): string | undefined {
    const key = column.toLowerCase();
    const candidates = qualifier === undefined ? this.visibleSources(block) : [this.sourceNamed(block, qualifier)].filter((v) => v !== undefined);
    for (const { source, block: owner } of candidates) {
      const found = this.sourceColumns(source, owner).find((c) => c.name.toLowerCase() === key);
      if (found) return found.type;
    }
    return undefined;
  }
}
