import type { SandboxDb } from './store/database';
import { newId } from './util';

/** Columns of the creator join, added to a SELECT as `u.* AS u_*` (see {@link CREATOR_COLUMNS}). */
export const CREATOR_COLUMNS = 'u.id AS u_id, u.email AS u_email, u.first_name AS u_first, u.last_name AS u_last, u.is_active AS u_active';

/** The creator columns of a joined row. */
export interface CreatorRow {
  u_id?: unknown;
  u_email?: unknown;
  u_first?: unknown;
  u_last?: unknown;
  u_active?: unknown;
}

/** The creator object of lists (agents, versions, datasets, jobs): null when there is none. */
export function creatorObject(row: CreatorRow): Record<string, unknown> | null {
  if (typeof row.u_id !== 'number') return null;
  const first = typeof row.u_first === 'string' ? row.u_first : '';
  const last = typeof row.u_last === 'string' ? row.u_last : '';
  return {
    id: row.u_id,
    email: row.u_email,
    display_name: `${first} ${last}`.trim() || String(row.u_email),
    first_name: first,
    last_name: last,
  };
}

/** The creator object of an upload response: id, email, first/last name and `is_active`. */
export function uploaderObject(row: CreatorRow): Record<string, unknown> | null {
  if (typeof row.u_id !== 'number') return null;
  return { id: row.u_id, email: row.u_email, first_name: row.u_first, last_name: row.u_last, is_active: row.u_active === 1 };
}

/** `created_by` of a policy version: id, email and display name. */
export function createdByObject(row: CreatorRow): Record<string, unknown> | null {
  const creator = creatorObject(row);
  return creator ? { id: creator.id, email: creator.email, display_name: creator.display_name } : null;
}

/** Adds a user and answers its id. */
export function insertUser(db: SandboxDb, user: { email: string; firstName: string; lastName: string; id?: number }): number {
  db.run('INSERT INTO users (id, email, first_name, last_name) VALUES (?, ?, ?, ?)', [
    user.id ?? null,
    user.email,
    user.firstName,
    user.lastName,
  ]);
  return db.lastInsertId();
}

/** Adds an organization unless it exists. */
export function ensureOrganization(db: SandboxDb, id: string, name: string, createdMs: number): void {
  db.run('INSERT OR IGNORE INTO organizations (id, name, created_ms) VALUES (?, ?, ?)', [id, name, createdMs]);
}

/** Makes the user a member of exactly these organizations. */
export function setMemberships(db: SandboxDb, userId: number, orgIds: readonly string[]): void {
  db.run('DELETE FROM memberships WHERE user_id = ?', [userId]);
  for (const orgId of orgIds) db.run('INSERT OR IGNORE INTO memberships (user_id, org_id) VALUES (?, ?)', [userId, orgId]);
}

/** The organizations a user belongs to. */
export function membershipsOf(db: SandboxDb, userId: number): Set<string> {
  return new Set(db.all<{ org_id: string }>('SELECT org_id FROM memberships WHERE user_id = ?', [userId]).map((r) => r.org_id));
}

/** The user's personal dataset (created on first need): where uploads without an organization go. */
export function personalDatasetPk(db: SandboxDb, userId: number, nowMs: number): number {
  const found = db.value('SELECT pk FROM datasets WHERE owner_user_id = ? AND org_id IS NULL ORDER BY pk LIMIT 1', [userId]);
  if (typeof found === 'number') return found;
  db.run('INSERT INTO datasets (id, org_id, owner_user_id, name, created_ms, creator_id) VALUES (?, NULL, ?, ?, ?, ?)', [
    newId(),
    userId,
    'Personal',
    nowMs,
    userId,
  ]);
  return db.lastInsertId();
}
