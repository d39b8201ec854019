// One SQLite database per organization inside the query worker: a copy of the demo warehouse plus
// that organization's uploaded tables, loaded from their CSV files when first needed. A query runs
// only in its organization's copy, so another organization's table does not exist for it at all.

import type { Database, SqlJsStatic } from 'sql.js';
import { forEachCsvRecord } from '../tables/csvFile';
import { sqliteType, storedValue, unwrapNullable } from '../tables/columnTypes';
import { readCatalog, type Catalog } from './catalog';
import { quoteName } from './identifiers';
import type { QueryScope, ScopeTable } from './types';

/** A database a query runs on, with what the engine knows of its tables. */
export interface Scoped {
  db: Database;
  catalog: Catalog;
}

interface OrgDatabase extends Scoped {
  /** Loaded uploaded tables: name → version. */
  loaded: Map<string, string>;
}

export class ScopedDatabases {
  private readonly orgs = new Map<string, OrgDatabase>();

  constructor(
    private readonly SQL: SqlJsStatic,
    /** The demo warehouse as SQLite file bytes, copied for each organization. */
    private readonly demoBytes: Uint8Array,
    private readonly demo: Scoped,
  ) {}

  /** The database for a scope (the shared demo one without a scope), brought in line with its tables. */
  forScope(scope: QueryScope | undefined): Scoped {
    if (!scope) return this.demo;
    let org = this.orgs.get(scope.orgId);
    if (!org) {
      const db = new this.SQL.Database(this.demoBytes);
      db.run('PRAGMA query_only = ON');
      org = { db, catalog: this.demo.catalog, loaded: new Map() };
      this.orgs.set(scope.orgId, org);
    }
    sync(org, scope.tables);
    return org;
  }
}

function sync(org: OrgDatabase, tables: readonly ScopeTable[]): void {
  const wanted = new Map(tables.map((t) => [t.name, t]));
  const stale = [...org.loaded].filter(([name, version]) => wanted.get(name)?.version !== version).map(([name]) => name);
  const missing = tables.filter((t) => org.loaded.get(t.name) !== t.version);
  if (stale.length === 0 && missing.length === 0) return;
  // Writes are refused on this database at all other times; only the loader writes, here.
  org.db.run('PRAGMA query_only = OFF');
  try {
    for (const name of stale) {
      org.db.run(`DROP TABLE IF EXISTS ${quoteName(name)}`);
      org.loaded.delete(name);
    }
    for (const table of missing) {
      // One table that cannot be loaded must not take the organization's other tables with it:
      // it stays absent (queries naming it say so) until it is replaced.
      try {
        loadTable(org.db, table);
      } catch {
        // loadTable rolled back; nothing of it is left.
      }
      org.loaded.set(table.name, table.version);
    }
  } finally {
    org.db.run('PRAGMA query_only = ON');
    org.catalog = readCatalog(org.db);
  }
}

/** Creates a table from its CSV file, typed as the upload inferred, in one transaction. */
export function loadTable(db: Database, table: ScopeTable): void {
  const types = table.columns.map((c) => unwrapNullable(c.type));
  const columnsSql = table.columns.map((c, i) => `${quoteName(c.name)} ${sqliteType(types[i]!.base)}${types[i]!.nullable ? '' : ' NOT NULL'}`);
  db.run('BEGIN');
  try {
    db.run(`CREATE TABLE ${quoteName(table.name)} (${columnsSql.join(', ')})`);
    const insert = db.prepare(`INSERT INTO ${quoteName(table.name)} VALUES (${table.columns.map(() => '?').join(', ')})`);
    try {
      forEachCsvRecord(table.file, table.withHeaders, (record) => {
        insert.run(types.map((t, i) => storedValue(record[i] ?? '', t.base)));
      });
    } finally {
      insert.free();
    }
    db.run('COMMIT');
  } catch (error) {
    db.run('ROLLBACK');
    throw error;
  }
}
