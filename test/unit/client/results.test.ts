import * as assert from 'node:assert/strict';
import { dependentAgentsOf, isResultUnavailable, type ServiceClient } from '../../../src/core/client';
import { clientFor, json, ORG, queryOf, rejectionOf, startFakeService, text, type FakeService } from './helpers/fakeService';

describe('service client: job results, the current user and policy dependents', () => {
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

  it('reads one job result with nulls, absent fields and extra fields', async () => {
    service.handle((_req, res) =>
      json(res, 200, {
        agent_id: 'a1',
        agent_version_id: null,
        inputs: [{ key: 'text', value: 'hi' }],
        input_tokens: null,
        output_tokens: 12,
        outputs: [
          { key: 'verdict', description: 'The verdict', data_type: 'text/plain', value: 'Compliant', cost: 0.002, rank: 1 },
          { key: 'details', data_type: 'application/json', value: { matched: [] } },
        ],
        trace: 'kept',
      }),
    );
    const result = await client.jobs.result('j 1');
    assert.equal(service.requests[0]?.url, `/v1/agents/jobs/j%201/result/?organization_id=${ORG}`);
    assert.equal(result.agent_version_id, null);
    assert.equal(result.input_tokens, null);
    assert.equal(result.output_tokens, 12);
    assert.deepEqual(result.outputs, [
      { key: 'verdict', description: 'The verdict', data_type: 'text/plain', value: 'Compliant', cost: 0.002, rank: 1 },
      { key: 'details', description: null, data_type: 'application/json', value: '{"matched":[]}', cost: null },
    ]);
    assert.equal((result as Record<string, unknown>).trace, 'kept');
  });

  it('reads a result whose lists are null as empty', async () => {
    service.handle((_req, res) => json(res, 200, { agent_id: null, agent_version_id: null, inputs: null, input_tokens: null, output_tokens: null, outputs: null }));
    const result = await client.jobs.result('j1');
    assert.deepEqual(result.inputs, []);
    assert.deepEqual(result.outputs, []);
  });

  it('recognises a 500 without a JSON body as "result not available", and nothing else', async () => {
    service.handle((_req, res) => text(res, 500, ''));
    const error = await rejectionOf(client.jobs.result('j1'));
    assert.equal(isResultUnavailable(error), true);
    assert.match(String((error as Error).message), /not available/);
    service.handle((_req, res) => json(res, 500, { detail: 'boom' }));
    assert.equal(isResultUnavailable(await rejectionOf(client.jobs.result('j1'))), false);
    service.handle((_req, res) => json(res, 404, { detail: 'Not found.' }));
    assert.equal(isResultUnavailable(await rejectionOf(client.jobs.result('j1'))), false);
  });

  it('reads many results in chunks of a hundred ids, one request after the other, in order', async () => {
    let inFlight = 0;
    let most = 0;
    service.handle(async (req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const ids = (JSON.parse(req.body) as { job_ids: string[] }).job_ids;
      inFlight--;
      json(res, 200, ids.map((id) => ({ id, status: null, result: null, corrected_outputs: null, agent_id: 'a1', agent_version_id: null, cost: null, inputs: [], input_tokens: null, output_tokens: null })));
    });
    const ids = Array.from({ length: 250 }, (_, i) => `j${i}`);
    const records = await client.jobs.results(ids);
    assert.deepEqual(records.map((r) => r.id), ids);
    assert.deepEqual(service.requests.map((r) => (JSON.parse(r.body) as { job_ids: string[] }).job_ids.length), [100, 100, 50]);
    assert.ok(service.requests.every((r) => r.method === 'POST' && r.url === `/v1/agents/jobs/results/?organization_id=${ORG}`));
    assert.equal(most, 1, 'chunks are sent one after the other');
  });

  it('sends nothing for no ids', async () => {
    assert.deepEqual(await client.jobs.results([]), []);
    assert.equal(service.requests.length, 0);
  });

  it('reads result records with outputs, corrected outputs and extra fields', async () => {
    const outputs = [{ key: 'verdict', description: null, data_type: 'text/plain', value: 'Compliant', cost: 0.1 }];
    const corrected = [{ key: 'verdict', description: null, data_type: 'text/plain', value: 'Non-Compliant', cost: null }];
    service.handle((_req, res) =>
      json(res, 200, [{ id: 'j1', status: 'SUCCESS', result: outputs, corrected_outputs: corrected, agent_id: 'a1', agent_version_id: 'v1', cost: 0.1, inputs: [{ key: 'text' }], input_tokens: 10, output_tokens: 3, note: 'x' }]),
    );
    const [record] = await client.jobs.results(['j1']);
    assert.deepEqual(record?.result, outputs);
    assert.deepEqual(record?.corrected_outputs, corrected);
    assert.equal(record?.status, 'SUCCESS');
    assert.equal((record as Record<string, unknown>).note, 'x');
  });

  it('asks who is signed in without an organization', async () => {
    service.handle((_req, res) => json(res, 200, { id: 7, email: 'ada@example.com', first_name: 'Ada', last_name: null, display_name: 'Ada', is_staff: false }));
    const user = await client.users.current();
    assert.equal(service.requests[0]?.url, '/v1/users/current_user/');
    assert.equal(queryOf(service.requests[0]).has('organization_id'), false);
    assert.deepEqual(user, { id: 7, email: 'ada@example.com', first_name: 'Ada', last_name: null, display_name: 'Ada', is_staff: false });
  });

  it('lists the agents that keep a policy from being deleted', async () => {
    const dependent = { base_agent_id: 'a1', agent_name: 'Triage', version_id: 'v1', version_name: null, extra: 1 };
    service.handle((_req, res) => json(res, 409, { error: 'Policy is used by agents', dependent_agents: [dependent, 'junk'] }));
    const error = await rejectionOf(client.policies.delete('p1'));
    assert.equal((error as Error).message, 'Policy is used by agents.');
    assert.deepEqual(dependentAgentsOf(error), [dependent]);
    assert.equal(dependentAgentsOf(new Error('x')), undefined);
    service.handle((_req, res) => json(res, 404, { detail: 'Not found.' }));
    assert.equal(dependentAgentsOf(await rejectionOf(client.policies.delete('p1'))), undefined);
  });
});
