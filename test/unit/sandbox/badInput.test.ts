import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { MISSING_ID, type TestSandbox, fakeQueryEngine, startTestSandbox } from './helpers';

interface Route {
  method: string;
  path: string;
}

/** Every route of the sandbox, with real ids of the demo data (destructive ones aimed at things that stay). */
async function allRoutes(t: TestSandbox): Promise<Route[]> {
  const agent = (await t.call('GET', '/v1/agents/?search=support call')).body.results[0];
  const job = (await t.call('GET', `/v1/agents/${agent.id}/jobs/?page_size=1&status_code=3`)).body.results[0];
  const policy = (await t.call('GET', '/v1/policies/?search=call quality')).body.results[0];
  const dataset = (await t.call('GET', '/v1/datasets/')).body.results[0];
  const query = (await t.call('POST', '/v1/database/query/', { body: { query: 'SELECT 1' } })).body.worksheet_query_id;
  const a = `/v1/agents/${agent.id}`;
  const p = `/v1/policies/${policy.id}`;
  return [
    ['GET', '/v1/agents/'], ['POST', '/v1/agents/'], ['GET', `${a}/`], ['PUT', `${a}/`], ['PATCH', `${a}/`], ['POST', `${a}/duplicate/`],
    ['GET', `${a}/versions/`], ['POST', `${a}/versions/`], ['GET', `${a}/versions/current/`], ['GET', `${a}/versions/${agent.current_version_id}/`],
    ['GET', `${a}/jobs/`], ['POST', `/v1/agents/run/${agent.id}/async/`], ['GET', `/v1/agents/jobs/${job.id}/status/`],
    ['POST', '/v1/agents/jobs/statuses/'], ['POST', `/v1/agents/jobs/${job.id}/cancel/`], ['GET', '/v1/policies/'], ['POST', '/v1/policies/'],
    ['GET', `${p}/`], ['PUT', `${p}/`], ['PATCH', `${p}/`], ['DELETE', `${p}/`], ['GET', `${p}/versions/`], ['POST', `${p}/versions/`],
    ['GET', `${p}/versions/${policy.current_version_id}/`], ['GET', '/v1/datasets/'], ['GET', `/v1/datasets/${dataset.id}/files/`],
    ['DELETE', `/v1/datasets/${dataset.id}/files/${MISSING_ID}/`], ['POST', '/v1/datasets/files/upload/'], ['POST', '/v1/database/query/'],
    ['GET', `/v1/database/query/${query}/result/`],
  ].map(([method, path]) => ({ method: method!, path: path! }));
}

const BAD_BODIES = ['{', '{"name": ', '[1, 2]', '"text"', '42', 'null', 'true', '\u0000', '{"name": {"$gt": ""}}', '{"a": [[[[[[[[[[]]]]]]]]]]}', '\ufeff{}', '{"__proto__": {"x": 1}}'];
const BAD_QUERIES = [
  'page=-1', 'page=1e999', 'page=9999999999999999999', 'page_size=abc', 'page_size=0', 'ordering=;DROP TABLE jobs', 'ordering=-', 'ordering=,,,',
  'created_from=2024-13-45', 'created_to=2024-02-30', 'created_from=%00', 'status_code=%00', 'status_code=-1', 'metadata=:::', 'metadata=,',
  'exclude_metadata=a', 'tags=%27%20OR%201%3D1', 'include_job_stats=2', 'limit=abc', 'job_id=%25', 'search=%25%5F%5C', 'semantic_string=' + 'a'.repeat(3000),
  'job_count_min=1.5', 'creator_id=0', 'get_supports_eval=perhaps', 'organization_id=%00', 'search=' + '%F0%9F%92%A5'.repeat(50),
];

describe('sandbox under bad input', () => {
  let t: TestSandbox;
  let routes: Route[];
  before(async () => {
    t = await startTestSandbox({ queryEngineFactory: fakeQueryEngine(1).factory });
    routes = await allRoutes(t);
  });
  after(() => t.close());

  /** A client error or a success, never a 500; always a JSON body (or none for 204). */
  function assertHandled(answer: { status: number; text: string }, what: string): void {
    assert.ok(answer.status < 500, `${what} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    if (answer.status !== 204) assert.doesNotThrow(() => JSON.parse(answer.text), `${what} answered non-JSON: ${answer.text.slice(0, 100)}`);
  }

  afterEach(() => {
    const bugs = t.logs.filter((l) => l.startsWith('sandbox: error in'));
    assert.deepEqual(bugs, [], 'no handler may throw an unexpected error');
  });

  it('answers malformed and non-object JSON bodies on every route with a 4xx, never a 500', async () => {
    for (const route of routes.filter((r) => r.method !== 'GET')) {
      for (const body of BAD_BODIES) {
        const answer = await t.call(route.method, route.path, { rawBody: body, headers: { 'Content-Type': 'application/json' } });
        assertHandled(answer, `${route.method} ${route.path} with ${JSON.stringify(body)}`);
      }
    }
  });

  it('answers malformed JSON with DRF\'s parse error and a list with non_field_errors', async () => {
    const malformed = await t.call('POST', '/v1/agents/', { rawBody: '{"name": ', headers: { 'Content-Type': 'application/json' } });
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.detail, /^JSON parse error - /);
    const list = await t.call('POST', '/v1/policies/', { rawBody: '[1]', headers: { 'Content-Type': 'application/json' } });
    assert.deepEqual(list.body, { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
  });

  it('answers junk query parameters on every route with a 4xx or a success, never a 500', async () => {
    for (const route of routes.filter((r) => r.method === 'GET')) {
      for (const query of BAD_QUERIES) assertHandled(await t.call('GET', `${route.path}?${query}`), `GET ${route.path}?${query}`);
    }
  });

  it('answers other media types with 415 and broken multipart with 400', async () => {
    const text = await t.call('POST', '/v1/agents/', { rawBody: 'name=x', headers: { 'Content-Type': 'text/plain' } });
    assert.equal(text.status, 415);
    const broken = await t.call('POST', '/v1/datasets/files/upload/', { rawBody: '--x\r\ngarbage', headers: { 'Content-Type': 'multipart/form-data; boundary=x' } });
    assert.equal(broken.status, 400);
    const noBoundary = await t.call('POST', '/v1/datasets/files/upload/', { rawBody: 'x', headers: { 'Content-Type': 'multipart/form-data' } });
    assert.equal(noBoundary.status, 400);
  });

  it('survives random JSON bodies on every writing route', async () => {
    const writes = routes.filter((r) => r.method !== 'GET' && r.method !== 'DELETE' && !r.path.includes('upload'));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writes), fc.jsonValue({ maxDepth: 4 }), async (route, body) => {
        assertHandled(await t.call(route.method, route.path, { body }), `${route.method} ${route.path} with ${JSON.stringify(body).slice(0, 200)}`);
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it('survives bodies with the right field names and random values', async () => {
    const fields = ['name', 'engine_class_id', 'description', 'disable_cache', 'cache_failed_jobs', 'version_name', 'input_definitions', 'engine_config',
      'content', 'base_version_id', 'job_ids', 'query', 'transcript', 'language', 'metadata', 'organization_id'];
    const writes = routes.filter((r) => r.method !== 'GET' && r.method !== 'DELETE' && !r.path.includes('upload'));
    const value = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.array(fc.dictionary(fc.constantFrom('key', 'data_type', 'title', 'rules', 'categories', 'flag'), fc.jsonValue({ maxDepth: 2 }))));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writes), fc.dictionary(fc.constantFrom(...fields), value), async (route, body) => {
        assertHandled(await t.call(route.method, route.path, { body }), `${route.method} ${route.path} with ${JSON.stringify(body).slice(0, 200)}`);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('survives random query strings on every list', async () => {
    const lists = routes.filter((r) => r.method === 'GET');
    const names = ['page', 'page_size', 'ordering', 'search', 'status_code', 'created_from', 'created_to', 'metadata', 'exclude_metadata', 'tags', 'limit',
      'job_id', 'engine_class_id', 'include_job_stats', 'semantic_string', 'job_count_min', 'creator_id', 'version_name', 'verdict', 'job_inputs'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...lists), fc.array(fc.tuple(fc.constantFrom(...names), fc.string({ unit: 'binary', maxLength: 30 })), { maxLength: 5 }), async (route, pairs) => {
        const query = new URLSearchParams(pairs).toString();
        assertHandled(await t.call('GET', `${route.path}?${query}`), `GET ${route.path}?${query}`);
      }),
      { numRuns: 300, seed: 3 },
    );
  });

  it('answers 413 for a JSON body over the limit, refusing a declared size before reading it', async () => {
    const small = await startTestSandbox({ seed: 'empty', maxJsonBytes: 1000 });
    try {
      const answer = await small.call('POST', '/v1/agents/', { body: { name: 'x'.repeat(2000), engine_class_id: 'e' } });
      assert.equal(answer.status, 413);
      assert.match(answer.body.detail, /1000 bytes/);
    } finally {
      await small.close();
    }
    const huge = await t.call('POST', '/v1/agents/', { body: { name: 'x'.repeat(11 * 1024 * 1024), engine_class_id: 'e' } });
    assert.equal(huge.status, 413);
  });
  it('refuses a NUL in a search with 400, as the live service does, rather than matching everything', async () => {
    for (const path of ['/v1/agents/?search=%00', '/v1/policies/?search=a%00b', '/v1/datasets/?search=%00']) {
      const answer = await t.call('GET', path);
      assert.equal(answer.status, 400, path);
      assert.deepEqual(answer.body, { search: ['Null characters are not allowed.'] }, path);
    }
    const agent = (await t.call('GET', '/v1/agents/?search=support call')).body.results[0];
    const jobs = await t.call('GET', `/v1/agents/${agent.id}/jobs/?search=%00`);
    assert.equal(jobs.status, 400);
  });

  it('refuses a NUL in a name with 400 and creates nothing', async () => {
    const before = (await t.call('GET', '/v1/agents/')).body.count;
    const answer = await t.call('POST', '/v1/agents/', { body: { name: 'Claims\u0000triage', engine_class_id: 'document_classifier' } });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, { name: ['Null characters are not allowed.'] });
    assert.equal((await t.call('GET', '/v1/agents/')).body.count, before);
  });

  it('refuses a body that is not UTF-8 with 400, never storing U+FFFD in its place', async () => {
    const bytes = Buffer.concat([Buffer.from('{"name": "Claims '), Buffer.from([0xff, 0xfe]), Buffer.from('", "engine_class_id": "document_classifier"}')]);
    const answer = await t.call('POST', '/v1/agents/', { rawBody: new Uint8Array(bytes), headers: { 'content-type': 'application/json' } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.detail, "JSON parse error - 'utf-8' codec can't decode byte 0xff in position 17: invalid start byte");
    const stored = await t.call('GET', '/v1/agents/?search=Claims');
    assert.ok(!stored.body.results.some((a: { name: string }) => a.name.includes('\ufffd')));
  });
});
