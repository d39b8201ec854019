import type { Database, SqlValue, Statement } from 'sql.js';
import type { JournalEntry } from './journal';

export type SqlParams = SqlValue[];
export type Row = Record<string, SqlValue>;

/** Prepared statements kept; filters build many SQL variants, so the cache is bounded (least recently used goes). */
const STATEMENT_CACHE_SIZE = 256;

/** Receives each committed unit of writes (one statement, or a whole transaction) before it returns. */
export type CommitRecorder = (entries: readonly JournalEntry[]) => void;

/**
 * The sandbox's SQLite database (sql.js): cached prepared statements, nested-safe transactions,
 * a change hook so that a file-backed store can schedule a snapshot after every change, and a
 * recorder that journals every committed write before the caller goes on (and so before it answers).
 */
export class SandboxDb {
  private readonly statements = new Map<string, Statement>();
  private transactionDepth = 0;
  private closed = false;
  private recorder: CommitRecorder | undefined;
  private uncommitted: JournalEntry[] = [];

  constructor(
    private readonly raw: Database,
    private readonly onChange: () => void = () => {},
  ) {
    // Only for journals written by earlier versions, which folded the search text in SQL. New writes
    // fold it before binding (jobInsert.ts): a function's text result goes through sql.js's small stack.
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
    this.runUnrecorded(sql, params);
    this.record([sql, params]);
    this.changed();
  }

  /** Runs several statements without parameters (schema, pragmas). */
  exec(sql: string): void {
    this.raw.exec(sql);
    this.record([sql]);
    this.changed();
  }

  /** Journals every committed write from now on (see journal.ts); undefined stops. */
  recordCommits(recorder: CommitRecorder | undefined): void {
    this.recorder = recorder;
  }

  /**
   * Runs a writing statement (or, without parameters, a script) that is not journaled: replaying the
   * journal, or the store's own bookkeeping.
   */
  runUnrecorded(sql: string, params?: SqlParams): void {
    if (params === undefined) {
      this.raw.exec(sql);
      return;
    }
    const statement = this.prepare(sql);
    try {
      statement.run(params);
    } finally {
      statement.reset();
    }
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
    let result: T;
    try {
      result = work();
      this.raw.exec('COMMIT');
    } catch (error) {
      this.uncommitted = [];
      this.raw.exec('ROLLBACK');
      throw error;
    } finally {
      this.transactionDepth--;
      this.changed();
    }
    const committed = this.uncommitted;
    this.uncommitted = [];
    if (committed.length) this.recorder?.(committed);
    return result;
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

  private record(entry: JournalEntry): void {
    if (!this.recorder) return;
    if (this.transactionDepth > 0) this.uncommitted.push(entry);
    else this.recorder([entry]);
  }

  private changed(): void {
    if (this.transactionDepth === 0) this.onChange();
  }
}
