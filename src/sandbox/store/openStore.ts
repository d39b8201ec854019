import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadSqlite } from '../sqlite';
import { SandboxDb } from './database';
import { DatabaseFileWriter, lockDataDir } from './persistence';
import { ADDED_COLUMNS, INDEXES_SQL, SCHEMA_VERSION, TABLES_SQL } from './schema';
import { makeTempFolder, removeAbandonedTempFolders } from './tempFolders';

export const DATABASE_FILE = 'sandbox.sqlite';

/** An open store: the database, where uploaded bytes live, and how to persist and release it. */
export interface Store {
  db: SandboxDb;
  /** True when the database was just created (seeds apply only then). */
  isNew: boolean;
  /** Folder of uploaded files (inside the data folder, or a temporary folder in memory mode). */
  filesDir: string;
  /** Writes the database file now (no-op in memory). */
  flush(): void;
  /** Flushes, frees the database and releases the folder. */
  close(): void;
}

export interface OpenStoreOptions {
  dataDir?: string;
  memory: boolean;
  log: (line: string) => void;
  /** Fills a new database (seeds) after its tables exist and before its indexes are built. */
  initialize: (db: SandboxDb, filesDir: string) => void;
}

/** Opens the store in `dataDir` (created if needed), or in memory with a temporary files folder. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const SQL = await loadSqlite();
  if (options.memory || !options.dataDir) {
    removeAbandonedTempFolders();
    const { root, filesDir } = makeTempFolder();
    const db = new SandboxDb(new SQL.Database());
    try {
      createNew(db, filesDir, options.initialize);
    } catch (error) {
      db.close();
      fs.rmSync(root, { recursive: true, force: true });
      throw error;
    }
    return {
      db,
      isNew: true,
      filesDir,
      flush: () => {},
      close: () => {
        db.close();
        fs.rmSync(root, { recursive: true, force: true });
      },
    };
  }
  const dataDir = path.resolve(options.dataDir);
  const filesDir = path.join(dataDir, 'files');
  fs.mkdirSync(filesDir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  try {
    const file = path.join(dataDir, DATABASE_FILE);
    const existing = fs.existsSync(file) ? fs.readFileSync(file) : undefined;
    // eslint-disable-next-line prefer-const -- the change callback below reads it before it is assigned
    let writer: DatabaseFileWriter | undefined;
    const db = new SandboxDb(openDatabase(SQL, existing, file), () => writer?.changed());
    if (!existing) createNew(db, filesDir, options.initialize);
    else checkSchemaVersion(db, file);
    // Assigned only now: opening an existing file is not a change worth rewriting it for.
    writer = new DatabaseFileWriter(file, () => db.export(), options.log);
    if (!existing) {
      writer.changed();
      writer.flush();
    }
    return {
      db,
      isNew: !existing,
      filesDir,
      flush: () => writer?.flush(),
      close: () => {
        try {
          writer?.flush();
        } finally {
          db.close();
          unlock();
        }
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

function openDatabase(SQL: Awaited<ReturnType<typeof loadSqlite>>, bytes: Buffer | undefined, file: string) {
  try {
    const raw = new SQL.Database(bytes);
    raw.exec('SELECT count(*) FROM sqlite_master');
    return raw;
  } catch (error) {
    throw new Error(`${file} is not a sandbox database (${(error as Error).message}); move it away or choose another data folder.`);
  }
}

function createNew(db: SandboxDb, filesDir: string, initialize: OpenStoreOptions['initialize']): void {
  db.exec(TABLES_SQL);
  db.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', ['schema_version', String(SCHEMA_VERSION)]);
  initialize(db, filesDir);
  db.exec(INDEXES_SQL);
}

function checkSchemaVersion(db: SandboxDb, file: string): void {
  const found = db.value("SELECT value FROM meta WHERE key = 'schema_version'");
  if (found !== String(SCHEMA_VERSION)) {
    throw new Error(`${file} has schema version ${String(found)}, this sandbox needs ${SCHEMA_VERSION}; start with another data folder.`);
  }
  for (const [table, column, type] of ADDED_COLUMNS) {
    const columns = db.all<{ name: string }>(`PRAGMA table_info(${table})`);
    if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
  // Indexes added in later releases of the same schema version.
  db.exec(INDEXES_SQL);
}
