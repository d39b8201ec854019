import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AuthUser } from '../context';
import { PART_PREFIX } from '../http/multipart';
import type { SandboxDb } from '../store/database';
import { CREATOR_COLUMNS, creatorObject, uploaderObject } from '../users';
import { iso, newId, parseJson } from '../util';

/** A dataset row with its creator columns. */
export interface DatasetRow {
  pk: number;
  id: string;
  org_id: string | null;
  owner_user_id: number | null;
  name: string;
  created_ms: number;
  file_count: number;
  u_id: number | null;
  u_email: string | null;
  u_first: string | null;
  u_last: string | null;
  u_active: number | null;
}

/** A dataset file row with the uploader's columns. */
export interface DatasetFileRow {
  pk: number;
  id: string;
  dataset_pk: number;
  name: string;
  size: number;
  storage_name: string;
  metadata: string | null;
  created_ms: number;
  u_id: number | null;
  u_email: string | null;
  u_first: string | null;
  u_last: string | null;
  u_active: number | null;
}

export const DATASET_SELECT = `SELECT d.pk, d.id, d.org_id, d.owner_user_id, d.name, d.created_ms,
  (SELECT COUNT(*) FROM dataset_files f WHERE f.dataset_pk = d.pk) AS file_count, ${CREATOR_COLUMNS}
  FROM datasets d LEFT JOIN users u ON u.id = d.creator_id`;
export const FILE_SELECT = `SELECT f.pk, f.id, f.dataset_pk, f.name, f.size, f.storage_name, f.metadata, f.created_ms, ${CREATOR_COLUMNS}
  FROM dataset_files f LEFT JOIN users u ON u.id = f.creator_id`;

/**
 * A dataset the caller may use: one of the organization named by `organization_id`, or the
 * caller's own personal dataset. Anything else (another organization's, another user's personal
 * dataset) is not found.
 */
export function findVisibleDataset(db: SandboxDb, user: AuthUser, orgId: string | undefined, datasetId: string): DatasetRow | undefined {
  const row = db.get<DatasetRow>(`${DATASET_SELECT} WHERE d.id = ?`, [datasetId]);
  if (!row) return undefined;
  const inOrg = orgId !== undefined && row.org_id === orgId;
  const personal = row.org_id === null && row.owner_user_id === user.id;
  return inOrg || personal ? row : undefined;
}

/** A dataset by pk. */
export function datasetByPk(db: SandboxDb, pk: number): DatasetRow {
  return db.get<DatasetRow>(`${DATASET_SELECT} WHERE d.pk = ?`, [pk])!;
}

/** The dataset object of lists: creator with display name, owning organization (null when personal). */
export function datasetObject(row: DatasetRow): Record<string, unknown> {
  return { id: row.id, name: row.name, creator: creatorObject(row), created_at: iso(row.created_ms), organization: row.org_id, file_count: row.file_count };
}

/** The dataset file object (as the upload answers it: creator with `is_active`). */
export function datasetFileObject(row: DatasetFileRow, dataset: DatasetRow): Record<string, unknown> {
  return {
    id: row.id,
    dataset: datasetObject(dataset),
    name: row.name,
    size: row.size,
    creator: uploaderObject(row),
    created_at: iso(row.created_ms),
    metadata: parseJson(row.metadata),
  };
}

/**
 * The dataset an upload with `organization_id` and no `dataset_id` goes to: the organization's
 * "Uploads" dataset, created on first use. (The interface only says that without an organization
 * the file goes to the personal dataset; sending it to a per-organization inbox is our choice, so
 * that such an upload is neither refused nor silently made personal.)
 */
export function organizationUploadsDatasetPk(db: SandboxDb, orgId: string, userId: number, nowMs: number): number {
  const found = db.value("SELECT pk FROM datasets WHERE org_id = ? AND name = 'Uploads' ORDER BY pk LIMIT 1", [orgId]);
  if (typeof found === 'number') return found;
  db.run('INSERT INTO datasets (id, org_id, owner_user_id, name, created_ms, creator_id) VALUES (?, ?, NULL, ?, ?, ?)', [
    newId(), orgId, 'Uploads', nowMs, userId,
  ]);
  return db.lastInsertId();
}

/**
 * Brings the files folder and the table back in line after an unclean stop: removes debris of
 * interrupted uploads, files no row names, and rows whose file is gone. Answers what it removed.
 */
export function reconcileFiles(db: SandboxDb, filesDir: string): { files: number; rows: number } {
  const known = new Set(db.all<{ storage_name: string }>('SELECT storage_name FROM dataset_files').map((r) => r.storage_name));
  const onDisk = new Set(fs.readdirSync(filesDir));
  let files = 0;
  for (const name of onDisk) {
    if (name.startsWith(PART_PREFIX) || !known.has(name)) {
      fs.rmSync(path.join(filesDir, name), { force: true, recursive: true });
      files++;
    }
  }
  const missing = [...known].filter((name) => !onDisk.has(name));
  for (const name of missing) db.run('DELETE FROM dataset_files WHERE storage_name = ?', [name]);
  return { files, rows: missing.length };
}
