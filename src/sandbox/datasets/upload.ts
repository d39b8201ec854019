import * as fs from 'node:fs';
import * as path from 'node:path';
import { found, optionalOrganization } from '../access';
import { type Handler, type RequestContext, ok } from '../context';
import { MAX_JSON_DEPTH, mediaType, nestsTooDeep } from '../http/body';
import { HttpError, Msg, fieldError } from '../http/errors';
import { isUuid } from '../http/fields';
import { type MultipartForm, type ReceivedFile, receiveMultipart, fileNameProblem } from '../http/multipart';
import { personalDatasetPk } from '../users';
import { moveFileDurablyAsync } from '../store/persistence';
import { newId } from '../util';
import { type DatasetFileRow, FILE_SELECT, datasetByPk, datasetFileObject, findVisibleDataset, organizationUploadsDatasetPk } from './datasetStore';

/** Bound of a dataset file name (interface section 8). */

/**
 * POST /v1/datasets/files/upload/ (multipart): the `file` part is written to disk as it streams
 * in, under a server-made name. Only when the whole form arrived and every check passed is it
 * moved into place and recorded; otherwise nothing is left behind. The dataset: `dataset_id`
 * (form field or query; must be visible to the caller), else the organization's Uploads dataset
 * when `organization_id` is given, else the caller's personal dataset. 201 with the file.
 */
export const upload: Handler = async (ctx) => {
  if (mediaType(ctx.req) !== 'multipart/form-data') {
    ctx.req.resume();
    throw new HttpError(415, { detail: `Unsupported media type "${mediaType(ctx.req) || 'none'}" in request; send multipart/form-data.` });
  }
  // Query parameters are checked before any byte is stored, so a refused upload costs nothing.
  const queryOrg = optionalOrganization(ctx);
  const queryDataset = readDatasetId(ctx.url.searchParams.get('dataset_id'));
  const form = await receiveMultipart(ctx.req, { tempDir: ctx.app.filesDir, maxFileBytes: ctx.app.limits.uploadBytes, maxFiles: 1 });
  const file = form.files.find((f) => f.field === 'file');
  try {
    return await commit(ctx, form, file, queryOrg ?? optionalOrganization(ctx, form.fields.get('organization_id')), queryDataset);
  } finally {
    for (const received of form.files) fs.rmSync(received.tempPath, { force: true });
  }
};

function readDatasetId(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (!isUuid(value)) throw fieldError('dataset_id', Msg.uuid);
  return value.toLowerCase();
}

async function commit(ctx: RequestContext, form: MultipartForm, file: ReceivedFile | undefined, orgId: string | undefined, queryDataset: string | undefined) {
  const { db } = ctx.app;
  const datasetId = queryDataset ?? readDatasetId(form.fields.get('dataset_id'));
  checkFile(file);
  const metadata = readMetadata(form.fields.get('metadata'));
  if (datasetId) found(findVisibleDataset(db, ctx.user, orgId, datasetId)); // a 404 before anything is stored
  const storageName = newId();
  const target = path.join(ctx.app.filesDir, storageName);
  // The bytes are flushed off the event loop; the dataset is then looked up again and the file recorded
  // with no await between, so nothing can change between that check and the insert.
  await moveFileDurablyAsync(file!.tempPath, target);
  const now = ctx.app.now();
  let datasetPk: number;
  try {
    datasetPk = datasetId
      ? found(findVisibleDataset(db, ctx.user, orgId, datasetId)).pk
      : orgId
        ? organizationUploadsDatasetPk(db, orgId, ctx.user.id, now)
        : personalDatasetPk(db, ctx.user.id, now);
    db.run('INSERT INTO dataset_files (id, dataset_pk, name, size, storage_name, metadata, created_ms, creator_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
      newId(), datasetPk, file!.fileName, file!.size, storageName, metadata === undefined ? null : JSON.stringify(metadata), now, ctx.user.id,
    ]);
  } catch (error) {
    fs.rmSync(target, { force: true });
    throw error;
  }
  const row = db.get<DatasetFileRow>(`${FILE_SELECT} WHERE f.storage_name = ?`, [storageName])!;
  return ok(datasetFileObject(row, datasetByPk(db, datasetPk)), 201);
}

/** The checks DRF's FileField makes: present, named, not empty, name within bounds. */
function checkFile(file: ReceivedFile | undefined): void {
  if (!file) throw fieldError('file', 'No file was submitted.');
  const nameProblem = fileNameProblem(file);
  if (nameProblem) throw fieldError('file', nameProblem);
  if (file.size === 0) throw fieldError('file', 'The submitted file is empty.');
}

function readMetadata(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw fieldError('metadata', 'Value must be valid JSON.');
  }
  if (nestsTooDeep(value)) throw fieldError('metadata', `Value may nest at most ${MAX_JSON_DEPTH} levels deep.`);
  return value;
}
