/** Datasets, their files, and uploads (interface 4.8, 4.10, 4.12; our files-list decision). */
import * as path from 'node:path';
import { datasetFilesPath } from '../../serviceDecisions';
import { LocalFileError, statLocalFile } from '../../uploads/localFile';
import type { Gateway } from '../gateway';
import { multipartBody } from '../multipart';
import { seg, type Query } from '../query';
import { DatasetFilePageSchema, DatasetFileSchema, DatasetPageSchema, type Dataset, type DatasetFile } from '../schemas/datasets';
import type { CallOptions, Page, WriteOptions } from '../types';
import { fetchItems, fetchPage, fetchPages, type PagedEndpoint } from './paging';

export type ListDatasetsParams = {
  page?: number;
  page_size?: number;
  search?: string;
  /** The user's personal datasets: `organization_id` is left out. */
  personal?: boolean;
};

export type ListDatasetFilesParams = {
  page?: number;
  page_size?: number;
  search?: string;
  /** The dataset is a personal one: `organization_id` is left out. */
  personal?: boolean;
};

export interface UploadFileParams {
  filePath: string;
  /** Defaults to the file's own name. */
  fileName?: string;
  datasetId?: string;
  /** Upload to the personal dataset: `organization_id` is left out of query and form. */
  personal?: boolean;
  /** Sent as JSON text in the `metadata` form field. */
  metadata?: unknown;
  /** Bytes of the request body the service has taken so far, of the total. */
  onProgress?: (sentBytes: number, totalBytes: number) => void;
}

export interface DeleteFileOptions extends WriteOptions {
  /** The dataset is a personal one: `organization_id` is left out. */
  personal?: boolean;
}

const withoutPersonal = ({ personal: _personal, ...query }: { personal?: boolean }): Query => query;
const DATASETS: PagedEndpoint<Dataset, ListDatasetsParams> = {
  operation: 'listDatasets',
  schema: DatasetPageSchema,
  personal: (params) => params.personal === true,
  query: withoutPersonal,
};
const FILES: PagedEndpoint<DatasetFile, ListDatasetFilesParams> = {
  operation: 'listDatasetFiles',
  schema: DatasetFilePageSchema,
  personal: (params) => params.personal === true,
  query: withoutPersonal,
  feature: 'listing the files of a dataset',
};

/** Datasets and their files. */
export class DatasetsApi {
  constructor(private readonly gateway: Gateway) {}

  /** One page of datasets (the organization's, or the personal ones). */
  list(params: ListDatasetsParams = {}, opts?: CallOptions): Promise<Page<Dataset>> {
    return fetchPage(this.gateway, DATASETS, '/v1/datasets/', params, opts);
  }

  /** Every page of datasets. */
  pages(params: ListDatasetsParams = {}, opts?: CallOptions): AsyncGenerator<Page<Dataset>, void, undefined> {
    return fetchPages(this.gateway, DATASETS, '/v1/datasets/', params, opts);
  }

  /** Every dataset. */
  items(params: ListDatasetsParams = {}, opts?: CallOptions): AsyncGenerator<Dataset, void, undefined> {
    return fetchItems(this.gateway, DATASETS, '/v1/datasets/', params, opts);
  }

  /** One page of a dataset's files; `unsupported` when the server has no such list. */
  listFiles(datasetId: string, params: ListDatasetFilesParams = {}, opts?: CallOptions): Promise<Page<DatasetFile>> {
    return fetchPage(this.gateway, FILES, datasetFilesPath(datasetId), params, opts);
  }

  /** Every page of a dataset's files. */
  filePages(datasetId: string, params: ListDatasetFilesParams = {}, opts?: CallOptions): AsyncGenerator<Page<DatasetFile>, void, undefined> {
    return fetchPages(this.gateway, FILES, datasetFilesPath(datasetId), params, opts);
  }

  /** Every file of a dataset. */
  fileItems(datasetId: string, params: ListDatasetFilesParams = {}, opts?: CallOptions): AsyncGenerator<DatasetFile, void, undefined> {
    return fetchItems(this.gateway, FILES, datasetFilesPath(datasetId), params, opts);
  }

  /** Streams a file from disk into a dataset (or the personal dataset). */
  async upload(params: UploadFileParams, opts?: WriteOptions): Promise<DatasetFile> {
    const stat = await statLocalFile(params.filePath);
    if (!stat.isFile) throw new LocalFileError(params.filePath, Object.assign(new Error('not a file'), { code: 'EISDIR' }));
    const organizationId = params.personal ? undefined : this.gateway.organizationId;
    const fields: Array<[string, string]> = [];
    if (params.datasetId) fields.push(['dataset_id', params.datasetId]);
    if (organizationId) fields.push(['organization_id', organizationId]);
    if (params.metadata !== undefined) fields.push(['metadata', JSON.stringify(params.metadata)]);
    const file = { field: 'file', filePath: params.filePath, fileName: params.fileName ?? path.basename(params.filePath), size: stat.size };
    const stream = multipartBody(fields, file, params.onProgress);
    const call = { operation: 'uploadDatasetFile', method: 'POST', path: '/v1/datasets/files/upload/', stream, schema: DatasetFileSchema } as const;
    // The personal dataset has no id: it is the user's own.
    return this.gateway.send({ ...call, personal: params.personal, target: { kind: 'dataset', id: params.datasetId ?? 'personal' }, ground: opts?.ground }, opts?.signal);
  }

  /** Deletes one file of a dataset. */
  deleteFile(datasetId: string, fileId: string, opts?: DeleteFileOptions): Promise<void> {
    const path = `/v1/datasets/${seg(datasetId)}/files/${seg(fileId)}/`;
    return this.gateway.send({ operation: 'deleteDatasetFile', method: 'DELETE', path, schema: null, personal: opts?.personal, target: { kind: 'dataset', id: datasetId }, ground: opts?.ground }, opts?.signal);
  }
}
