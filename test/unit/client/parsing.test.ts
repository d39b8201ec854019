import * as assert from 'node:assert/strict';
import {
  AgentJobSchema,
  BaseAgentSchema,
  PolicyVersionSchema,
  QueryResultSetSchema,
  tagNames,
  type RequestEvent,
  type ServiceClient,
  type ServiceError,
} from '../../../src/core/client';
import { agentVersion, baseAgent, envelope, job } from './helpers/fixtures';
import { clientFor, json, rejectionOf, startFakeService, text, type FakeService } from './helpers/fakeService';

describe('service client: the shapes the live service sends', () => {
  it('accepts tags as a string, as names, or as tag objects', () => {
    for (const tags of ['urgent, billing', ['urgent', 'billing'], [{ id: 't1', name: 'urgent', color: '#f00', created_at: '2025-01-01T00:00:00Z', creator: null, usage_count: 2 }, { name: 'billing' }]]) {
      const agent = BaseAgentSchema.parse(baseAgent({ tags }));
      assert.deepEqual(tagNames(agent.tags), ['urgent', 'billing']);
    }
    assert.deepEqual(tagNames(null), []);
    assert.deepEqual(tagNames(''), []);
  });

  it('accepts nulls where the live service sends them on base agents', () => {
    const agent = BaseAgentSchema.parse(baseAgent({ creator: null, current_version_id: null, most_recent_job: null, job_count: null }));
    assert.equal(agent.current_version_id, null);
    assert.equal(agent.job_count, null);
  });

  it('keeps unknown fields so raw views can show them', () => {
    const agent = BaseAgentSchema.parse(baseAgent({ updated_at: '2025-03-05T00:00:00Z', ui_hint: { color: 'blue' } }));
    assert.deepEqual(agent.ui_hint, { color: 'blue' });
    const version = PolicyVersionSchema.parse({ id: 'v1', version_name: 'version 2', content: { instructions: 'Be kind' }, extra: 1 });
    assert.equal(version.extra, 1);
  });

  it('accepts jobs with fractional or null scores, any reference, and null version names and reviews', () => {
    const evaluated = AgentJobSchema.parse(
      job({
        agent_version_name: null,
        duration_ms: 1234,
        evaluation: { created_at: null, updated_at: null, reference: { label: 'spam', spans: [1, 2] }, human_score: null, grader_score: 0.75, feedback: '' },
        feedback_review: { reviewed_by: 'ada', review_status: 'approved', corrected_verdict: null, review_comment: null, reviewed_at: null },
      }),
    );
    assert.equal(evaluated.evaluation?.grader_score, 0.75);
    assert.deepEqual(evaluated.evaluation?.reference, { label: 'spam', spans: [1, 2] });
    assert.equal(evaluated.duration_ms, 1234);
    const bare = AgentJobSchema.parse(job({ evaluation: null, feedback_review: null, agent_version_name: null }));
    assert.equal(bare.evaluation, null);
  });

  it('accepts query results with NULL cells and a truncated flag', () => {
    const result = QueryResultSetSchema.parse({
      worksheet_query_id: 'q1',
      status: 'SUCCESS',
      error: null,
      results: [{ query: 'SELECT 1', row_count: 2, column_names: ['a'], column_types: ['Nullable(String)'], result_rows: [['x'], [null]], truncated: true }],
    });
    assert.deepEqual(result.results?.[0]?.result_rows, [['x'], [null]]);
    assert.equal(result.results?.[0]?.truncated, true);
  });
});

describe('service client: answers that do not parse', () => {
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

  async function parseFailure(call: () => Promise<unknown>): Promise<ServiceError> {
    const error = (await rejectionOf(call())) as ServiceError;
    assert.equal(error.kind, 'parse', error.message);
    assert.equal(service.requests.length, 1, 'a parse error is not tried again');
    return error;
  }

  it('names the operation and the field path of a wrong field', async () => {
    const results = [baseAgent(), baseAgent(), baseAgent(), baseAgent({ created_at: 1700000000 })];
    service.handle((_req, res) => json(res, 200, envelope(results)));
    const error = await parseFailure(() => client.agents.list());
    assert.equal(error.message, 'listAgents: results[3].created_at: expected string, got number');
    assert.equal(error.operation, 'listAgents');
  });

  it('says when a required field is missing', async () => {
    const { id: _id, ...withoutId } = agentVersion();
    service.handle((_req, res) => json(res, 200, withoutId));
    const error = await parseFailure(() => client.agents.getVersion('a1', 'v1'));
    assert.equal(error.message, 'getAgentVersion: id: expected string, but it is missing');
  });

  it('lists an agent with an unreadable tag, leaves the tag out and logs it once with the operation', async () => {
    const events: RequestEvent[] = [];
    const logged = clientFor(service, { onRequest: (e) => events.push(e) });
    try {
      service.handle((_req, res) => json(res, 200, envelope([baseAgent({ tags: [{ id: 't1', name: 5 }, { id: 't2', name: 'billing', creator: 7 }] })])));
      const page = await logged.agents.list();
      assert.deepEqual(tagNames(page.results[0]!.tags), ['billing']);
      await logged.agents.list();
      const notes = events.flatMap((e) => (e.leftOut ?? []).map((note) => `${e.operation}: ${note}`));
      assert.deepEqual(notes, ['listAgents: a tag was left out (name: expected string, got number)']);
    } finally {
      await logged.close();
    }
  });

  it('reads a tag creator as the user id the live service sends, and leaves out a tag whose creator is an object', () => {
    const agent = BaseAgentSchema.parse(baseAgent({ tags: [{ id: 't1', name: 'ops', creator: 12 }, { id: 't2', name: 'old', creator: { id: 3 } }] }));
    assert.deepEqual(agent.tags, [{ id: 't1', name: 'ops', creator: 12 }]);
  });

  it('lists the accepted forms when a value matches none of them', async () => {
    service.handle((_req, res) => json(res, 200, baseAgent({ tags: 5 })));
    const error = await parseFailure(() => client.agents.get('a1'));
    assert.equal(error.message, 'getAgent: tags: expected string or array, got number');
  });

  it('counts the further problems of an answer', async () => {
    service.handle((_req, res) => json(res, 200, { status: 'x' }));
    const error = await parseFailure(() => client.jobs.status('j1'));
    assert.equal(error.message, 'getJobStatus: status: expected number, got string (and 1 more problem)');
  });

  it('turns broken JSON into a parse error', async () => {
    service.handle((_req, res) => text(res, 200, '{"id": "a1", ', 'application/json'));
    const error = await parseFailure(() => client.agents.get('a1'));
    assert.equal(error.message, 'getAgent: the answer is not valid JSON (application/json).');
  });

  it('turns an HTML page with status 200 into a parse error', async () => {
    service.handle((_req, res) => text(res, 200, '<!doctype html><title>Sign in</title>'));
    const error = await parseFailure(() => client.policies.get('p1'));
    assert.match(error.message, /^getPolicy: the service answered with a web page \(text\/html\) instead of JSON/);
  });

  it('turns an empty 200 into a parse error', async () => {
    service.handle((_req, res) => text(res, 200, '', 'application/json'));
    const error = await parseFailure(() => client.database.getResult('q1'));
    assert.match(error.message, /^getQueryResult: the service answered with an empty body/);
  });

  it('expects a bare string from starting a job', async () => {
    service.handle((_req, res) => json(res, 200, { id: 'j1' }));
    const error = await parseFailure(() => client.agents.run('a1', { inputs: {} }));
    assert.match(error.message, /^runAgent: \(response\): expected string, got object /);
    // A write the service accepted (2xx) but whose answer cannot be read may have happened: never to be repeated blindly.
    assert.equal(error.outcomeUnknown, true);
    assert.match(error.message, /not known what it did/);
  });

  it('keeps a read whose answer cannot be parsed a plain parse error', async () => {
    service.handle((_req, res) => json(res, 200, { id: 'j1' }));
    const error = await parseFailure(() => client.agents.get('a1'));
    assert.equal(error.outcomeUnknown, false);
  });
});
