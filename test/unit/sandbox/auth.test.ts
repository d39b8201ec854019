import * as assert from 'node:assert/strict';
import { MISSING_ID, OTHER_ORGANIZATION_ID, OTHER_TOKEN, type TestSandbox, startTestSandbox } from './helpers';

describe('sandbox authentication and routing', () => {
  let t: TestSandbox;
  before(async () => {
    t = await startTestSandbox();
  });
  after(() => t.close());

  it('answers 401 when the Authorization header is missing', async () => {
    const answer = await t.call('GET', '/v1/agents/', { token: null });
    assert.equal(answer.status, 401);
    assert.equal(answer.body.detail, 'Authentication credentials were not provided.');
    assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
  });

  it('answers 401 for an unknown token and for a header that is not Bearer', async () => {
    assert.equal((await t.call('GET', '/v1/agents/', { token: 'not-a-real-token' })).status, 401);
    const basic = await t.call('GET', '/v1/agents/', { token: null, headers: { Authorization: 'Basic dXNlcjpwYXNz' } });
    assert.equal(basic.status, 401);
    assert.match(basic.body.detail, /Bearer/);
  });

  it('answers 403 for an organization the user does not belong to, existing or not', async () => {
    const other = await t.call('GET', '/v1/agents/', { org: OTHER_ORGANIZATION_ID });
    assert.equal(other.status, 403);
    assert.ok(other.body.detail);
    assert.equal((await t.call('GET', '/v1/agents/', { org: MISSING_ID })).status, 403);
  });

  it('requires organization_id on agents, jobs, policies and queries, and names the field', async () => {
    for (const path of ['/v1/agents/', '/v1/policies/', `/v1/agents/jobs/${MISSING_ID}/status/`, `/v1/database/query/${MISSING_ID}/result/`]) {
      const answer = await t.call('GET', path, { org: null });
      assert.equal(answer.status, 400, path);
      assert.deepEqual(answer.body, { organization_id: ['This field is required.'] }, path);
    }
  });

  it('rejects an organization_id that is not a UUID with 400 naming the field', async () => {
    const answer = await t.call('GET', '/v1/agents/', { org: 'acme' });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, { organization_id: ['Must be a valid UUID.'] });
  });

  it('answers 404 for unknown routes and for ids that are not UUIDs, like Django URL routing', async () => {
    for (const path of ['/v1/nothing/', '/v2/agents/', '/v1/agents/not-a-uuid/', '/v1/agents/%E0%A4%A/', '/v1/policies/123/versions/']) {
      const answer = await t.call('GET', path);
      assert.equal(answer.status, 404, path);
      assert.deepEqual(answer.body, { detail: 'Not found.' }, path);
    }
  });

  it('answers 404 without a token for unknown routes, but 401 before 405 for known ones', async () => {
    assert.equal((await t.call('GET', '/v1/unknown/', { token: null })).status, 404);
    assert.equal((await t.call('DELETE', '/v1/agents/', { token: null })).status, 401);
  });

  it('answers 405 with an Allow header for a wrong method', async () => {
    const answer = await t.call('DELETE', '/v1/agents/');
    assert.equal(answer.status, 405);
    assert.equal(answer.headers.get('allow'), 'GET, POST');
    assert.equal(answer.body.detail, 'Method "DELETE" not allowed.');
    assert.equal((await t.call('PUT', `/v1/agents/jobs/${MISSING_ID}/status/`)).status, 405);
  });

  it('accepts paths without the trailing slash', async () => {
    assert.equal((await t.call('GET', '/v1/agents')).status, 200);
  });

  it('lets a user of the second organization in there, and only there', async () => {
    assert.equal((await t.call('GET', '/v1/agents/', { token: OTHER_TOKEN, org: OTHER_ORGANIZATION_ID })).status, 200);
    assert.equal((await t.call('GET', '/v1/agents/', { token: OTHER_TOKEN })).status, 403);
  });

  it('logs one line per request with method, path, status and time, never the token or the query', async () => {
    await t.call('GET', '/v1/agents/?search=secret-search');
    const line = t.logs.filter((l) => l.startsWith('GET /v1/agents/ ')).pop();
    assert.match(line ?? '', /^GET \/v1\/agents\/ 200 \d+\.\dms$/);
    assert.ok(t.logs.every((l) => !l.includes(t.token) && !l.includes(OTHER_TOKEN) && !l.includes('secret-search')));
  });
});
