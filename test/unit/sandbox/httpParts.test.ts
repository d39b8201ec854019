import * as assert from 'node:assert/strict';
import { QueryFields, parseDateParam } from '../../../src/sandbox/http/queryParams';
import { Router } from '../../../src/sandbox/http/router';

const ID = '3F6C2A1E-8B4D-4C7A-9E15-6D2B8F0A4C91';

describe('sandbox router', () => {
  const router = new Router<string>()
    .add('GET', '/v1/agents/{agent_id}/versions/current/', 'current')
    .add('GET', '/v1/agents/{agent_id}/versions/{agent_version_id}/', 'version')
    .add('POST', '/v1/agents/{agent_id}/versions/', 'create');

  it('matches UUID parameters (lower-cased) and finds no route for a segment that is not a UUID', () => {
    assert.deepEqual(router.match('GET', `/v1/agents/${ID}/versions/current/`), { handler: 'current', params: { agent_id: ID.toLowerCase() } });
    assert.deepEqual(router.match('GET', `/v1/agents/${ID}/versions/${ID}`), {
      handler: 'version',
      params: { agent_id: ID.toLowerCase(), agent_version_id: ID.toLowerCase() },
    });
    assert.equal(router.match('GET', '/v1/agents/abc/versions/current/'), undefined);
    assert.equal(router.match('GET', `/v1/agents/${ID}/versions/latest/`), undefined);
  });

  it('lists the allowed methods when only the method is wrong', () => {
    assert.deepEqual(router.match('DELETE', `/v1/agents/${ID}/versions/`), { allowed: ['POST'] });
  });

  it('treats a malformed percent escape as no route', () => {
    assert.equal(router.match('GET', '/v1/agents/%E0%A4%A/versions/current/'), undefined);
  });
});

describe('sandbox query parameters', () => {
  const fields = (query: string) => new QueryFields(new URLSearchParams(query));

  it('reads dates and date-times, naive ones as UTC, and a bare end date as the end of that day', () => {
    assert.equal(parseDateParam('2024-05-01'), Date.UTC(2024, 4, 1));
    assert.equal(parseDateParam('2024-05-01', true), Date.UTC(2024, 4, 2) - 1);
    assert.equal(parseDateParam('2024-05-01T10:30'), Date.UTC(2024, 4, 1, 10, 30));
    assert.equal(parseDateParam('2024-05-01T10:30:00.123456+02:00'), Date.UTC(2024, 4, 1, 8, 30, 0, 123));
    assert.equal(parseDateParam('2024-05-01 10:30:00Z'), Date.UTC(2024, 4, 1, 10, 30));
    for (const bad of ['2024-02-30', '2024-13-01', 'yesterday', '2024-05-01T25:00', '1714550400']) assert.equal(parseDateParam(bad), undefined, bad);
  });

  it('reads repeated and comma-separated lists, and orderings with a leading minus', () => {
    const q = fields('tags=a,b&tags=c&ordering=-name,created_at,name');
    assert.deepEqual(q.list('tags'), ['a', 'b', 'c']);
    assert.deepEqual(q.ordering(['name', 'created_at']), [{ field: 'name', descending: true }, { field: 'created_at', descending: false }]);
    q.finish();
  });

  it('collects every problem before answering, and clamps page sizes silently', () => {
    const q = fields('page=x&page_size=5000&include=maybe&when=nope');
    assert.equal(q.int('page_size', { min: 1, clampAt: 1000 }), 1000);
    q.int('page', { min: 1 });
    q.bool('include');
    q.date('when');
    assert.throws(() => q.finish(), (error: any) => {
      assert.deepEqual(error.body, { page: ['A valid integer is required.'], include: ['Must be a valid boolean.'], when: ['Enter a valid date/time.'] });
      return true;
    });
  });

  it('reads booleans the way Django filters do', () => {
    const q = fields('a=True&b=0&c=yes&d=OFF');
    assert.deepEqual(['a', 'b', 'c', 'd'].map((n) => q.bool(n)), [true, false, true, false]);
  });
});
