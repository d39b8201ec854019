import * as assert from 'node:assert/strict';
import type { ServiceClient } from '../../../src/core/client';
import { agentVersion, baseAgent, dataset, datasetFile, envelope, job, policy } from './helpers/fixtures';
import { clientFor, json, ORG, startFakeService, text, type FakeService } from './helpers/fakeService';

interface Case {
  does: string;
  call: (client: ServiceClient) => Promise<unknown>;
  method: string;
  /** Path with the query, `organization_id` included where it goes. */
  url: string;
  body?: unknown;
  status?: number;
  answer?: unknown;
}

const org = `organization_id=${ORG}`;
const content = { instructions: 'Refund within 30 days.' };

const cases: Case[] = [
  {
    does: 'lists agents with repeated engine and tag filters',
    call: (c) => c.agents.list({ page: 2, page_size: 5, engine_class_id: ['a', 'b'], tags: ['t1', 't2'], include_job_stats: false, search: 'tri age' }),
    method: 'GET',
    url: `/v1/agents/?${org}&page=2&page_size=5&engine_class_id=a&engine_class_id=b&tags=t1&tags=t2&include_job_stats=false&search=tri%20age`,
    answer: envelope([baseAgent()]),
  },
  { does: 'gets an agent', call: (c) => c.agents.get('a1'), method: 'GET', url: `/v1/agents/a1/?${org}`, answer: baseAgent() },
  {
    does: 'creates an agent',
    call: (c) => c.agents.create({ name: 'N', engine_class_id: 'e', engine_config: { prompt: 'p' } }),
    method: 'POST',
    url: `/v1/agents/?${org}`,
    body: { name: 'N', engine_class_id: 'e', engine_config: { prompt: 'p' } },
    status: 201,
    answer: baseAgent(),
  },
  {
    does: 'updates an agent with PUT',
    call: (c) => c.agents.update('a1', { disable_cache: true }),
    method: 'PUT',
    url: `/v1/agents/a1/?${org}`,
    body: { disable_cache: true },
    answer: baseAgent(),
  },
  {
    does: 'duplicates an agent without a body, as the live service takes it',
    call: (c) => c.agents.duplicate('a1'),
    method: 'POST',
    url: `/v1/agents/a1/duplicate/?${org}`,
    status: 201,
    answer: agentVersion(),
  },
  {
    does: 'changes only the name of an agent with PATCH',
    call: (c) => c.agents.patch('a1', { name: 'Copy' }),
    method: 'PATCH',
    url: `/v1/agents/a1/?${org}`,
    body: { name: 'Copy' },
    answer: baseAgent(),
  },
  { does: 'lists the versions of an agent', call: (c) => c.agents.listVersions('a1'), method: 'GET', url: `/v1/agents/a1/versions/?${org}`, answer: [agentVersion()] },
  {
    does: 'gets a version and asks whether the engine supports evaluation',
    call: (c) => c.agents.getVersion('a1', 'v1', { supportsEval: true }),
    method: 'GET',
    url: `/v1/agents/a1/versions/v1/?${org}&get_supports_eval=true`,
    answer: agentVersion(),
  },
  { does: 'gets the current version', call: (c) => c.agents.currentVersion('a1'), method: 'GET', url: `/v1/agents/a1/versions/current/?${org}`, answer: agentVersion() },
  {
    does: 'creates an agent version',
    call: (c) => c.agents.createVersion('a1', { input_definitions: [{ key: 'text', data_type: 'text/plain' }], engine_config: { prompt: 'p' } }),
    method: 'POST',
    url: `/v1/agents/a1/versions/?${org}`,
    body: { input_definitions: [{ key: 'text', data_type: 'text/plain' }], engine_config: { prompt: 'p' } },
    status: 201,
    answer: agentVersion(),
  },
  {
    does: 'runs an agent with inputs as top-level properties and metadata beside them',
    call: (c) => c.agents.run('a1', { inputs: { text: 'hi' }, metadata: { ticket: 7 } }),
    method: 'POST',
    url: `/v1/agents/run/a1/async/?${org}`,
    body: { text: 'hi', metadata: { ticket: 7 } },
    answer: 'j1',
  },
  {
    does: 'lists jobs with several orderings as one comma-separated value',
    call: (c) => c.jobs.list('a1', { ordering: ['-created_at', 'status_code'], status_code: 3, metadata: 'ticket:7', limit: 0 }),
    method: 'GET',
    url: `/v1/agents/a1/jobs/?${org}&ordering=-created_at%2Cstatus_code&status_code=3&metadata=ticket%3A7&limit=0`,
    answer: envelope([job()]),
  },
  {
    does: 'reads the status of a job',
    call: (c) => c.jobs.status('j1'),
    method: 'GET',
    url: `/v1/agents/jobs/j1/status/?${org}`,
    answer: { status: 1, timestamp: 1740823200.25, error_message: '' },
  },
  {
    does: 'reads the statuses of many jobs with one POST',
    call: (c) => c.jobs.statuses(['j1', 'j2']),
    method: 'POST',
    url: `/v1/agents/jobs/statuses/?${org}`,
    body: { job_ids: ['j1', 'j2'] },
    answer: [{ id: 'j1', status: 3, created_at: 'x', last_updated_at: 'y', timestamp: 1.5, error_message: '' }],
  },
  { does: 'cancels a job', call: (c) => c.jobs.cancel('j1'), method: 'POST', url: `/v1/agents/jobs/j1/cancel/?${org}`, status: 204 },
  { does: 'lists policies', call: (c) => c.policies.list({ search: 'ref', ordering: 'name' }), method: 'GET', url: `/v1/policies/?${org}&search=ref&ordering=name`, answer: envelope([policy()]) },
  { does: 'gets a policy', call: (c) => c.policies.get('p1'), method: 'GET', url: `/v1/policies/p1/?${org}`, answer: policy() },
  {
    does: 'creates a policy with its first content',
    call: (c) => c.policies.create({ name: 'Refunds', content }),
    method: 'POST',
    url: `/v1/policies/?${org}`,
    body: { name: 'Refunds', content },
    status: 201,
    answer: policy(),
  },
  { does: 'renames a policy with PATCH', call: (c) => c.policies.update('p1', { name: 'R' }), method: 'PATCH', url: `/v1/policies/p1/?${org}`, body: { name: 'R' }, answer: policy() },
  { does: 'deletes a policy', call: (c) => c.policies.delete('p1'), method: 'DELETE', url: `/v1/policies/p1/?${org}`, status: 204 },
  {
    does: 'lists the versions of a policy',
    call: (c) => c.policies.listVersions('p1', { page_size: 50 }),
    method: 'GET',
    url: `/v1/policies/p1/versions/?${org}&page_size=50`,
    answer: envelope([{ id: 'v1', version_name: 'version 1', content }]),
  },
  {
    does: 'gets a policy version',
    call: (c) => c.policies.getVersion('p1', 'v1'),
    method: 'GET',
    url: `/v1/policies/p1/versions/v1/?${org}`,
    answer: { id: 'v1', version_name: 'version 1', content },
  },
  {
    does: 'creates a policy version from a base version',
    call: (c) => c.policies.createVersion('p1', { content, base_version_id: 'v1' }),
    method: 'POST',
    url: `/v1/policies/p1/versions/?${org}`,
    body: { content, base_version_id: 'v1' },
    status: 201,
    answer: { id: 'v2', version_name: 'version 2', content },
  },
  { does: 'lists the organization’s datasets', call: (c) => c.datasets.list({ search: 'tick' }), method: 'GET', url: `/v1/datasets/?${org}&search=tick`, answer: envelope([dataset()]) },
  { does: 'lists personal datasets without organization_id', call: (c) => c.datasets.list({ personal: true, page: 1 }), method: 'GET', url: '/v1/datasets/?page=1', answer: envelope([dataset()]) },
  { does: 'lists the files of a dataset', call: (c) => c.datasets.listFiles('d1'), method: 'GET', url: `/v1/datasets/d1/files/?${org}`, answer: envelope([datasetFile()]) },
  { does: 'deletes a dataset file', call: (c) => c.datasets.deleteFile('d1', 'f1'), method: 'DELETE', url: `/v1/datasets/d1/files/f1/?${org}`, status: 204 },
  {
    does: 'submits a database query',
    call: (c) => c.database.submitQuery('SELECT 1'),
    method: 'POST',
    url: `/v1/database/query/?${org}`,
    body: { query: 'SELECT 1' },
    status: 202,
    answer: { worksheet_query_id: 'q1', status: 'PENDING' },
  },
  {
    does: 'reads a query result',
    call: (c) => c.database.getResult('q1'),
    method: 'GET',
    url: `/v1/database/query/q1/result/?${org}`,
    answer: { worksheet_query_id: 'q1', status: 'PENDING', results: [], error: null },
  },
];

describe('service client: what each method sends', () => {
  let service: FakeService;
  let client: ServiceClient;

  before(async () => {
    service = await startFakeService();
    client = clientFor(service);
  });
  after(async () => {
    await client.close();
    await service.close();
  });

  for (const c of cases) {
    it(`${c.does}`, async () => {
      service.requests.length = 0;
      service.handle((_req, res) => (c.answer === undefined ? text(res, c.status ?? 204, '', 'text/plain') : json(res, c.status ?? 200, c.answer)));
      const result = await c.call(client);
      const [req] = service.requests;
      assert.ok(req && service.requests.length === 1);
      assert.equal(req.method, c.method);
      assert.equal(req.url, c.url);
      assert.equal(req.headers.accept, 'application/json');
      if (c.body === undefined) {
        assert.equal(req.body, '');
      } else {
        assert.equal(req.headers['content-type'], 'application/json');
        assert.deepEqual(JSON.parse(req.body), c.body);
      }
      if (c.answer === undefined) assert.equal(result, undefined);
      else if (typeof c.answer === 'object' && c.answer !== null && 'count' in c.answer) assert.equal((result as { results: unknown[] }).results.length, 1);
      else assert.deepEqual(result, c.answer);
    });
  }

  it('asks nothing of the service for the statuses of no jobs', async () => {
    service.requests.length = 0;
    assert.deepEqual(await client.jobs.statuses([]), []);
    assert.equal(service.requests.length, 0);
  });

  it('sends no organization_id when the client has none', async () => {
    const personal = clientFor(service, { organizationId: undefined });
    try {
      service.requests.length = 0;
      service.handle((_req, res) => json(res, 200, baseAgent()));
      await personal.agents.get('a1');
      assert.equal(service.requests[0]?.url, '/v1/agents/a1/');
      assert.equal(personal.organizationId, undefined);
    } finally {
      await personal.close();
    }
  });

  it('says who is calling in the User-Agent', async () => {
    const named = clientFor(service, { userAgent: 'agent-workbench/0.1.0 vscode/1.100' });
    try {
      service.requests.length = 0;
      service.handle((_req, res) => json(res, 200, baseAgent()));
      await named.agents.get('a1');
      assert.equal(service.requests[0]?.headers['user-agent'], 'agent-workbench/0.1.0 vscode/1.100');
    } finally {
      await named.close();
    }
  });
});
