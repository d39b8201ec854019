// What the worker knows about the demo tables: sizes (for the read counters of the summary) and
// declared column types (sql.js does not expose sqlite3_column_decltype, so result columns are
// matched to table columns by name).

import type { Database, SqlValue } from 'sql.js';
import { quoteName } from './identifiers';
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
  const tables = rowsOf(db, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
  for (const [name] of tables) {
    const table = String(name);
    const columns = new Map<string, CatalogColumn>();
    const names: string[] = [];
    // Names come from CSV headers: bound as a value here, quoted as an identifier below, never pasted.
    for (const [column, type, notNull, pk] of rowsOf(db, 'SELECT name, type, "notnull", pk FROM pragma_table_info(?)', [table])) {
      names.push(String(column));
      columns.set(String(column).toLowerCase(), { declaredType: String(type), nullable: notNull === 0 && pk === 0 });
    }
    const rowCount = Number(rowsOf(db, `SELECT count(*) FROM ${quoteName(table)}`)[0]?.[0] ?? 0);
    catalog.set(table.toLowerCase(), { name: table, rowCount, bytesPerRow: averageRowBytes(db, table, names), columns });
  }
  return catalog;
}

/** Columns measured per statement: one sum of them all would pass SQLite's expression depth (1000) on a wide table. */
const SIZE_COLUMNS_PER_STATEMENT = 250;

/** The average size of a row, column by column (the average of a sum is the sum of the averages). */
function averageRowBytes(db: Database, table: string, columns: readonly string[]): number {
  let total = 0;
  for (let i = 0; i < columns.length; i += SIZE_COLUMNS_PER_STATEMENT) {
    const sizes = columns
      .slice(i, i + SIZE_COLUMNS_PER_STATEMENT)
      .map((c) => `coalesce(avg(CASE typeof(${quoteName(c)}) WHEN 'text' THEN length(CAST(${quoteName(c)} AS BLOB)) WHEN 'null' THEN 1 ELSE 8 END), 0)`);
    for (const value of rowsOf(db, `SELECT ${sizes.join(', ')} FROM ${quoteName(table)}`)[0] ?? []) total += Number(value);
  }
  return total;
}

/** The rows of one prepared statement: unlike `exec`, anything after its first statement is never run. */
function rowsOf(db: Database, sql: string, params: SqlValue[] = []): SqlValue[][] {
  const statement = db.prepare(sql);
  try {
    statement.bind(params);
    const rows: SqlValue[][] = [];
    while (statement.step()) rows.push(statement.get());
    return rows;
  } finally {
    statement.free();
  }
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
