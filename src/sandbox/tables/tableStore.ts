// The organizations' uploaded tables as the server knows them: a record per table in the sandbox's
// store (name, columns with their types, row count, times) and the CSV file beside the data folder's
// files. The rows themselves live in the query worker's SQLite, loaded from that file.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { clickHouseType } from '../query/columnProfile';
import { DEMO_TABLES } from '../query/demoSchema';
import type { QueryScope } from '../query/index';
import type { SandboxDb } from '../store/database';
import type { UploadedColumn } from './csvFile';

/** Created by this module (not the store's schema), so the tables feature stays self-contained. */
const TABLES_SQL = `
CREATE TABLE IF NOT EXISTS sandbox_tables (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, name TEXT NOT NULL, name_key TEXT NOT NULL, storage_name TEXT NOT NULL UNIQUE,
  with_headers INTEGER NOT NULL, columns TEXT NOT NULL, row_count INTEGER NOT NULL, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
  UNIQUE (org_id, name_key));
CREATE TABLE IF NOT EXISTS sandbox_table_queries (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, sql TEXT NOT NULL, row_limit INTEGER NOT NULL, status TEXT NOT NULL,
  result TEXT, error TEXT, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL);
`;

/** A table of an organization: a demo table (shared, read-only) or one it uploaded. */
export interface TableInfo {
  name: string;
  columns: UploadedColumn[];
  /** Uploaded tables only. */
  uploaded?: { id: string; storageName: string; withHeaders: boolean; rowCount: number; updatedMs: number };
}

interface TableRow {
  id: string;
  name: string;
  storage_name: string;
  with_headers: number;
  columns: string;
  row_count: number;
  updated_ms: number;
}

/** The demo tables with their ClickHouse column types (every organization of the sandbox sees them). */
const DEMO_INFOS: TableInfo[] = DEMO_TABLES.map((t) => ({
  name: t.name,
  columns: t.columns.map((c) => {
    const base = clickHouseType(c.type) ?? 'String';
    return { name: c.name, type: c.nullable ? `Nullable(${base})` : base };
  }),
}));

/** Names compare without case: SQLite's do, so `Sales` and `sales` cannot both exist. */
export const nameKey = (name: string): string => name.toLowerCase();

export class TableStore {
  /** Where the CSV files of uploaded tables are kept: beside the dataset files, not among them. */
  readonly dir: string;

  constructor(
    private readonly db: SandboxDb,
    filesDir: string,
  ) {
    this.dir = path.join(path.dirname(filesDir), 'tables');
    fs.mkdirSync(this.dir, { recursive: true });
    db.exec(TABLES_SQL);
  }

  /** Removes files without a record and records without a file (a stop in the middle of an upload); unfinished queries fail. */
  reconcile(now: number): void {
    const known = new Set(this.db.all<{ storage_name: string }>('SELECT storage_name FROM sandbox_tables').map((r) => r.storage_name));
    const onDisk = new Set(fs.readdirSync(this.dir));
    for (const name of onDisk) if (!known.has(name)) fs.rmSync(path.join(this.dir, name), { force: true, recursive: true });
    for (const name of known) if (!onDisk.has(name)) this.db.run('DELETE FROM sandbox_tables WHERE storage_name = ?', [name]);
    this.db.run("UPDATE sandbox_table_queries SET status = 'FAILURE', error = ?, updated_ms = ? WHERE status IN ('PENDING', 'STARTED')", [
      'The sandbox stopped while this query ran; run it again.', now,
    ]);
  }

  /** Every table the organization sees: the demo tables, then its own by name. */
  list(orgId: string): TableInfo[] {
    const own = this.db.all<TableRow>('SELECT * FROM sandbox_tables WHERE org_id = ? ORDER BY name_key', [orgId]).map(toInfo);
    return [...DEMO_INFOS, ...own];
  }

  /** One table by name (case-insensitive), or undefined when the organization has none so named. */
  find(orgId: string, name: string): TableInfo | undefined {
    const demo = DEMO_INFOS.find((t) => nameKey(t.name) === nameKey(name));
    if (demo) return demo;
    const row = this.db.get<TableRow>('SELECT * FROM sandbox_tables WHERE org_id = ? AND name_key = ?', [orgId, nameKey(name)]);
    return row ? toInfo(row) : undefined;
  }

  /** Records an uploaded table whose CSV is already at `storageName` in {@link dir}. */
  add(orgId: string, table: { id: string; name: string; storageName: string; withHeaders: boolean; columns: UploadedColumn[]; rowCount: number }, now: number): void {
    this.db.run(
      'INSERT INTO sandbox_tables (id, org_id, name, name_key, storage_name, with_headers, columns, row_count, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [table.id, orgId, table.name, nameKey(table.name), table.storageName, table.withHeaders ? 1 : 0, JSON.stringify(table.columns), table.rowCount, now, now],
    );
  }

  /** Forgets an uploaded table and removes its file. */
  remove(orgId: string, table: TableInfo): void {
    if (!table.uploaded) return;
    this.db.run('DELETE FROM sandbox_tables WHERE org_id = ? AND id = ?', [orgId, table.uploaded.id]);
    fs.rmSync(path.join(this.dir, table.uploaded.storageName), { force: true });
  }

  /** What the organization's queries see. */
  scope(orgId: string): QueryScope {
    const tables = this.list(orgId).flatMap((t) =>
      t.uploaded
        ? [{ name: t.name, file: path.join(this.dir, t.uploaded.storageName), withHeaders: t.uploaded.withHeaders, columns: t.columns, version: t.uploaded.storageName }]
        : [],
    );
    return { orgId, tables };
  }
}

function toInfo(row: TableRow): TableInfo {
  return {
    name: row.name,
    columns: JSON.parse(row.columns) as UploadedColumn[],
    uploaded: { id: row.id, storageName: row.storage_name, withHeaders: row.with_headers === 1, rowCount: row.row_count, updatedMs: row.updated_ms },
  };
}
