import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RequestEvent, ServiceClient } from '../../../src/core/client';
import { type TestSandbox, startTestSandbox } from '../sandbox/helpers';
import { failureOf } from './support';

/** The service client against the sandbox in fault mode: reads recover, broken answers become one clear error. */
describe('service client under sandbox faults', () => {
  let t: TestSandbox;
  let client: ServiceClient;
  let events: RequestEvent[];
  const attempts = (operation: string) => events.filter((e) => e.operation === operation).length;

  before(async () => {
    t = await startTestSandbox();
    client = new ServiceClient({
      baseUrl: t.baseUrl, token: t.token, organizationId: t.orgId,
      onRequest: (event) => events.push(event), retry: { baseDelayMs: 5, maxDelayMs: 20 },
    });
  });
  beforeEach(() => {
    events = [];
  });
  afterEach(() => t.sandbox.clearFaults());
  after(async () => {
    await client.close();
    await t.close();
  });

  it('reads a list after two 503 pages from a proxy', async () => {
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'status', status: 503, count: 2 }]);
    const page = await client.agents.list();
    assert.ok(page.count > 0);
    assert.equal(attempts('listAgents'), 3);
  });

  it('waits as long as a 429 asks before reading again', async () => {
    t.sandbox.setFaults([{ path: '/v1/policies/', kind: 'status', status: 429, retryAfter: 2, count: 1 }]);
    const served = t.logs.length;
    const listed = client.policies.list();
    // Once the 429 is answered, a request of our own goes through while the client still waits.
    for (;;) {
      if (t.logs.slice(served).some((line) => line.startsWith('GET /v1/policies/') && / 429 /.test(line))) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.equal((await fetch(`${t.baseUrl}/v1/datasets/?page_size=1`, { headers: { Authorization: `Bearer ${t.token}` } })).status, 200);
    await listed;
    const order = t.logs.slice(served).filter((line) => /^GET \/v1\/(policies|datasets)\//.test(line)).map((line) => line.split(' ').slice(0, 3).join(' ').replace(/\?.*? /, ' '));
    assert.deepEqual(order, ['GET /v1/policies/ 429', 'GET /v1/datasets/ 200', 'GET /v1/policies/ 200']);
    assert.equal(attempts('listPolicies'), 2);
  });

  it('reads again after a connection cut before or during the answer', async () => {
    t.sandbox.setFaults([{ path: '/v1/datasets/', kind: 'reset', count: 1 }, { path: '/v1/datasets/', kind: 'reset', after: true, count: 1 }]);
    const page = await client.datasets.list();
    assert.ok(page.count > 0);
    assert.equal(attempts('listDatasets'), 3);
  });

  it('fails a slow read at its timeout with a timeout error, and the next call succeeds', async () => {
    const impatient = new ServiceClient({ baseUrl: t.baseUrl, token: t.token, organizationId: t.orgId, timeoutMs: 300 });
    try {
      const agentId = (await impatient.agents.list({ page_size: 1 })).results[0]!.id;
      t.sandbox.setFaults([{ path: '/v1/agents/*/', method: 'GET', kind: 'latency', ms: 5000, count: 1 }]);
      const error = await failureOf(impatient.agents.get(agentId));
      assert.equal(error.kind, 'timeout');
      assert.match(error.message, /did not answer within 0.3 s/);
      assert.equal((await impatient.agents.get(agentId)).id, agentId);
    } finally {
      await impatient.close();
    }
  });

  it('turns a truncated, malformed, mistyped or HTML answer into one parse error naming the operation, without reading again', async () => {
    const cases: [string, RegExp][] = [
      ['truncate', /^listPolicies: the answer is not valid JSON/],
      ['malformed', /^listPolicies: the answer is not valid JSON/],
      ['wrongTypes', /^listPolicies: count: expected number, got string/],
      ['html', /^listPolicies: the service answered with a web page \(text\/html\)/],
    ];
    for (const [kind, message] of cases) {
      t.sandbox.setFaults([{ path: '/v1/policies/', kind } as never]);
      events = [];
      const error = await failureOf(client.policies.list());
      assert.equal(error.kind, 'parse', kind);
      assert.match(error.message, message);
      assert.equal(attempts('listPolicies'), 1, `${kind} is not read again`);
    }
  });

  it('names the field of a mistyped status record', async () => {
    const agent = (await client.agents.list({ search: 'support call' })).results[0]!;
    const job = (await client.jobs.list(agent.id, { page_size: 1 })).results[0]!;
    t.sandbox.setFaults([{ path: '/v1/agents/jobs/*/status/', kind: 'wrongTypes' }]);
    const error = await failureOf(client.jobs.status(job.id));
    assert.match(error.message, /^getJobStatus: status: expected number, got string/);
  });

  it('reads a 5 MB name without trouble', async () => {
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'huge' }]);
    const page = await client.agents.list({ page_size: 3 });
    assert.equal(page.results[0]!.name.length, 5 * 1024 * 1024);
  });

  it('walks every page by number when next links name another host, and never calls that host', async () => {
    const foreign: string[] = [];
    const trap = http.createServer((req, res) => {
      foreign.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.end('{}');
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
      const all = (await client.agents.list({ page_size: 100 })).results.map((a) => a.id);
      t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'foreignNext', origin }]);
      const walked: string[] = [];
      for await (const agent of client.agents.items({ page_size: 2 })) walked.push(agent.id);
      assert.deepEqual(walked, all);
      assert.ok(t.sandbox.faultReport()[0]!.hits >= 3);
      assert.deepEqual(foreign, [], 'the token never travels to the foreign host');
    } finally {
      trap.closeAllConnections();
      await new Promise((resolve) => trap.close(resolve));
    }
  });
});
