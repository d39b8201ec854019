// What the worker knows about the demo tables: sizes (for the read counters of the summary) and
// declared column types (sql.js does not expose sqlite3_column_decltype, so result columns are
// matched to table columns by name).

import type { Database } from 'sql.js';
import { identifierName, type SqlToken } from './sqlTokens';

export interface CatalogColumn {
  declaredType: string;
  nullable: boolean;
}

export interface CatalogTable {
  name: string;
  rowCount: number;
  /** Average uncompressed size of a row: text by its UTF-8 length, numbers 8 bytes, NULL 1 byte. */
  bytesPerRow: number;
  columns: ReadonlyMap<string, CatalogColumn>;
}

/** Tables by lower-case name. */
export type Catalog = ReadonlyMap<string, CatalogTable>;

/** Reads names, sizes and declared column types of every table in the database. */
export function readCatalog(db: Database): Catalog {
  const catalog = new Map<string, CatalogTable>();
  const [tables] = db.exec("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
  for (const [name] of tables?.values ?? []) {
    const table = String(name);
    const columns = new Map<string, CatalogColumn>();
    const [info] = db.exec(`SELECT name, type, "notnull", pk FROM pragma_table_info('${table}')`);
    for (const [column, type, notNull, pk] of info?.values ?? []) {
      columns.set(String(column).toLowerCase(), { declaredType: String(type), nullable: notNull === 0 && pk === 0 });
    }
    const sizes = [...columns.keys()]
      .map((c) => `CASE typeof("${c}") WHEN 'text' THEN length(CAST("${c}" AS BLOB)) WHEN 'null' THEN 1 ELSE 8 END`)
      .join(' + ');
    const [stats] = db.exec(`SELECT count(*), coalesce(avg(${sizes || '0'}), 0) FROM "${table}"`);
    const [rowCount, bytesPerRow] = stats?.values[0] ?? [0, 0];
    catalog.set(table.toLowerCase(), { name: table, rowCount: Number(rowCount), bytesPerRow: Number(bytesPerRow), columns });
  }
  return catalog;
}

/** The catalog tables a statement names (each once), in the order they first appear. */
export function tablesNamedIn(catalog: Catalog, tokens: readonly SqlToken[]): CatalogTable[] {
  const found = new Map<string, CatalogTable>();
  for (const token of tokens) {
    const name = identifierName(token)?.toLowerCase();
    const table = name === undefined ? undefined : catalog.get(name);
    if (table && name !== undefined) found.set(name, table);
  }
  return [...found.values()];
}

/**
 * The declared column a result column most likely comes from: a column of that name in one of
 * the tables the query reads, when all such columns agree on type (a name like `id` may not).
 */
export function declaredColumn(tables: readonly CatalogTable[], resultName: string): CatalogColumn | undefined {
  const candidates = tables.map((t) => t.columns.get(resultName.toLowerCase())).filter((c) => c !== undefined);
  const [first] = candidates;
  if (!first || candidates.some((c) => c.declaredType !== first.declaredType)) return undefined;
  return { declaredType: first.declaredType, nullable: candidates.some((c) => c.nullable) };
}
