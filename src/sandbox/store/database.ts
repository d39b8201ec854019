import type { Database, SqlValue, Statement } from 'sql.js';

export type SqlParams = SqlValue[];
export type Row = Record<string, SqlValue>;

/** Prepared statements kept; filters build many SQL variants, so the cache is bounded (least recently used goes). */
const STATEMENT_CACHE_SIZE = 256;

/**
 * The sandbox's SQLite database (sql.js): cached prepared statements, nested-safe transactions,
 * and a change hook so that a file-backed store can schedule a write after every change.
 */
export class SandboxDb {
  private readonly statements = new Map<string, Statement>();
  private transactionDepth = 0;
  private closed = false;

  constructor(
    private readonly raw: Database,
    private readonly onChange: () => void = () => {},
  ) {
    // SQLite's lower() folds ASCII only; searches fold case with JavaScript's rules (é, Ä, ...).
    raw.create_function('fold_case', (text: unknown) => (typeof text === 'string' ? text.toLowerCase() : text));
  }

  /** All rows of a query, as objects keyed by column name. */
  all<T = Row>(sql: string, params: SqlParams = []): T[] {
    const statement = this.prepare(sql);
    try {
      statement.bind(params);
      const rows: T[] = [];
      while (statement.step()) rows.push(statement.getAsObject() as T);
      return rows;
    } finally {
      statement.reset();
    }
  }

  /** The first row of a query, or undefined. */
  get<T = Row>(sql: string, params: SqlParams = []): T | undefined {
    const statement = this.prepare(sql);
    try {
      statement.bind(params);
      return statement.step() ? (statement.getAsObject() as T) : undefined;
    } finally {
      statement.reset();
    }
  }

  /** The first column of the first row, or undefined. */
  value(sql: string, params: SqlParams = []): SqlValue | undefined {
    const statement = this.prepare(sql);
    try {
      statement.bind(params);
      return statement.step() ? statement.get()[0] : undefined;
    } finally {
      statement.reset();
    }
  }

  /** Runs a writing statement. */
  run(sql: string, params: SqlParams = []): void {
    const statement = this.prepare(sql);
    try {
      statement.run(params);
    } finally {
      statement.reset();
    }
    this.changed();
  }

  /** Runs several statements without parameters (schema, pragmas). */
  exec(sql: string): void {
    this.raw.exec(sql);
    this.changed();
  }

  /** The rowid of the last insert. */
  lastInsertId(): number {
    return Number(this.value('SELECT last_insert_rowid()'));
  }

  /** Runs `work` in one transaction (joined when already inside one); rolls back when it throws. */
  transaction<T>(work: () => T): T {
    if (this.transactionDepth > 0) return work();
    this.raw.exec('BEGIN');
    this.transactionDepth++;
    try {
      const result = work();
      this.raw.exec('COMMIT');
      return result;
    } catch (error) {
      this.raw.exec('ROLLBACK');
      throw error;
    } finally {
      this.transactionDepth--;
      this.changed();
    }
  }

  /** The whole database as SQLite file bytes. */
  export(): Uint8Array {
    return this.raw.export();
  }

  /** Frees the statements and the database; later calls throw. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const statement of this.statements.values()) statement.free();
    this.statements.clear();
    this.raw.close();
  }

  private prepare(sql: string): Statement {
    if (this.closed) throw new Error('The sandbox database is closed.');
    const cached = this.statements.get(sql);
    if (cached) {
      // Re-insert to mark it as recently used.
      this.statements.delete(sql);
      this.statements.set(sql, cached);
      return cached;
    }
    const statement = this.raw.prepare(sql);
    this.statements.set(sql, statement);
    if (this.statements.size > STATEMENT_CACHE_SIZE) {
      const [oldestSql, oldest] = this.statements.entries().next().value as [string, Statement];
      this.statements.delete(oldestSql);
      oldest.free();
    }
    return statement;
  }

  private changed(): void {
    if (this.transactionDepth === 0) this.onChange();
  }
}
