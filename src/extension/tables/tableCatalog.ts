import * as vscode from 'vscode';
import type { Table } from '../../core/client';
import { SqlCatalog } from '../../core/sql/sqlCatalog';
import type { Connection } from '../connection/connection';
import { Disposable } from '../util/disposable';

/** The last list answer: the tables, or why there are none. */
export type CatalogState = { kind: 'loaded'; tables: Table[]; sql: SqlCatalog } | { kind: 'error'; error: unknown };

/**
 * The organization's tables, read once and shared by the Tables view and SQL editing (completion,
 * hover, unknown-table squiggles). Read again when the connection changes or after an upload or delete.
 */
export class TableCatalog extends Disposable {
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private loading: Promise<CatalogState> | undefined;
  private last: CatalogState | undefined;

  constructor(private readonly connection: Connection) {
    super();
    this.register(connection.onDidChange(() => this.invalidate()));
  }

  /** The tables (one request shared by every caller until it is invalidated). */
  load(): Promise<CatalogState> {
    this.loading ??= this.read();
    return this.loading;
  }

  /** The catalog for SQL editing, or undefined while not connected or when the list failed. */
  async sqlCatalog(): Promise<SqlCatalog | undefined> {
    if (this.connection.state.kind !== 'connected') return undefined;
    const state = await this.load();
    return state.kind === 'loaded' ? state.sql : undefined;
  }

  /** The last answer without waiting (undefined before the first). */
  get current(): CatalogState | undefined {
    return this.last;
  }

  /** Forgets the list; the next use reads it again. */
  invalidate(): void {
    this.loading = undefined;
    this.changed.fire();
  }

  private async read(): Promise<CatalogState> {
    try {
      const list = await this.connection.requireClient().tables.list();
      const tables = list.results;
      this.last = { kind: 'loaded', tables, sql: new SqlCatalog(tables.map((t) => ({ name: t.name, columns: (t.columns ?? []).map((c) => ({ name: c.name, type: c.type ?? '' })) }))) };
    } catch (error) {
      this.last = { kind: 'error', error };
      // A failed read is not kept: the next use (Retry, a new completion) asks again.
      this.loading = undefined;
    }
    return this.last;
  }
}
