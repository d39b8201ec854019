import * as fs from 'node:fs';
import * as path from 'node:path';
import { found, optionalOrganization } from '../access';
import { type Handler, noContent, ok } from '../context';
import { assertPageExists, envelope, readPage } from '../http/pagination';
import type { Router } from '../http/router';
import { orderBySql } from '../store/ordering';
import { personalDatasetPk } from '../users';
import { containsPattern } from '../util';
import { DATASET_SELECT, type DatasetFileRow, type DatasetRow, FILE_SELECT, datasetFileObject, datasetObject, findVisibleDataset } from './datasetStore';
import { upload } from './upload';

const DATASET_ORDERINGS: Record<string, string> = { name: 'd.name COLLATE NOCASE', created_at: 'd.created_ms' };
const FILE_ORDERINGS: Record<string, string> = { name: 'f.name COLLATE NOCASE', created_at: 'f.created_ms', size: 'f.size' };

/**
 * GET /v1/datasets/: the organization's datasets, or without `organization_id` the caller's personal
 * dataset; `search` matches the dataset name or its creator's name or email.
 */
const list: Handler = (ctx) => {
  const orgId = optionalOrganization(ctx);
  const { query, app } = ctx;
  const page = readPage(query);
  const search = query.string('search', 500);
  const ordering = query.ordering(Object.keys(DATASET_ORDERINGS));
  query.finish();
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (orgId !== undefined) {
    where.push('d.org_id = ?');
    params.push(orgId);
  } else {
    personalDatasetPk(app.db, ctx.user.id, app.now());
    where.push('d.org_id IS NULL AND d.owner_user_id = ?');
    params.push(ctx.user.id);
  }
  if (search !== undefined) {
    where.push(`(lower(d.name) LIKE ? ESCAPE '\\' OR lower(coalesce(u.first_name || ' ' || u.last_name, '')) LIKE ? ESCAPE '\\'
      OR lower(coalesce(u.email, '')) LIKE ? ESCAPE '\\')`);
    params.push(...Array.from({ length: 3 }, () => containsPattern(search)));
  }
  const whereSql = where.join(' AND ');
  const count = Number(app.db.value(`SELECT COUNT(*) FROM datasets d LEFT JOIN users u ON u.id = d.creator_id WHERE ${whereSql}`, params));
  assertPageExists(page, count);
  const order = orderBySql(ordering.length > 0 ? ordering : [{ field: 'name', descending: false }], DATASET_ORDERINGS, 'd.pk');
  const rows = app.db.all<DatasetRow>(`${DATASET_SELECT} WHERE ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?`, [...params, page.pageSize, page.offset]);
  return ok(envelope(ctx.req, ctx.url, page, count, rows.map(datasetObject)));
};

/** GET /v1/datasets/{dataset_id}/files/ (our decision): paged files, newest first; `search` over names. */
const listFiles: Handler = (ctx) => {
  const orgId = optionalOrganization(ctx);
  const { query, app } = ctx;
  const dataset = found(findVisibleDataset(app.db, ctx.user, orgId, ctx.params.dataset_id!));
  const page = readPage(query);
  const search = query.string('search', 500);
  const ordering = query.ordering(Object.keys(FILE_ORDERINGS));
  query.finish();
  const where = ['f.dataset_pk = ?'];
  const params: (string | number)[] = [dataset.pk];
  if (search !== undefined) {
    where.push("lower(f.name) LIKE ? ESCAPE '\\'");
    params.push(containsPattern(search));
  }
  const whereSql = where.join(' AND ');
  const count = Number(app.db.value(`SELECT COUNT(*) FROM dataset_files f WHERE ${whereSql}`, params));
  assertPageExists(page, count);
  const order = orderBySql(ordering.length > 0 ? ordering : [{ field: 'created_at', descending: true }], FILE_ORDERINGS, 'f.pk');
  const rows = app.db.all<DatasetFileRow>(`${FILE_SELECT} WHERE ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?`, [...params, page.pageSize, page.offset]);
  return ok(envelope(ctx.req, ctx.url, page, count, rows.map((r) => datasetFileObject(r, dataset))));
};

/** DELETE /v1/datasets/{dataset_id}/files/{id}/: removes the row and the stored bytes; 204. */
const removeFile: Handler = (ctx) => {
  const orgId = optionalOrganization(ctx);
  const { db } = ctx.app;
  const dataset = found(findVisibleDataset(db, ctx.user, orgId, ctx.params.dataset_id!));
  const file = found(db.get<DatasetFileRow>(`${FILE_SELECT} WHERE f.dataset_pk = ? AND f.id = ?`, [dataset.pk, ctx.params.id!]));
  db.run('DELETE FROM dataset_files WHERE pk = ?', [file.pk]);
  fs.rmSync(path.join(ctx.app.filesDir, file.storage_name), { force: true });
  return noContent();
};

/** Registers the dataset routes. */
export function registerDatasetRoutes(router: Router<Handler>): void {
  router
    .add('GET', '/v1/datasets/', list)
    .add('POST', '/v1/datasets/files/upload/', upload)
    .add('GET', '/v1/datasets/{dataset_id}/files/', listFiles)
    .add('DELETE', '/v1/datasets/{dataset_id}/files/{id}/', removeFile);
}
