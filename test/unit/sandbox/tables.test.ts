import * as assert from 'node:assert/strict';
import { OTHER_ORGANIZATION_ID, OTHER_TOKEN, eventually, startTestSandbox, type TestSandbox } from './helpers';

function csvForm(tableName: string | undefined, csv: string, extra: Record<string, string> = {}): FormData {
  const data = new FormData();
  if (tableName !== undefined) data.append('table_name', tableName);
  for (const [k, v] of Object.entries(extra)) data.append(k, v);
  data.append('file', new Blob([csv], { type: 'text/csv' }), 'data.csv');
  return data;
}

const SALES = 'region,amount,units,sold_on,note,active\nnorth,12.5,3,2025-01-02,,true\nsouth,7,1,2025-01-03,"big, order",false\nwest,1e3,-2,2025-01-04,"say ""hi""",true\n';

describe('sandbox: tables', function () {
  this.timeout(60_000);
  let t: TestSandbox;

  before(async () => {
    t = await startTestSandbox();
  });
  after(() => t.close());

  /** Submits a query and waits for its final result. */
  async function query(sql: string, limit?: number, token?: string, org?: string): Promise<any> {
    const submitted = await t.call('POST', '/v1/tables/query/', { body: limit === undefined ? { sql } : { sql, limit }, token, org });
    assert.equal(submitted.status, 202, submitted.text);
    assert.equal(submitted.body.status, 'PENDING');
    assert.ok(Date.parse(submitted.body.created_at));
    return eventually(async () => {
      const result = await t.call('GET', `/v1/tables/query/${submitted.body.table_query_id}/result/`, { token, org });
      return result.body.status === 'SUCCESS' || result.body.status === 'FAILURE' ? result.body : undefined;
    }, 30_000, 'the table query');
  }

  it('lists the demo tables with ClickHouse column types', async () => {
    const answer = await t.call('GET', '/v1/tables/');
    assert.equal(answer.status, 200);
    assert.equal(answer.body.total, answer.body.results.length);
    const customers = answer.body.results.find((r: any) => r.name === 'customers');
    assert.deepEqual(customers.columns.slice(0, 2), [{ name: 'id', type: 'Int64' }, { name: 'name', type: 'String' }]);
    assert.deepEqual(customers.columns.find((c: any) => c.name === 'churned_at'), { name: 'churned_at', type: 'Nullable(DateTime)' });
  });

  it('describes a demo table with its row count and no last change', async () => {
    const answer = await t.call('GET', '/v1/tables/conversations/describe/');
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.table_name, 'conversations');
    assert.equal(answer.body.row_count, 6000);
    assert.equal(answer.body.updated_at, null);
  });

  it('previews 3 rows by default, up to 50, and columns only with limit=0', async () => {
    const three = await t.call('GET', '/v1/tables/customers/preview/');
    assert.equal(three.body.rows.length, 3);
    assert.equal(three.body.row_count, 3);
    assert.equal(typeof three.body.rows[0].id, 'number');
    const none = await t.call('GET', '/v1/tables/customers/preview/?limit=0');
    assert.deepEqual(none.body.rows, []);
    assert.ok(none.body.columns.length > 5);
    const tooMany = await t.call('GET', '/v1/tables/customers/preview/?limit=51');
    assert.equal(tooMany.status, 400);
    assert.deepEqual(tooMany.body, { limit: ['Ensure this value is less than or equal to 50.'] });
  });

  it('answers a bad table name with a bare array of messages, and an unknown one with 404', async () => {
    for (const path of ['/v1/tables/bad-name/describe/', '/v1/tables/9lives/preview/', `/v1/tables/${'x'.repeat(129)}/`]) {
      const method = path.endsWith('describe/') || path.endsWith('preview/') ? 'GET' : 'DELETE';
      const answer = await t.call(method, path);
      assert.equal(answer.status, 400, path);
      assert.ok(Array.isArray(answer.body) && typeof answer.body[0] === 'string', answer.text);
    }
    const missing = await t.call('GET', '/v1/tables/no_such_table/describe/');
    assert.equal(missing.status, 404);
    assert.equal(typeof missing.body.detail, 'string');
  });

  it('uploads a CSV as a typed table that can be queried at once', async () => {
    const up = await t.call('POST', '/v1/tables/upload/', { rawBody: csvForm('sales', SALES) });
    assert.equal(up.status, 201, up.text);
    assert.equal(up.body.table_name, 'sales');
    assert.equal(up.body.organization_id, t.orgId);
    const described = await t.call('GET', '/v1/tables/sales/describe/');
    assert.deepEqual(described.body.columns, [
      { name: 'region', type: 'String' },
      { name: 'amount', type: 'Float64' },
      { name: 'units', type: 'Int64' },
      { name: 'sold_on', type: 'Date' },
      { name: 'note', type: 'Nullable(String)' },
      { name: 'active', type: 'Bool' },
    ]);
    assert.equal(described.body.row_count, 3);
    assert.ok(Date.parse(described.body.updated_at));
    const result = await query('SELECT region, amount, note, active FROM sales ORDER BY amount DESC');
    assert.equal(result.status, 'SUCCESS', result.error);
    assert.deepEqual(result.rows, [
      { region: 'west', amount: 1000, note: 'say "hi"', active: true },
      { region: 'north', amount: 12.5, note: null, active: true },
      { region: 'south', amount: 7, note: 'big, order', active: false },
    ]);
    assert.equal(result.truncated, false);
    assert.equal(typeof result.execution_time_ms, 'number');
  });

  it('names columns column_1, column_2… when the CSV has no header', async () => {
    const up = await t.call('POST', '/v1/tables/upload/', { rawBody: csvForm('raw_rows', '1,a\n2,b\n', { with_headers: 'false' }) });
    assert.equal(up.status, 201, up.text);
    const preview = await t.call('GET', '/v1/tables/raw_rows/preview/?limit=5');
    assert.deepEqual(preview.body.columns, [{ name: 'column_1', type: 'Int64' }, { name: 'column_2', type: 'String' }]);
    assert.deepEqual(preview.body.rows, [{ column_1: 1, column_2: 'a' }, { column_1: 2, column_2: 'b' }]);
  });

  it('refuses bad names, taken names and empty files with bare arrays, missing fields with a field map', async () => {
    const bad = await t.call('POST', '/v1/tables/upload/', { rawBody: csvForm('my table', SALES) });
    assert.equal(bad.status, 400);
    assert.ok(Array.isArray(bad.body), bad.text);
    const taken = await t.call('POST', '/v1/tables/upload/', { rawBody: csvForm('Customers', SALES) });
    assert.equal(taken.status, 400);
    assert.match(taken.body[0], /already exists/);
    const ragged = await t.call('POST', '/v1/tables/upload/', { rawBody: csvForm('ragged', 'a,b\n1\n') });
    assert.equal(ragged.status, 400);
    assert.match(ragged.body[0], /Row 2 of the CSV has 1 field/);
    const noName = await t.call('POST', '/v1/tables/upload/', { rawBody: csvForm(undefined, SALES) });
    assert.deepEqual(noName.body, { table_name: ['This field is required.'] });
    const tooLong = await t.call('POST', '/v1/tables/upload/', { rawBody: csvForm('x'.repeat(129), SALES) });
    assert.deepEqual(tooLong.body, { table_name: ['Ensure this field has no more than 128 characters.'] });
    const list = await t.call('GET', '/v1/tables/');
    assert.ok(!list.body.results.some((r: any) => r.name === 'ragged'));
  });

  it('keeps an organization’s tables invisible and unqueryable to another organization', async () => {
    const up = await t.call('POST', '/v1/tables/upload/', { rawBody: csvForm('secret_prices', 'sku,price\na,1\n') });
    assert.equal(up.status, 201, up.text);
    const theirs = await t.call('GET', '/v1/tables/', { token: OTHER_TOKEN, org: OTHER_ORGANIZATION_ID });
    assert.ok(!theirs.body.results.some((r: any) => r.name === 'secret_prices'));
    assert.ok(theirs.body.results.some((r: any) => r.name === 'customers'));
    const describe = await t.call('GET', '/v1/tables/secret_prices/describe/', { token: OTHER_TOKEN, org: OTHER_ORGANIZATION_ID });
    assert.equal(describe.status, 404);
    const result = await query('SELECT * FROM secret_prices', undefined, OTHER_TOKEN, OTHER_ORGANIZATION_ID);
    assert.equal(result.status, 'FAILURE');
    assert.match(result.error, /no such table/);
    const foreign = await t.call('GET', '/v1/tables/', { org: OTHER_ORGANIZATION_ID });
    assert.equal(foreign.status, 403);
    // The other organization may use the same name for a table of its own.
    const same = await t.call('POST', '/v1/tables/upload/', { rawBody: csvForm('secret_prices', 'sku\nz\n'), token: OTHER_TOKEN, org: OTHER_ORGANIZATION_ID });
    assert.equal(same.status, 201, same.text);
    const mine = await query('SELECT count(*) AS n FROM secret_prices');
    assert.deepEqual(mine.rows, [{ n: 1 }]);
  });

  it('caps rows at the limit (default 1000) and says the result was truncated', async () => {
    const capped = await query('SELECT id FROM conversations ORDER BY id', 10);
    assert.equal(capped.rows.length, 10);
    assert.equal(capped.row_count, 10);
    assert.equal(capped.truncated, true);
    const byDefault = await query('SELECT id FROM conversations');
    assert.equal(byDefault.rows.length, 1000);
    assert.equal(byDefault.truncated, true);
    const exact = await query('SELECT id FROM customers LIMIT 5', 5);
    assert.equal(exact.truncated, false);
    for (const limit of [0, 1001, 2.5, '10']) {
      const answer = await t.call('POST', '/v1/tables/query/', { body: { sql: 'SELECT 1', limit } });
      assert.equal(answer.status, 400, String(limit));
      assert.ok(Array.isArray(answer.body.limit));
    }
    const noSql = await t.call('POST', '/v1/tables/query/', { body: {} });
    assert.deepEqual(noSql.body, { sql: ['This field is required.'] });
  });

  it('offers no way to write through a query', async () => {
    for (const sql of ['DELETE FROM sales', 'DROP TABLE sales', "INSERT INTO sales (region) VALUES ('x')", 'WITH x AS (SELECT 1) DELETE FROM sales', 'SELECT 1; DROP TABLE sales']) {
      const result = await query(sql);
      assert.equal(result.status, 'FAILURE', sql);
    }
    const still = await query('SELECT count(*) AS n FROM sales');
    assert.deepEqual(still.rows, [{ n: 3 }]);
  });

  it('deletes an uploaded table (204), after which it is gone; demo tables stay', async () => {
    await t.call('POST', '/v1/tables/upload/', { rawBody: csvForm('scratch', 'a\n1\n') });
    const first = await query('SELECT * FROM scratch');
    assert.equal(first.status, 'SUCCESS');
    const gone = await t.call('DELETE', '/v1/tables/scratch/');
    assert.equal(gone.status, 204);
    assert.equal((await t.call('GET', '/v1/tables/scratch/describe/')).status, 404);
    assert.equal((await t.call('DELETE', '/v1/tables/scratch/')).status, 404);
    const after = await query('SELECT * FROM scratch');
    assert.equal(after.status, 'FAILURE');
    assert.equal((await t.call('DELETE', '/v1/tables/customers/')).status, 403);
  });

  it('lets the database query endpoint read uploaded tables too', async () => {
    const submitted = await t.call('POST', '/v1/database/query/', { body: { query: 'SELECT count(*) FROM sales' } });
    const result = await eventually(async () => {
      const r = await t.call('GET', `/v1/database/query/${submitted.body.worksheet_query_id}/result/`);
      return r.body.status === 'SUCCESS' || r.body.status === 'FAILURE' ? r.body : undefined;
    }, 30_000);
    assert.equal(result.status, 'SUCCESS', result.error);
    assert.deepEqual(result.results[0].result_rows, [['3']]);
  });
});

describe('sandbox: tables kept in a data folder', function () {
  this.timeout(60_000);

  it('still has an uploaded table, queryable, after a restart', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-tables-data-'));
    try {
      const first = await startTestSandbox({ dataDir, memory: false });
      const up = await first.call('POST', '/v1/tables/upload/', { rawBody: csvForm('kept', 'k,v\na,1\nb,2\n') });
      assert.equal(up.status, 201, up.text);
      await first.close();
      const second = await startTestSandbox({ dataDir, memory: false });
      try {
        const described = await second.call('GET', '/v1/tables/kept/describe/');
        assert.equal(described.body.row_count, 2);
        const preview = await second.call('GET', '/v1/tables/kept/preview/?limit=5');
        assert.deepEqual(preview.body.rows, [{ k: 'a', v: 1 }, { k: 'b', v: 2 }]);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
