import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServiceClient, ServiceError } from '../../../src/core/client';
import { previewResultSet, tableQueryResultSet } from '../../../src/core/tables/tableResults';
import { clientFor, json, ORG, rejectionOf, startFakeService, type FakeService } from './helpers/fakeService';

describe('service client: tables', () => {
  let service: FakeService;
  let client: ServiceClient;

  beforeEach(async () => {
    service = await startFakeService();
    client = clientFor(service);
  });
  afterEach(async () => {
    await client.close();
    await service.close();
  });

  it('reads a table list with nulls and unknown fields', async () => {
    service.handle((_req, res) => json(res, 200, { results: [{ name: 't', columns: [{ name: 'a', type: null, comment: 'x' }], engine: 'MergeTree' }, { name: 'u', columns: null }], total: null, extra: 1 }));
    const list = await client.tables.list();
    assert.equal(list.results[0]?.columns?.[0]?.type, null);
    assert.equal(list.results[1]?.columns, null);
    assert.equal((list.results[0] as Record<string, unknown>).engine, 'MergeTree');
    assert.equal(service.requests[0]?.url, `/v1/tables/?organization_id=${ORG}`);
  });

  it('escapes table names in paths and sends the preview limit', async () => {
    service.handle((_req, res) => json(res, 200, { table_name: 'a/b', columns: [], rows: [], row_count: 0 }));
    await client.tables.preview('a/b', 0);
    assert.equal(service.requests[0]?.url, `/v1/tables/a%2Fb/preview/?organization_id=${ORG}&limit=0`);
  });

  it('submits a query with its limit and reads the submitted answer', async () => {
    service.handle((_req, res) => json(res, 202, { table_query_id: 'q1', status: 'PENDING', created_at: '2025-01-01T00:00:00Z' }));
    const submitted = await client.tables.query('SELECT 1', 10);
    assert.deepEqual(JSON.parse(service.requests[0]!.body), { sql: 'SELECT 1', limit: 10 });
    assert.equal(submitted.table_query_id, 'q1');
  });

  it('says plainly that a server without the tables endpoint does not offer table queries', async () => {
    service.handle((_req, res) => json(res, 404, { detail: 'Not found.' }));
    const error = (await rejectionOf(client.tables.query('SELECT 1'))) as ServiceError;
    assert.equal(error.kind, 'unsupported');
    assert.match(error.message, /does not offer table queries/);
  });

  it('turns a bad-name 400 (a bare array) into one sentence', async () => {
    service.handle((_req, res) => json(res, 400, ['Invalid table name "a-b": use letters.']));
    const error = (await rejectionOf(client.tables.describe('a-b'))) as ServiceError;
    assert.equal(error.kind, 'http');
    assert.equal(error.message, 'Invalid table name "a-b": use letters.');
  });

  it('streams a CSV upload as a form with the table name and header choice', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-tables-'));
    try {
      const filePath = path.join(dir, 'sales.csv');
      fs.writeFileSync(filePath, 'a,b\n1,2\n');
      service.handle((_req, res) => json(res, 201, { table_name: 'sales', organization_id: ORG, summary: null }));
      const seen: number[] = [];
      const uploaded = await client.tables.upload({ filePath, tableName: 'sales', withHeaders: false, onProgress: (sent) => seen.push(sent) });
      assert.equal(uploaded.table_name, 'sales');
      const body = service.requests[0]!.body;
      assert.match(body, /name="table_name"\r\n\r\nsales\r\n/);
      assert.match(body, /name="with_headers"\r\n\r\nfalse\r\n/);
      assert.match(body, /filename="sales.csv"\r\nContent-Type: text\/csv\r\n\r\na,b\n1,2\n/);
      assert.equal(seen.at(-1), Number(service.requests[0]!.headers['content-length']));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shapes a table query result for the grid: text cells, JSON for nested values, execution time, truncated', () => {
    const set = tableQueryResultSet({ table_query_id: 'q', status: 'SUCCESS', columns: [{ name: 'n', type: 'Int64' }, { name: 'j', type: 'String' }], rows: [{ n: 1, j: { a: [1] } }, { n: null, j: 'x' }], truncated: true, execution_time_ms: 12.5 }, 'SELECT');
    const [result] = set.results!;
    assert.deepEqual(result!.result_rows, [['1', '{"a":[1]}'], [null, 'x']]);
    assert.equal(result!.truncated, true);
    assert.equal(result!.summary?.elapsed_ns, 12_500_000);
    const preview = previewResultSet({ table_name: 't', columns: null, rows: [{ a: true }], row_count: 1 }, 'preview:t');
    assert.deepEqual(preview.results![0]!.column_names, ['a']);
    assert.deepEqual(preview.results![0]!.result_rows, [['true']]);
  });
});
