import * as assert from 'node:assert/strict';
import { OTHER_ORGANIZATION_ID, OTHER_TOKEN, type TestSandbox, eventually, fakeQueryEngine, startTestSandbox } from './helpers';

/** Two users, each in one organization: nothing of one may be read, changed or deleted by the other. */
describe('sandbox isolation between organizations', () => {
  let t: TestSandbox;
  const acme = (method: string, path: string, body?: unknown) => t.call(method, path, { body });
  const globex = (method: string, path: string, body?: unknown) => t.call(method, path, { body, token: OTHER_TOKEN, org: OTHER_ORGANIZATION_ID });
  /** The other user naming the demo organization, or its own organization for the demo user's things. */
  const globexInAcme = (method: string, path: string, body?: unknown) => t.call(method, path, { body, token: OTHER_TOKEN });
  let acmeAgent: any;
  let globexAgent: any;

  before(async () => {
    t = await startTestSandbox({ queryEngineFactory: fakeQueryEngine().factory });
    acmeAgent = (await acme('GET', '/v1/agents/?search=support call')).body.results[0];
    globexAgent = (await globex('GET', '/v1/agents/')).body.results[0];
  });
  after(() => t.close());

  it('shows each organization only its own agents, policies and datasets', async () => {
    const globexAgents = (await globex('GET', '/v1/agents/?page_size=100')).body;
    assert.deepEqual(globexAgents.results.map((a: any) => a.name), ['Dispatch Call Reviewer']);
    assert.ok((await acme('GET', '/v1/agents/?page_size=100')).body.results.every((a: any) => a.organization_id === t.orgId));
    assert.deepEqual((await globex('GET', '/v1/policies/')).body.results.map((p: any) => p.name), ['Dispatch Call Standard']);
    assert.deepEqual((await globex('GET', '/v1/datasets/')).body.results.map((d: any) => d.name), ['Dispatch recordings index']);
    assert.equal((await globexInAcme('GET', '/v1/agents/')).status, 403);
  });

  it('answers 404 for another organization\'s agent, versions and jobs, in both directions', async () => {
    for (const [call, agent] of [[globex, acmeAgent], [acme, globexAgent]] as const) {
      assert.equal((await call('GET', `/v1/agents/${agent.id}/`)).status, 404);
      assert.equal((await call('GET', `/v1/agents/${agent.id}/versions/`)).status, 404);
      assert.equal((await call('GET', `/v1/agents/${agent.id}/versions/current/`)).status, 404);
      assert.equal((await call('GET', `/v1/agents/${agent.id}/versions/${agent.current_version_id}/`)).status, 404);
      assert.equal((await call('GET', `/v1/agents/${agent.id}/jobs/`)).status, 404);
    }
  });

  it('lets neither organization change, version, duplicate or run the other\'s agent', async () => {
    for (const [call, agent] of [[globex, acmeAgent], [acme, globexAgent]] as const) {
      assert.equal((await call('PUT', `/v1/agents/${agent.id}/`, { name: 'taken' })).status, 404);
      assert.equal((await call('POST', `/v1/agents/${agent.id}/versions/`, { input_definitions: [], engine_config: {} })).status, 404);
      assert.equal((await call('POST', `/v1/agents/${agent.id}/duplicate/`, {})).status, 404);
      assert.equal((await call('POST', `/v1/agents/run/${agent.id}/async/`, { transcript: 'x' })).status, 404);
    }
    assert.equal((await acme('GET', `/v1/agents/${acmeAgent.id}/`)).body.name, 'Support Call QA');
  });

  it('hides jobs from the status, statuses and cancel endpoints of the other organization', async () => {
    const acmeJob = (await acme('GET', `/v1/agents/${acmeAgent.id}/jobs/?page_size=1`)).body.results[0];
    const globexJob = (await globex('GET', `/v1/agents/${globexAgent.id}/jobs/?page_size=1`)).body.results[0];
    assert.equal((await globex('GET', `/v1/agents/jobs/${acmeJob.id}/status/`)).status, 404);
    assert.equal((await acme('GET', `/v1/agents/jobs/${globexJob.id}/status/`)).status, 404);
    assert.deepEqual((await globex('POST', '/v1/agents/jobs/statuses/', { job_ids: [acmeJob.id, globexJob.id] })).body.map((s: any) => s.id), [globexJob.id]);
    assert.deepEqual((await acme('POST', '/v1/agents/jobs/statuses/', { job_ids: [acmeJob.id, globexJob.id] })).body.map((s: any) => s.id), [acmeJob.id]);
    assert.equal((await globex('POST', `/v1/agents/jobs/${acmeJob.id}/cancel/`)).status, 404);
  });

  it('keeps policies and their versions private, and undeletable by the other organization', async () => {
    const acmePolicy = (await acme('GET', '/v1/policies/?search=social')).body.results[0];
    const globexPolicy = (await globex('GET', '/v1/policies/')).body.results[0];
    for (const [call, policy] of [[globex, acmePolicy], [acme, globexPolicy]] as const) {
      assert.equal((await call('GET', `/v1/policies/${policy.id}/`)).status, 404);
      assert.equal((await call('GET', `/v1/policies/${policy.id}/versions/`)).status, 404);
      assert.equal((await call('GET', `/v1/policies/${policy.id}/versions/${policy.current_version_id}/`)).status, 404);
      assert.equal((await call('POST', `/v1/policies/${policy.id}/versions/`, { content: {} })).status, 404);
      assert.equal((await call('PATCH', `/v1/policies/${policy.id}/`, { name: 'taken' })).status, 404);
      assert.equal((await call('DELETE', `/v1/policies/${policy.id}/`)).status, 404);
    }
    assert.equal((await acme('GET', `/v1/policies/${acmePolicy.id}/`)).body.name, 'Social Media Escalation Playbook');
  });

  it('refuses a base version taken from another organization\'s policy', async () => {
    const acmePolicy = (await acme('GET', '/v1/policies/?search=social')).body.results[0];
    const globexPolicy = (await globex('GET', '/v1/policies/')).body.results[0];
    const answer = await globex('POST', `/v1/policies/${globexPolicy.id}/versions/`, { content: {}, base_version_id: acmePolicy.current_version_id });
    assert.equal(answer.status, 400);
  });

  it('keeps dataset files private: no listing, upload into or deleting across organizations', async () => {
    const acmeDataset = (await acme('GET', '/v1/datasets/?search=invoices')).body.results[0];
    const acmeFile = (await acme('GET', `/v1/datasets/${acmeDataset.id}/files/`)).body.results[0];
    const globexDataset = (await globex('GET', '/v1/datasets/')).body.results[0];
    assert.equal((await globex('GET', `/v1/datasets/${acmeDataset.id}/files/`)).status, 404);
    assert.equal((await acme('GET', `/v1/datasets/${globexDataset.id}/files/`)).status, 404);
    assert.equal((await globex('DELETE', `/v1/datasets/${acmeDataset.id}/files/${acmeFile.id}/`)).status, 404);
    const data = new FormData();
    data.set('dataset_id', acmeDataset.id);
    data.set('file', new Blob(['sneaky']), 'sneaky.txt');
    const sneaky = await t.call('POST', '/v1/datasets/files/upload/', { rawBody: data, token: OTHER_TOKEN, org: OTHER_ORGANIZATION_ID });
    assert.equal(sneaky.status, 404);
    assert.equal((await acme('GET', `/v1/datasets/${acmeDataset.id}/files/`)).body.count, 3);
    const personal = (await t.call('GET', '/v1/datasets/', { org: null })).body.results[0];
    assert.equal((await t.call('GET', `/v1/datasets/${personal.id}/files/`, { token: OTHER_TOKEN, org: null })).status, 404);
  });

  it('keeps database query results to the organization that asked', async () => {
    const submitted = await acme('POST', '/v1/database/query/', { query: 'SELECT secret FROM acme' });
    const id = submitted.body.worksheet_query_id;
    await eventually(async () => ((await acme('GET', `/v1/database/query/${id}/result/`)).body.status === 'SUCCESS' ? true : undefined));
    assert.equal((await globex('GET', `/v1/database/query/${id}/result/`)).status, 404);
  });
});
