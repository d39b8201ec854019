import { lazyBundle } from '../lazyCore';

/** The shape of `dist/sql.js`: the SQL editing logic of src/core/sql. */
export type SqlEngine = typeof import('../../core/sql/index');

/** Loads the SQL logic the first time a SQL file needs it. */
export const loadSqlEngine = lazyBundle<SqlEngine>('sql.js');
