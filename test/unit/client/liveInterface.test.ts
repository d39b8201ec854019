import * as assert from 'node:assert/strict';
import type { ServiceClient } from '../../../src/core/client';
import { JobStatus } from '../../../src/core/jobStatus';
import { tableQueryResultSet } from '../../../src/core/tables/tableResults';
import { clientFor, json, startFakeService, type FakeService } from './helpers/fakeService';

/** A bulk result record as the live interface describes it, with the given `result`. */
function record(id: string, result: unknown): Record<string, unknown> {
  return { id, status: 'SUCCESS', result, corrected_outputs: null, agent_id: 'a1', agent_version_id: 'v1', cost: null, inputs: [], input_tokens: null, output_tokens: null };
}

describe('service client: answers shaped as the live interface describes them', () => {
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

  it('reads a job just queued whose status is null as pending, and still reads the other jobs of the answer', async () => {
    service.handle((_req, res) =>
      json(res, 200, [
        { id: 'new', status: null, created_at: null, last_updated_at: null, timestamp: null, error_message: null },
        { id: 'done', status: 3, created_at: '2026-01-01T00:00:00Z', last_updated_at: null, timestamp: 1.5, error_message: null },
      ]),
    );
    const statuses = await client.jobs.statuses(['new', 'done']);
    assert.deepEqual(
      statuses.map((s) => [s.id, s.status]),
      [
        ['new', JobStatus.PENDING],
        ['done', JobStatus.SUCCESS],
      ],
    );
  });

  it('reads a failed job whose result is an error code without failing the other results', async () => {
    const outputs = [{ key: 'verdict', description: null, data_type: 'text/plain', value: 'Compliant', cost: null }];
    service.handle((_req, res) => json(res, 200, [record('failed', 'ENGINE_TIMEOUT'), record('ok', outputs)]));
    const [failed, ok] = await client.jobs.results(['failed', 'ok']);
    assert.equal(failed?.result, null);
    assert.equal(failed?.result_error, 'ENGINE_TIMEOUT');
    assert.deepEqual(ok?.result, outputs);
    assert.equal(ok?.result_error, undefined);
  });

  it('gives the bulk results in the order asked when the service answers in another order', async () => {
    service.handle((req, res) => {
      const ids = (JSON.parse(req.body) as { job_ids: string[] }).job_ids;
      json(res, 200, [...ids].reverse().map((id) => record(id, [])));
    });
    const ids = Array.from({ length: 130 }, (_, i) => `j${i}`);
    assert.deepEqual((await client.jobs.results(ids)).map((r) => r.id), ids);
  });

  it('lists engines whose free-form entries carry a numeric id or other odd fields', async () => {
    service.handle((_req, res) =>
      json(res, 200, {
        engine_types: ['call_qa', 'other'],
        total_count: 2,
        engines: [
          { id: 7, engine_class_id: 'call_qa', name: 'Call QA', description: { text: 'rich' }, default_engine_config: { model: 'm' } },
          { id: 'other', engine_class_id: 'other', name: 'Other' },
        ],
      }),
    );
    const list = await client.agents.engineTypes();
    assert.deepEqual(
      list.engines.map((e) => [e.id, e.engine_class_id, e.name, e.description]),
      [
        ['7', 'call_qa', 'Call QA', null],
        ['other', 'other', 'Other', undefined],
      ],
    );
  });

  it('reads a table query result whose columns are free objects, naming columns from the rows when the list names none', async () => {
    service.handle((_req, res) =>
      json(res, 200, {
        table_query_id: 'q1',
        status: 'completed',
        columns: [{ name: 'id', type: { base: 'Int64' } }, { label: 'text' }],
        rows: [{ id: 1, text: 'a' }],
        row_count: 1,
      }),
    );
    const result = await client.tables.queryResult('q1');
    const set = tableQueryResultSet(result);
    assert.deepEqual(set.results?.[0]?.column_names, ['id', 'text']);
    assert.deepEqual(set.results?.[0]?.result_rows, [['1', 'a']]);

    service.handle((_req, res) =>
      json(res, 200, { table_query_id: 'q2', status: 'completed', columns: [{ name: 1, type: 7 }, { name: 'text', type: 'String' }], rows: [{ 1: 'x', text: 'a' }], row_count: 1 }),
    );
    const named = await client.tables.queryResult('q2');
    assert.deepEqual(named.columns, [
      { name: '1', type: '7' },
      { name: 'text', type: 'String' },
    ]);
  });
});
