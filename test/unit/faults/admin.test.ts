import * as assert from 'node:assert/strict';
import { FaultAdminClient } from '../../../src/sandbox/faults/adminClient';
import { sameSecret } from '../../../src/sandbox/faults/admin';
import { isLoopback } from '../../../src/sandbox/faults/loopback';
import { startSandbox } from '../../../src/sandbox/server';
import { type TestSandbox, startTestSandbox } from '../sandbox/helpers';
import { bearer, rawRequest } from './support';

const ADMIN = '/__admin/faults';

describe('sandbox fault admin endpoint', () => {
  let t: TestSandbox;
  let admin: FaultAdminClient;
  const asAdmin = (method: string, body?: unknown, path = ADMIN) =>
    rawRequest(t.baseUrl, method, path, {
      headers: { 'X-Sandbox-Admin': t.sandbox.adminSecret, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  before(async () => {
    t = await startTestSandbox({ adminSecret: 'a-known-admin-secret-for-tests' });
    admin = new FaultAdminClient(t.baseUrl, t.sandbox.adminSecret);
  });
  afterEach(() => t.sandbox.clearFaults());
  after(() => t.close());

  it('answers exactly like an unknown path without the secret, with a wrong one, or with a bearer token instead', async () => {
    const unknown = await rawRequest(t.baseUrl, 'GET', '/v1/no-such-thing/', { headers: bearer(t.token) });
    const attempts = [
      await rawRequest(t.baseUrl, 'GET', ADMIN),
      await rawRequest(t.baseUrl, 'GET', ADMIN, { headers: { 'X-Sandbox-Admin': 'a-known-admin-secret-for-test' } }),
      await rawRequest(t.baseUrl, 'GET', ADMIN, { headers: { 'X-Sandbox-Admin': `${t.sandbox.adminSecret}x` } }),
      await rawRequest(t.baseUrl, 'PUT', ADMIN, { headers: { ...bearer(t.token), 'Content-Type': 'application/json' }, body: '[]' }),
      await rawRequest(t.baseUrl, 'DELETE', ADMIN, { headers: bearer(t.token) }),
    ];
    for (const answer of attempts) {
      assert.equal(answer.status, 404);
      assert.equal(answer.body.toString(), unknown.body.toString());
      assert.equal(answer.headers['content-type'], unknown.headers['content-type']);
    }
  });

  it('answers 404 for other paths under the admin prefix even with the secret', async () => {
    assert.equal((await asAdmin('GET', undefined, '/__admin/')).status, 404);
    assert.equal((await asAdmin('GET', undefined, '/__admin/users/')).status, 404);
  });

  it('sets, lists, adds to and clears the rules, with how many requests each one hit', async () => {
    const put = await asAdmin('PUT', [{ path: '/v1/agents/', kind: 'status', status: 503, count: 1 }]);
    assert.equal(put.status, 200);
    assert.equal(JSON.parse(put.body.toString()).faults.length, 1);
    assert.equal((await rawRequest(t.baseUrl, 'GET', `/v1/agents/?organization_id=${t.orgId}`, { headers: bearer(t.token) })).status, 503);
    const added = await asAdmin('POST', { path: '/v1/policies/', kind: 'latency', ms: 1 });
    assert.equal(JSON.parse(added.body.toString()).faults.length, 2);
    const listed = JSON.parse((await asAdmin('GET')).body.toString());
    assert.deepEqual(listed.faults.map((f: { hits: number; remaining: number | null }) => [f.hits, f.remaining]), [[1, 0], [0, null]]);
    const cleared = await asAdmin('DELETE');
    assert.equal(cleared.status, 204);
    assert.deepEqual(t.sandbox.faultReport(), []);
  });

  it('refuses a bad rule with 400 naming it, and keeps the rules in force', async () => {
    await admin.set([{ path: '/v1/agents/', kind: 'truncate' }]);
    const bad = await asAdmin('PUT', [{ path: '/v1/agents/', kind: 'truncate' }, { path: '/x/', kind: 'status', status: 200 }]);
    assert.equal(bad.status, 400);
    assert.match(JSON.parse(bad.body.toString()).detail, /^faults\[1\]\.status: expected a whole number from 400 to 599/);
    const notJson = await rawRequest(t.baseUrl, 'PUT', ADMIN, { headers: { 'X-Sandbox-Admin': t.sandbox.adminSecret, 'Content-Type': 'application/json' }, body: '[{' });
    assert.equal(notJson.status, 400);
    assert.equal((await admin.report()).length, 1);
    assert.equal((await asAdmin('PATCH', [])).status, 405);
  });

  it('answers 413 for a rules body over 1 MB', async () => {
    const answer = await asAdmin('PUT', [{ path: '/v1/agents/', kind: 'status', status: 500, body: 'x'.repeat(1024 * 1024) }]);
    assert.equal(answer.status, 413);
  });

  it('is never broken by the faults it sets, even a rule for every path', async () => {
    await admin.set([{ path: '/**', kind: 'reset' }, { path: '^/__admin', kind: 'status', status: 500 }]);
    assert.equal((await admin.report()).length, 2);
    await admin.clear();
    assert.deepEqual(await admin.report(), []);
  });

  it('switches faults for a test through the admin client, as a test of another process would', async () => {
    const report = await admin.set([{ path: '/v1/policies/', kind: 'html' }]);
    assert.deepEqual(report, [{ rule: { path: '/v1/policies/', kind: 'html' }, hits: 0, remaining: null }]);
    const page = await rawRequest(t.baseUrl, 'GET', `/v1/policies/?organization_id=${t.orgId}`, { headers: bearer(t.token) });
    assert.match(String(page.headers['content-type']), /html/);
    assert.equal((await admin.report())[0]?.hits, 1);
    await assert.rejects(new FaultAdminClient(t.baseUrl, 'wrong-secret-wrong-secret').report(), /answered 404/);
  });

  it('makes a new random secret on every start unless one is given, and refuses a short one', async () => {
    const first = await startSandbox({ port: 0, memory: true, seed: 'empty', log: () => {} });
    const second = await startSandbox({ port: 0, memory: true, seed: 'empty', log: () => {} });
    try {
      assert.ok(first.adminSecret.length >= 32);
      assert.notEqual(first.adminSecret, second.adminSecret);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
    await assert.rejects(startSandbox({ port: 0, memory: true, adminSecret: 'short', log: () => {} }), /at least 16 characters/);
    await assert.rejects(startSandbox({ port: 0, memory: true, faults: [{ path: '/x/', kind: 'nope' } as never], log: () => {} }), /faults\[0\]\.kind/);
  });

  it('compares secrets whatever their lengths, and takes only requests from this machine', () => {
    assert.ok(sameSecret('the-same-secret-1234', 'the-same-secret-1234'));
    assert.ok(!sameSecret('the-same-secret-123', 'the-same-secret-1234'));
    assert.ok(!sameSecret('', 'the-same-secret-1234'));
    for (const local of ['127.0.0.1', '127.3.4.5', '::1', '::ffff:127.0.0.1', 'localhost', '[::1]']) assert.ok(isLoopback(local), local);
    for (const remote of ['0.0.0.0', '10.0.0.1', '::', '::ffff:10.0.0.1', '192.168.1.20', 'example.org', '1270.0.0.1']) assert.ok(!isLoopback(remote), remote);
  });
});
