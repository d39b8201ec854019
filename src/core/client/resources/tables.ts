/** The organization's tables: list, describe, preview, read-only queries, CSV uploads, delete. */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Gateway } from '../gateway';
import { multipartBody } from '../multipart';
import { seg } from '../query';
import {
  TableDescriptionSchema,
  TableListSchema,
  TablePreviewSchema,
  TableQueryResultSchema,
  TableQuerySubmittedSchema,
  TableUploadedSchema,
  type TableDescription,
  type TableList,
  type TablePreview,
  type TableQueryResult,
  type TableQuerySubmitted,
  type TableUploaded,
} from '../schemas/tables';
import type { CallOptions, WriteOptions } from '../types';

export interface UploadTableParams {
  filePath: string;
  tableName: string;
  /** The first row holds the column names (default); else columns are `column_1`, `column_2`, … */
  withHeaders?: boolean;
  /** Bytes of the request body the service has taken so far, of the total. */
  onProgress?: (sentBytes: number, totalBytes: number) => void;
}

/** The service's SQL surface over the organization's tables. */
export class TablesApi {
  constructor(private readonly gateway: Gateway) {}

  /** Every table with its columns (not paged). */
  list(opts?: CallOptions): Promise<TableList> {
    return this.gateway.send({ operation: 'listTables', method: 'GET', path: '/v1/tables/', schema: TableListSchema, feature: 'tables' }, opts?.signal);
  }

  /** Columns, and row count and last change where the service knows them. */
  describe(tableName: string, opts?: CallOptions): Promise<TableDescription> {
    const path = `/v1/tables/${seg(tableName)}/describe/`;
    return this.gateway.send({ operation: 'describeTable', method: 'GET', path, schema: TableDescriptionSchema }, opts?.signal);
  }

  /** The first `limit` rows (0: columns only). */
  preview(tableName: string, limit?: number, opts?: CallOptions): Promise<TablePreview> {
    const path = `/v1/tables/${seg(tableName)}/preview/`;
    return this.gateway.send({ operation: 'previewTable', method: 'GET', path, query: { limit }, schema: TablePreviewSchema }, opts?.signal);
  }

  /** Submits one read-only SELECT/WITH; poll {@link queryResult}. `unsupported` when the server has no tables endpoint. */
  query(sql: string, limit?: number, opts?: CallOptions): Promise<TableQuerySubmitted> {
    const json = limit === undefined ? { sql } : { sql, limit };
    return this.gateway.send({ operation: 'queryTables', method: 'POST', path: '/v1/tables/query/', json, schema: TableQuerySubmittedSchema, feature: 'table queries' }, opts?.signal);
  }

  /** The state and, once done, the rows of a table query. */
  queryResult(tableQueryId: string, opts?: CallOptions): Promise<TableQueryResult> {
    const path = `/v1/tables/query/${seg(tableQueryId)}/result/`;
    return this.gateway.send({ operation: 'getTableQueryResult', method: 'GET', path, schema: TableQueryResultSchema }, opts?.signal);
  }

  /** Streams a CSV file from disk into a new table. */
  async upload(params: UploadTableParams, opts?: WriteOptions): Promise<TableUploaded> {
    const stat = await fs.stat(params.filePath);
    if (!stat.isFile()) throw new Error(`Not a file: ${params.filePath}`);
    const fields: Array<[string, string]> = [
      ['table_name', params.tableName],
      ['with_headers', params.withHeaders === false ? 'false' : 'true'],
    ];
    if (this.gateway.organizationId) fields.push(['organization_id', this.gateway.organizationId]);
    const file = { field: 'file', filePath: params.filePath, fileName: path.basename(params.filePath), size: stat.size };
    const stream = multipartBody(fields, file, params.onProgress);
    return this.gateway.send({ operation: 'uploadTable', method: 'POST', path: '/v1/tables/upload/', stream, schema: TableUploadedSchema, target: { kind: 'table', id: params.tableName }, ground: opts?.ground }, opts?.signal);
  }

  /** Drops a table for good. */
  delete(tableName: string, opts?: WriteOptions): Promise<void> {
    return this.gateway.send({ operation: 'deleteTable', method: 'DELETE', path: `/v1/tables/${seg(tableName)}/`, schema: null, target: { kind: 'table', id: tableName }, ground: opts?.ground }, opts?.signal);
  }
}
