// Names in the SQL the sandbox writes itself: every identifier goes through quoteName, and a name an
// organization chooses is checked against the ones its database already uses.

import { DEMO_INDEXES, DEMO_TABLES } from './demoSchema';

/** A name in double quotes, inner quotes doubled: any text (a CSV header cell, a table name) is one identifier. */
export function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Most columns a table may have (SQLite's SQLITE_MAX_COLUMN). */
export const MAX_TABLE_COLUMNS = 2000;

/** Lower-case names of what every organization's database holds besides its uploads. */
const TAKEN = new Set([...DEMO_TABLES.map((t) => t.name), ...DEMO_INDEXES.map((i) => i.name)].map((n) => n.toLowerCase()));

/** Why a new table cannot take this name (SQLite's own prefix, a demo table or index), or undefined when it can. */
export function reservedNameProblem(name: string): string | undefined {
  const key = name.toLowerCase();
  if (key.startsWith('sqlite_')) return 'names starting with "sqlite_" are reserved for the database itself.';
  if (TAKEN.has(key)) return `"${name}" is already used by the demo data every organization shares.`;
  return undefined;
}
