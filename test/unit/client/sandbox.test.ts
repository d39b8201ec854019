import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isFinalStatus, JobStatus } from '../../../src/core/jobStatus';
import { isFinalQueryStatus } from '../../../src/core/serviceDecisions';
import { ServiceClient, type Page, type ServiceError } from '../../../src/core/client';
import { startSandbox } from '../../../src/sandbox/server';
import { rejectionOf } from './helpers/fakeService';
import { duplicateAgentAs } from '../../../src/core/agentDuplicate';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const OTHER_USER = { token: 'other-user-token-5f2a', organizationIds: ['7a1c5e90-3b2d-4f68-8c47-1e9d0b6a2f35'] };

/** Collects every page of an iterator. */
async function allPages<T>(pages: AsyncIterable<Page<T>>): Promise<Array<Page<T>>> {
  const out: Array<Page<T>> = [];
  for await (const page of pages) out.push(page);
  return out;
}

async function allItems<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Polls until `read` gives a value `done` accepts, or fails after `timeoutMs`. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`still not done after ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('service client against the sandbox', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let client: ServiceClient;
  let dir: string;

  before(async () => {
    sandbox = await startSandbox({ port: 0, memory: true, seed: 'demo', users: [OTHER_USER], jobStepMs: 150, log: () => undefined });
    client = new ServiceClient({ baseUrl: sandbox.baseUrl, token: sandbox.token, organizationId: sandbox.organizationId });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-sandbox-client-'));
  });
  after(async () => {
    await client?.close();
    await sandbox?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('agents', () => {
    it('lists agents, and pages() walks every page with counts that add up', async () => {
      const first = await client.agents.list({ page_size: 2 });
      assert.ok(first.count > 2, 'the demo seed has more than one page of agents');
      const pages = await allPages(client.agents.pages({ page_size: 2 }));
      assert.equal(pages.length, Math.ceil(first.count / 2));
      assert.deepEqual(pages.map((p) => p.page), pages.map((_, i) => i + 1));
      assert.equal(pages.reduce((n, p) => n + p.results.length, 0), first.count);
      assert.equal(pages.at(-1)?.nextPage, null);
      const ids = (await allItems(client.agents.items({ page_size: 3 }))).map((a) => a.id);
      assert.equal(new Set(ids).size, first.count);
    });

    it('filters agents by search and engine', async () => {
      const { results } = await client.agents.list({ page_size: 100 });
      const sample = results[0];
      assert.ok(sample);
      const byEngine = await client.agents.list({ engine_class_id: sample.engine_class_id, page_size: 100 });
      assert.ok(byEngine.results.length > 0 && byEngine.results.every((a) => a.engine_class_id === sample.engine_class_id));
      const bySearch = await client.agents.list({ search: sample.name.toUpperCase() });
      assert.ok(bySearch.results.some((a) => a.id === sample.id));
    });

    it('creates an agent, reads it, renames it, versions it and duplicates it', async () => {
      const created = await client.agents.create({
        name: 'Client suite agent',
        engine_class_id: 'document_classifier',
        version_name: 'first',
        input_definitions: [{ key: 'text', data_type: 'text/plain', description: 'What to classify' }],
        engine_config: { model: 'layout-classifier-3' },
      });
      assert.equal(created.name, 'Client suite agent');
      assert.equal(created.organization_id, sandbox.organizationId);
      assert.equal((await client.agents.get(created.id)).id, created.id);

      const renamed = await client.agents.update(created.id, { name: 'Client suite agent (renamed)', disable_cache: true });
      assert.equal(renamed.name, 'Client suite agent (renamed)');
      assert.equal(renamed.disable_cache, true);

      const current = await client.agents.currentVersion(created.id);
      assert.equal(current.id, renamed.current_version_id);
      assert.equal(current.version_name, 'first');

      const second = await client.agents.createVersion(created.id, {
        input_definitions: [{ key: 'text', data_type: 'text/plain' }, { key: 'language', data_type: 'text/plain' }],
        engine_config: { model: 'layout-classifier-3', confidence_threshold: '0.8' },
        version_name: 'second',
      });
      assert.equal(second.base_agent.id, created.id);
      assert.equal((await client.agents.get(created.id)).current_version_id, second.id);
      const versions = await client.agents.listVersions(created.id);
      assert.deepEqual(new Set(versions.map((v) => v.version_name)), new Set(['first', 'second']));
      const fetched = await client.agents.getVersion(created.id, second.id, { supportsEval: true });
      assert.deepEqual(fetched.input_definitions.map((d) => d.key), ['text', 'language']);

      const copy = await duplicateAgentAs(client, created.id, { name: 'Client suite copy' });
      assert.notEqual(copy.base_agent.id, created.id);
      assert.equal(copy.base_agent.name, 'Client suite copy');
    });

    it('shows a blank name as a field error', async () => {
      const [agent] = (await client.agents.list()).results;
      assert.ok(agent);
      const error = (await rejectionOf(client.agents.update(agent.id, { name: '' }))) as ServiceError;
      assert.equal(error.kind, 'http');
      assert.equal(error.status, 400);
      assert.ok(error.fieldErrors.name?.length, JSON.stringify(error.fieldErrors));
    });

    it('answers 404 with a detail for an agent that does not exist', async () => {
      const error = (await rejectionOf(client.agents.get('00000000-0000-4000-8000-000000000000'))) as ServiceError;
      assert.equal(error.status, 404);
      assert.equal(error.nonFieldErrors.length, 1);
    });
  });

  describe('jobs', () => {
    let agentId: string;

    before(async () => {
      const agent = await client.agents.create({
        name: 'Client suite runner',
        engine_class_id: 'document_classifier',
        input_definitions: [{ key: 'text', data_type: 'text/plain' }],
        engine_config: { model: 'layout-classifier-3' },
      });
      agentId = agent.id;
    });

    it('runs an agent and follows the job to a final status', async () => {
      const jobId = await client.agents.run(agentId, { inputs: { text: 'Invoice INV-1 for 20 EUR' }, metadata: { ticket: '7' } });
      assert.equal(typeof jobId, 'string');
      const record = await eventually(() => client.jobs.status(jobId), (r) => isFinalStatus(r.status));
      assert.equal(typeof record.timestamp, 'number');
      const [summary] = await client.jobs.statuses([jobId]);
      assert.equal(summary?.id, jobId);
      assert.equal(summary?.status, record.status);
      const jobs = await client.jobs.list(agentId, { ordering: ['-created_at'] });
      const listed = jobs.results.find((j) => j.id === jobId);
      assert.ok(listed, 'the job is listed');
      assert.equal(listed.job_inputs?.find((i) => i.key === 'text')?.value, 'Invoice INV-1 for 20 EUR');
      assert.equal(listed.metadata?.ticket, '7');
    });

    it('cancels a job that has not finished', async () => {
      const jobId = await client.agents.run(agentId, { inputs: { text: 'cancel me' } });
      await client.jobs.cancel(jobId);
      const record = await eventually(() => client.jobs.status(jobId), (r) => isFinalStatus(r.status));
      assert.equal(record.status, JobStatus.CANCELLED);
    });

    it('walks every page of a seeded agent’s jobs', async () => {
      const agents = await allItems(client.agents.items({ ordering: '-job_count', page_size: 100 }));
      const busiest = agents[0];
      assert.ok(busiest && (busiest.job_count ?? 0) > 10, 'a seeded agent has jobs');
      const pages = await allPages(client.jobs.pages(busiest.id, { page_size: 10 }));
      const count = pages[0]?.count ?? 0;
      assert.equal(pages.length, Math.ceil(count / 10));
      assert.equal(pages.reduce((n, p) => n + p.results.length, 0), count);
      const ids = (await allItems(client.jobs.items(busiest.id, { page_size: 25 }))).map((j) => j.id);
      assert.equal(new Set(ids).size, count);
    });

    it('filters jobs by status code', async () => {
      const [agent] = (await client.agents.list({ ordering: '-job_count' })).results;
      assert.ok(agent);
      const succeeded = await client.jobs.list(agent.id, { status_code: JobStatus.SUCCESS, page_size: 100 });
      assert.ok(succeeded.results.every((j) => j.status_code === JobStatus.SUCCESS));
    });
  });

  describe('policies', () => {
    it('creates, reads, renames, versions and deletes a policy', async () => {
      const content = { instructions: 'Greet the customer by name.' };
      const created = await client.policies.create({ name: 'Client suite policy', description: 'made by a test', content });
      assert.ok(created.current_version_id);
      assert.equal((await client.policies.get(created.id)).name, 'Client suite policy');
      const renamed = await client.policies.update(created.id, { name: 'Client suite policy (renamed)' });
      assert.equal(renamed.name, 'Client suite policy (renamed)');

      const first = await client.policies.getVersion(created.id, created.current_version_id);
      assert.deepEqual(first.content, content);
      const second = await client.policies.createVersion(created.id, {
        content: { ...content, summary_template: { template: 'Verdict: {{verdict}}' } },
        version_name: 'with summary',
        base_version_id: first.id,
      });
      assert.equal(second.version_name, 'with summary');
      assert.equal((await client.policies.get(created.id)).current_version_id, second.id);
      const versions = await client.policies.listVersions(created.id);
      assert.equal(versions.count, 2);
      const walked = await allItems(client.policies.versionItems(created.id, { page_size: 1 }));
      assert.deepEqual(new Set(walked.map((v) => v.id)), new Set([first.id, second.id]));
      assert.equal((await allPages(client.policies.versionPages(created.id, { page_size: 1 }))).length, 2);

      await client.policies.delete(created.id);
      const gone = (await rejectionOf(client.policies.get(created.id))) as ServiceError;
      assert.equal(gone.status, 404);
    });

    it('lists policies page by page', async () => {
      const first = await client.policies.list({ page_size: 1 });
      const pages = await allPages(client.policies.pages({ page_size: 1 }));
      assert.equal(pages.length, first.count);
      assert.equal((await allItems(client.policies.items({ search: '' }))).length, first.count);
    });

    it('refuses to delete a policy that an agent uses, and names the agent', async () => {
      let user: { agentId: string; policyId: string } | undefined;
      for await (const agent of client.agents.items()) {
        const config = (await client.agents.currentVersion(agent.id)).engine_config as Record<string, unknown> | null;
        if (typeof config?.policy_id === 'string') {
          user = { agentId: agent.id, policyId: config.policy_id };
          break;
        }
      }
      assert.ok(user, 'a seeded agent uses a policy');
      const refused = (await rejectionOf(client.policies.delete(user.policyId))) as ServiceError;
      assert.equal(refused.status, 409);
      assert.equal(refused.nonFieldErrors.length, 1);
      const dependents = (refused.body as { dependent_agents?: unknown }).dependent_agents;
      assert.ok(Array.isArray(dependents) && JSON.stringify(dependents).includes(user.agentId), JSON.stringify(dependents));
      assert.equal((await client.policies.get(user.policyId)).id, user.policyId);
    });
  });

  describe('datasets', () => {
    it('lists datasets and walks the files of each', async () => {
      const datasets = await allItems(client.datasets.items({ page_size: 1 }));
      assert.equal(datasets.length, (await client.datasets.list()).count);
      const [dataset] = datasets;
      assert.ok(dataset);
      const files = await client.datasets.listFiles(dataset.id, { page_size: 2 });
      const pages = await allPages(client.datasets.filePages(dataset.id, { page_size: 2 }));
      assert.equal(pages.reduce((n, p) => n + p.results.length, 0), files.count);
      const items = await allItems(client.datasets.fileItems(dataset.id));
      assert.ok(items.every((f) => f.dataset.id === dataset.id));
      assert.equal(items.length, files.count);
    });

    it('uploads a file with progress into a dataset, then deletes it', async () => {
      const [dataset] = (await client.datasets.list()).results;
      assert.ok(dataset);
      const before = (await client.datasets.listFiles(dataset.id)).count;
      const filePath = path.join(dir, 'client-suite.csv');
      fs.writeFileSync(filePath, 'id,text\n1,hello\n');
      let progress = 0;
      const file = await client.datasets.upload({ filePath, datasetId: dataset.id, metadata: { source: 'test' }, onProgress: (n) => (progress = n) });
      assert.equal(file.name, 'client-suite.csv');
      assert.equal(file.size, 16);
      assert.equal(file.dataset.id, dataset.id);
      assert.ok(progress > 16);
      assert.equal((await client.datasets.listFiles(dataset.id)).count, before + 1);
      await client.datasets.deleteFile(dataset.id, file.id);
      assert.equal((await client.datasets.listFiles(dataset.id)).count, before);
    });

    it('uploads to the personal dataset without an organization', async () => {
      const [personal] = (await client.datasets.list({ personal: true })).results;
      assert.ok(personal);
      const filePath = path.join(dir, 'mine.txt');
      fs.writeFileSync(filePath, 'private notes');
      const file = await client.datasets.upload({ filePath, personal: true });
      assert.equal(file.dataset.id, personal.id);
      const files = await allItems(client.datasets.fileItems(personal.id, { personal: true }));
      assert.ok(files.some((f) => f.id === file.id));
      await client.datasets.deleteFile(personal.id, file.id, { personal: true });
    });
  });

  describe('database', () => {
    it('submits a query and reads its result, with NULL kept as null', async () => {
      const submitted = await client.database.submitQuery('SELECT 1 AS one, NULL AS empty');
      assert.ok(submitted.worksheet_query_id);
      const result = await eventually(() => client.database.getResult(submitted.worksheet_query_id), (r) => isFinalQueryStatus(r.status));
      assert.equal(result.status, 'SUCCESS', result.error ?? '');
      const [first] = result.results ?? [];
      assert.deepEqual(first?.column_names, ['one', 'empty']);
      assert.deepEqual(first?.result_rows, [['1', null]]);
    });

    it('reports a failed query in the result’s error, not as a request failure', async () => {
      const submitted = await client.database.submitQuery('SELECT * FROM no_such_table');
      const result = await eventually(() => client.database.getResult(submitted.worksheet_query_id), (r) => isFinalQueryStatus(r.status));
      assert.equal(result.status, 'FAILURE');
      assert.ok(result.error);
    });
  });

  describe('access', () => {
    it('answers 401 to a wrong token', async () => {
      const stranger = new ServiceClient({ baseUrl: sandbox.baseUrl, token: 'not-a-real-token', organizationId: sandbox.organizationId });
      try {
        const error = (await rejectionOf(stranger.agents.list())) as ServiceError;
        assert.equal(error.status, 401);
      } finally {
        await stranger.close();
      }
    });

    it('answers 403 to a user of another organization', async () => {
      const outsider = new ServiceClient({ baseUrl: sandbox.baseUrl, token: OTHER_USER.token, organizationId: sandbox.organizationId });
      try {
        const error = (await rejectionOf(outsider.agents.list())) as ServiceError;
        assert.equal(error.status, 403);
        assert.equal(error.nonFieldErrors.length, 1);
      } finally {
        await outsider.close();
      }
    });
  });
});
