// The tables API of the sandbox: list, describe, preview, delete, CSV upload, and queries
// (tableQueries.ts). Bad names are answered 400 with a bare array of messages, unknown ones 404, like
// the live service; an organization sees the demo tables and its own uploads, never another's.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { requireOrganization } from '../access';
import { type Handler, type RequestContext, noContent, ok } from '../context';
import { mediaType } from '../http/body';
import { HttpError, Msg, forbidden, validationError } from '../http/errors';
import { type ReceivedFile, receiveMultipart } from '../http/multipart';
import type { Router } from '../http/router';
import { TABLE_NAME_MAX, tableNameProblem } from '../../core/tables/tableNames';
import { moveFileDurablyAsync } from '../store/persistence';
import { iso, newId } from '../util';
import { CsvProblem, scanCsv } from './csvFile';
import { quoteName, reservedNameProblem } from '../query/identifiers';
import { submitTableQuery, tableQueryResult } from './tableQueries';
import type { TableInfo } from './tableStore';
import { rowsOf } from './tableValues';

const PREVIEW_LIMIT = { min: 0, max: 50, default: 3 };
const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/** The table a path names, in the caller's organization: 400 (bare array) for a bad name, 404 for none. */
function tableOf(ctx: RequestContext, orgId: string): TableInfo {
  const name = ctx.params.table_name ?? '';
  const problem = tableNameProblem(name);
  if (problem) throw new HttpError(400, [`Invalid table name "${name.slice(0, 200)}": ${problem}`]);
  const table = ctx.app.tables.find(orgId, name);
  if (!table) throw new HttpError(404, { detail: `Table ${name} not found.` });
  return table;
}

/** GET /v1/tables/: `{results: [{name, columns}], total}`, not paged. */
const list: Handler = (ctx) => {
  const orgId = requireOrganization(ctx);
  const results = ctx.app.tables.list(orgId).map((t) => ({ name: t.name, columns: t.columns }));
  return ok({ results, total: results.length });
};

/** GET /v1/tables/{name}/describe/: columns, row count, last change (null for the demo tables). */
const describe: Handler = async (ctx) => {
  const orgId = requireOrganization(ctx);
  const table = tableOf(ctx, orgId);
  const rowCount = table.uploaded ? table.uploaded.rowCount : await countRows(ctx, orgId, table);
  return ok({ table_name: table.name, columns: table.columns, row_count: rowCount, updated_at: table.uploaded ? iso(table.uploaded.updatedMs) : null });
};

async function countRows(ctx: RequestContext, orgId: string, table: TableInfo): Promise<number | null> {
  const outcome = await ctx.app.queries.run(`SELECT count(*) FROM ${quoteName(table.name)}`, { maxRows: 1, scope: ctx.app.tables.scope(orgId) });
  const value = outcome.status === 'SUCCESS' ? outcome.results[0]?.result_rows[0]?.[0] : undefined;
  // "When available": a count the engine could not give is null, not an error.
  return value === undefined || value === null ? null : Number(value);
}

/** GET /v1/tables/{name}/preview/?limit=0..50 (default 3): columns and the first rows. */
const preview: Handler = async (ctx) => {
  const orgId = requireOrganization(ctx);
  const limit = ctx.query.int('limit', PREVIEW_LIMIT) ?? PREVIEW_LIMIT.default;
  ctx.query.finish();
  const table = tableOf(ctx, orgId);
  let rows: Record<string, unknown>[] = [];
  if (limit > 0) {
    const outcome = await ctx.app.queries.run(`SELECT * FROM ${quoteName(table.name)} LIMIT ${limit}`, { maxRows: limit, scope: ctx.app.tables.scope(orgId) });
    if (outcome.status === 'FAILURE') throw new HttpError(500, { detail: `The table could not be read: ${outcome.error}` });
    const [first] = outcome.results;
    if (first) rows = rowsOf(first).rows;
  }
  return ok({ table_name: table.name, columns: table.columns, rows, row_count: rows.length });
};

/** DELETE /v1/tables/{name}/: 204; the demo tables are shared by every organization and stay. */
const destroy: Handler = (ctx) => {
  const orgId = requireOrganization(ctx);
  const table = tableOf(ctx, orgId);
  if (!table.uploaded) throw forbidden(`${table.name} is a demo table shared by every organization of the sandbox; it cannot be deleted.`);
  ctx.app.tables.remove(orgId, table);
  return noContent();
};

/**
 * POST /v1/tables/upload/ (multipart: `file`, `table_name`, `with_headers`): the CSV is stored as it
 * streams in, read once to name and type its columns, then recorded; it is queryable at once (the
 * query worker loads it on the organization's next query). 201 `{table_name, organization_id, summary}`.
 */
const upload: Handler = async (ctx) => {
  if (mediaType(ctx.req) !== 'multipart/form-data') {
    ctx.req.resume();
    throw new HttpError(415, { detail: `Unsupported media type "${mediaType(ctx.req) || 'none'}" in request; send multipart/form-data.` });
  }
  const dir = ctx.app.tables.dir;
  const form = await receiveMultipart(ctx.req, { tempDir: dir, maxFileBytes: ctx.app.limits.uploadBytes, maxFiles: 1 });
  const file = form.files.find((f) => f.field === 'file');
  try {
    const orgId = requireOrganization(ctx, form.fields.get('organization_id'));
    const { name, withHeaders } = readForm(form.fields, file);
    const problem = tableNameProblem(name) ?? reservedNameProblem(name);
    if (problem) throw new HttpError(400, [`Invalid table name "${name}": ${problem}`]);
    if (ctx.app.tables.find(orgId, name)) throw new HttpError(400, [`A table named ${name} already exists.`]);
    const shape = await scan(file!, withHeaders);
    const storageName = `${newId()}.csv`;
    const stored = path.join(dir, storageName);
    await moveFileDurablyAsync(file!.tempPath, stored);
    // Checked again: another upload of the same name may have finished while this file was read and stored.
    if (ctx.app.tables.find(orgId, name)) {
      fs.rmSync(stored, { force: true });
      throw new HttpError(400, [`A table named ${name} already exists.`]);
    }
    ctx.app.tables.add(orgId, { id: newId(), name, storageName, withHeaders, columns: shape.columns, rowCount: shape.rowCount }, ctx.app.now());
    const summary = { read_rows: shape.rowCount + (withHeaders ? 1 : 0), read_bytes: file!.size, written_rows: shape.rowCount, written_bytes: file!.size, columns: shape.columns };
    return ok({ table_name: name, organization_id: orgId, summary }, 201);
  } finally {
    for (const received of form.files) fs.rmSync(received.tempPath, { force: true });
  }
};

/** The form's fields as DRF's serializer checks them (field errors as a map). */
function readForm(fields: Map<string, string>, file: ReceivedFile | undefined): { name: string; withHeaders: boolean } {
  const errors: Record<string, string[]> = {};
  const name = fields.get('table_name')?.trim() ?? '';
  if (!fields.has('table_name')) errors.table_name = [Msg.required];
  else if (name === '') errors.table_name = [Msg.blank];
  else if (name.length > TABLE_NAME_MAX) errors.table_name = [Msg.maxLength(TABLE_NAME_MAX)];
  const headersText = fields.get('with_headers')?.trim().toLowerCase();
  let withHeaders = true;
  if (headersText !== undefined && headersText !== '') {
    if (TRUE_WORDS.has(headersText)) withHeaders = true;
    else if (FALSE_WORDS.has(headersText)) withHeaders = false;
    else errors.with_headers = [Msg.boolean];
  }
  if (!file) errors.file = ['No file was submitted.'];
  else if (file.size === 0) errors.file = ['The submitted file is empty.'];
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return { name, withHeaders };
}

async function scan(file: ReceivedFile, withHeaders: boolean) {
  try {
    return await scanCsv(file.tempPath, withHeaders);
  } catch (error) {
    if (error instanceof CsvProblem) throw new HttpError(400, [error.message]);
    throw error;
  }
}

/** Registers the tables routes; the fixed paths come before `{table_name}` so they are never read as names. */
export function registerTableRoutes(router: Router<Handler>): void {
  router
    .add('GET', '/v1/tables/', list)
    .add('POST', '/v1/tables/query/', submitTableQuery)
    .add('GET', '/v1/tables/query/{table_query_id}/result/', tableQueryResult)
    .add('POST', '/v1/tables/upload/', upload)
    .add('GET', '/v1/tables/{table_name:text}/describe/', describe)
    .add('GET', '/v1/tables/{table_name:text}/preview/', preview)
    .add('DELETE', '/v1/tables/{table_name:text}/', destroy);
}
