// Names in the SQL the sandbox writes itself: every identifier goes through quoteName, and a name an
// organization chooses is checked against the ones its database already uses.

import { DEMO_INDEXES } from './demoSchema';

/** A name in double quotes, inner quotes doubled: any text (a CSV header cell, a table name) is one identifier. */
export function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Most columns a table may have (SQLite's SQLITE_MAX_COLUMN). */
export const MAX_TABLE_COLUMNS = 2000;

/** Lower-case names of the demo indexes (the demo tables are listed tables: a name they hold "already exists"). */
const TAKEN = new Set(DEMO_INDEXES.map((i) => i.name.toLowerCase()));

/** Why a new table cannot take this name (SQLite's own prefix, a demo index), or undefined when it can. */
export function reservedNameProblem(name: string): string | undefined {
  const key = name.toLowerCase();
  if (key.startsWith('sqlite_')) return 'names starting with "sqlite_" are reserved for the database itself.';
  if (TAKEN.has(key)) return `"${name}" is the name of an index of the demo data every organization shares.`;
  return undefined;
}
