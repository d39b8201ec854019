import * as assert from 'node:assert/strict';
import { type TestSandbox, startTestSandbox } from '../sandbox/helpers';
import { bearer, rawRequest } from './support';

/** Each kind of fault as a client on the wire sees it, against a sandbox with the demo data. */
describe('sandbox fault mode: what each fault does to an answer', () => {
  let t: TestSandbox;
  const agentsPage = () => `/v1/agents/?organization_id=${t.orgId}&page_size=2&ordering=name`;
  const get = (path: string) => rawRequest(t.baseUrl, 'GET', path, { headers: bearer(t.token) });

  before(async () => {
    t = await startTestSandbox();
  });
  afterEach(() => t.sandbox.clearFaults());
  after(() => t.close());

  it('serves every request as usual while no rule is set', async () => {
    assert.deepEqual(t.sandbox.faultReport(), []);
    const answer = await get(agentsPage());
    assert.equal(answer.status, 200);
    assert.equal(JSON.parse(answer.body.toString()).results.length, 2);
  });

  it('answers 500 with JSON, 502/503/504 with a proxy\'s HTML page, and 429 with Retry-After', async () => {
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'status', status: 500 }]);
    const failed = await get(agentsPage());
    assert.equal(failed.status, 500);
    assert.deepEqual(JSON.parse(failed.body.toString()), { detail: 'A server error occurred.' });
    for (const status of [502, 503, 504]) {
      t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'status', status }]);
      const page = await get(agentsPage());
      assert.equal(page.status, status);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.match(page.body.toString(), new RegExp(`<title>${status} `));
    }
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'status', status: 429, retryAfter: 7 }]);
    const throttled = await get(agentsPage());
    assert.equal(throttled.status, 429);
    assert.equal(throttled.headers['retry-after'], '7');
    assert.match(JSON.parse(throttled.body.toString()).detail, /throttled.*7 seconds/);
  });

  it('breaks exactly one operation: another method on the same path, and other paths, are served as usual', async () => {
    const agent = JSON.parse((await get(agentsPage())).body.toString()).results[0];
    t.sandbox.setFaults([{ path: '/v1/agents/*/', method: 'PUT', kind: 'status', status: 503 }]);
    const put = await rawRequest(t.baseUrl, 'PUT', `/v1/agents/${agent.id}/?organization_id=${t.orgId}`, {
      headers: { ...bearer(t.token), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Renamed by a broken request' }),
    });
    assert.equal(put.status, 503);
    const read = await get(`/v1/agents/${agent.id}/?organization_id=${t.orgId}`);
    assert.equal(read.status, 200);
    assert.equal(JSON.parse(read.body.toString()).name, agent.name, 'the refused update did not happen');
    assert.equal((await get(agentsPage())).status, 200);
    assert.equal((await get(`/v1/agents/${agent.id}/versions/?organization_id=${t.orgId}`)).status, 200);
    assert.deepEqual(t.sandbox.faultReport().map((r) => r.hits), [1]);
  });

  /** Sends a delayed request, then ordinary ones until it answers: how many of those were answered first. */
  async function answeredMeanwhile(delayed: Promise<{ status?: number }>): Promise<{ status?: number; meanwhile: number }> {
    let settled: { status?: number } | undefined;
    void delayed.then((answer) => (settled = answer));
    let meanwhile = 0;
    while (!settled) {
      assert.equal((await get(`/v1/datasets/?page_size=1&organization_id=${t.orgId}`)).status, 200);
      if (!settled) meanwhile++;
    }
    return { status: settled.status, meanwhile };
  }

  it('waits the latency before answering, and combines it with another fault', async () => {
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'latency', ms: 1500 }]);
    const late = await answeredMeanwhile(get(agentsPage()));
    assert.equal(late.status, 200);
    assert.ok(late.meanwhile >= 1, 'other requests were answered while it waited');
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'latency', ms: 1500 }, { path: '/v1/agents/', kind: 'status', status: 503 }]);
    const lateRefusal = await answeredMeanwhile(get(agentsPage()));
    assert.equal(lateRefusal.status, 503);
    assert.ok(lateRefusal.meanwhile >= 1, 'other requests were answered while the refusal waited');
    assert.ok(t.logs.some((line) => /^GET \/v1\/agents\/ 503 \(fault: status\+latency\) /.test(line)), 'the log line names the fault');
  });

  it('cuts the connection before any byte of answer when a reset comes before the operation', async () => {
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'reset' }]);
    const answer = await get(agentsPage());
    assert.equal(answer.status, undefined);
    assert.ok(answer.error, 'the client sees a failed connection');
  });

  it('sends the headers and the first bytes of the answer, then cuts, when a reset comes after the operation', async () => {
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'reset', after: true, bytes: 40 }]);
    const cut = await get(agentsPage());
    assert.equal(cut.status, 200);
    assert.ok(Number(cut.headers['content-length']) > 40);
    assert.equal(cut.body.length, 40);
    assert.equal(cut.complete, false);
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'reset', after: true }]);
    const half = await get(agentsPage());
    assert.equal(half.body.length, Math.floor(Number(half.headers['content-length']) / 2), 'half of the body by default');
  });

  it('cuts an upload after the given bytes, so the operation never sees its whole body', async () => {
    const before = JSON.parse((await get(`/v1/policies/?organization_id=${t.orgId}`)).body.toString()).count;
    t.sandbox.setFaults([{ path: '/v1/policies/', method: 'POST', kind: 'reset', when: 'upload', bytes: 30_000 }]);
    const body = JSON.stringify({ name: 'Cut short', content: { instructions: 'x'.repeat(100_000) } });
    const answer = await rawRequest(t.baseUrl, 'POST', `/v1/policies/?organization_id=${t.orgId}`, {
      headers: { ...bearer(t.token), 'Content-Type': 'application/json' }, body, chunkBytes: 8192,
    });
    assert.equal(answer.status, undefined);
    assert.ok(answer.error);
    t.sandbox.clearFaults();
    assert.equal(JSON.parse((await get(`/v1/policies/?organization_id=${t.orgId}`)).body.toString()).count, before);
    assert.deepEqual(t.logs.filter((line) => line.startsWith('sandbox: error')), [], 'a cut body is not a bug of the sandbox');
  });

  it('cuts even a request without a body when an upload reset names it', async () => {
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'reset', when: 'upload' }]);
    const answer = await get(agentsPage());
    assert.equal(answer.status, undefined);
  });

  it('truncates a success to the first half of its JSON, in a complete HTTP message', async () => {
    const whole = (await get(agentsPage())).body.toString();
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'truncate' }]);
    const cut = await get(agentsPage());
    assert.equal(cut.status, 200);
    assert.equal(cut.complete, true);
    assert.equal(Number(cut.headers['content-length']), cut.body.length);
    assert.equal(cut.body.toString(), whole.slice(0, Math.floor(whole.length / 2)));
    assert.throws(() => JSON.parse(cut.body.toString()));
  });

  it('answers malformed JSON that is one quote style away from the real answer', async () => {
    const whole = (await get(agentsPage())).body.toString();
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'malformed' }]);
    const bad = (await get(agentsPage())).body.toString();
    assert.throws(() => JSON.parse(bad));
    assert.equal(bad.replace(/'/g, '"'), whole.replace(/'/g, '"'));
  });

  it('answers valid JSON with wrong types: numbers and booleans as strings, and no id fields', async () => {
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'wrongTypes' }]);
    const page = JSON.parse((await get(agentsPage())).body.toString());
    assert.equal(typeof page.count, 'string');
    assert.ok(page.results.length > 0);
    for (const agent of page.results) {
      assert.equal(agent.id, undefined);
      assert.equal(typeof agent.disable_cache, 'string');
    }
  });

  it('puts a 5 MB string into the name of the answer\'s first item', async () => {
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'huge' }]);
    const answer = await get(agentsPage());
    const page = JSON.parse(answer.body.toString());
    assert.equal(page.results[0].name.length, 5 * 1024 * 1024);
    assert.ok(page.results[1].name.length < 200);
  });

  it('answers a 200 HTML sign-in page in place of the service', async () => {
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'html' }]);
    const page = await get(agentsPage());
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body.toString(), /^<!DOCTYPE html>/);
  });

  it('moves next and previous links of a page to another host and port, keeping path and query', async () => {
    const real = JSON.parse((await get(`${agentsPage()}&page=2`)).body.toString());
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'foreignNext', origin: 'http://10.9.8.7:9999' }]);
    const page = JSON.parse((await get(`${agentsPage()}&page=2`)).body.toString());
    for (const key of ['next', 'previous']) {
      const [foreign, ours] = [new URL(page[key]), new URL(real[key])];
      assert.equal(foreign.origin, 'http://10.9.8.7:9999');
      assert.equal(foreign.pathname + foreign.search, ours.pathname + ours.search);
    }
    assert.deepEqual(page.results, real.results);
  });

  it('repeats an item of a page, or adds a given one, as a list that shifts or overlaps another does', async () => {
    const real = JSON.parse((await get(agentsPage())).body.toString());
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'insert', count: 1 }]);
    const repeated = JSON.parse((await get(agentsPage())).body.toString());
    assert.deepEqual(repeated.results, [...real.results, real.results[0]]);
    assert.equal(repeated.count, real.count);
    const stranger = { id: 'dataset-from-elsewhere', name: 'Elsewhere' };
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'insert', item: stranger, at: 0 }]);
    const added = JSON.parse((await get(agentsPage())).body.toString());
    assert.deepEqual(added.results, [stranger, ...real.results]);
  });

  it('lets failures and link-less pages through a shaping fault, without counting them as hits', async () => {
    t.sandbox.setFaults([{ path: '/v1/agents/**', kind: 'truncate' }, { path: '/v1/policies/', kind: 'foreignNext' }]);
    const missing = await get(`/v1/agents/00000000-0000-4000-8000-000000000000/?organization_id=${t.orgId}`);
    assert.equal(missing.status, 404);
    assert.deepEqual(JSON.parse(missing.body.toString()), { detail: 'Not found.' });
    const onePage = JSON.parse((await get(`/v1/policies/?organization_id=${t.orgId}&page_size=1000`)).body.toString());
    assert.equal(onePage.next, null);
    assert.deepEqual(t.sandbox.faultReport().map((r) => r.hits), [0, 0]);
    assert.ok(t.logs.some((line) => /^GET \/v1\/policies\/ 200 \d/.test(line)), 'the log names no fault that did not apply');
  });

  it('spends a counted rule, then serves as usual', async () => {
    t.sandbox.setFaults([{ path: '/v1/agents/', kind: 'status', status: 503, count: 2 }]);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(agentsPage())).status);
    assert.deepEqual(statuses, [503, 503, 200, 200]);
    assert.deepEqual(t.sandbox.faultReport()[0], { rule: { path: '/v1/agents/', kind: 'status', status: 503, count: 2 }, hits: 2, remaining: 0 });
  });
});
