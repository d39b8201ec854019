import { randomUUID } from 'node:crypto';
import type { SqlValue } from 'sql.js';

/** A new random UUID (v4), for everything the server creates. */
export function newId(): string {
  return randomUUID();
}

/** Epoch milliseconds as the ISO 8601 date-time text the API returns; null stays null. */
export function iso(ms: SqlValue | undefined): string | null {
  return typeof ms === 'number' ? new Date(ms).toISOString() : null;
}

/** Parses a JSON column; null or empty stays null. */
export function parseJson<T = unknown>(text: SqlValue | undefined): T | null {
  return typeof text === 'string' && text !== '' ? (JSON.parse(text) as T) : null;
}

/** A LIKE pattern matching `text` anywhere, with LIKE's wildcards escaped (use with `ESCAPE '\\'`). */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `?, ?, ?` for an IN list of `n` values. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** Lower-cased text for an agent's `search_text` column (a case-insensitive contains is then one LIKE). */
export function searchText(parts: readonly (string | null | undefined)[]): string {
  return parts
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .join('\n')
    .toLowerCase();
}
