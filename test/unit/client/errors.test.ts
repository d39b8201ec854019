import * as assert from 'node:assert/strict';
import { isServiceError, ServiceError, type ServiceClient } from '../../../src/core/client';
import { readErrorBody } from '../../../src/core/client/errorBody';
import { clientFor, json, rejectionOf, startFakeService, text, TOKEN, type FakeService } from './helpers/fakeService';

describe('service client: error answers', () => {
  let service: FakeService;
  let client: ServiceClient;

  beforeEach(async () => {
    service = await startFakeService();
    client = clientFor(service, { retry: { maxRetries: 0 } });
  });
  afterEach(async () => {
    await client.close();
    await service.close();
  });

  async function failureFor(status: number, respond: (res: import('node:http').ServerResponse) => void): Promise<ServiceError> {
    service.handle((_req, res) => respond(res));
    const error = await rejectionOf(client.agents.update('a1', { name: '' }));
    assert.ok(isServiceError(error), `expected a ServiceError, got ${String(error)}`);
    assert.equal(error.status, status);
    return error;
  }

  it('shows a field map of a 400 as field errors and names the field in the message', async () => {
    const error = await failureFor(400, (res) => json(res, 400, { name: ['This field may not be blank.'] }));
    assert.equal(error.kind, 'http');
    assert.deepEqual(error.fieldErrors, { name: ['This field may not be blank.'] });
    assert.deepEqual(error.nonFieldErrors, []);
    assert.equal(error.message, 'name: This field may not be blank.');
    assert.equal(error.operation, 'updateAgent');
    assert.equal(error.method, 'PUT');
    assert.match(error.path, /^\/v1\/agents\/a1\/\?organization_id=/);
  });

  it('turns a single string for a field into a one-item list', async () => {
    const error = await failureFor(400, (res) => json(res, 400, { engine_config: 'Expected a dictionary of items.' }));
    assert.deepEqual(error.fieldErrors, { engine_config: ['Expected a dictionary of items.'] });
  });

  it('names nested fields of list serializers by index', async () => {
    const error = await failureFor(400, (res) => json(res, 400, { input_definitions: [{}, { key: ['This field is required.'] }] }));
    assert.deepEqual(error.fieldErrors, { 'input_definitions[1].key': ['This field is required.'] });
  });

  it('keeps non_field_errors apart from field errors', async () => {
    const error = await failureFor(400, (res) => json(res, 400, { non_field_errors: ['Name already taken.'], name: ['Too long.'] }));
    assert.deepEqual(error.nonFieldErrors, ['Name already taken.']);
    assert.deepEqual(error.fieldErrors, { name: ['Too long.'] });
    assert.equal(error.message, 'Name already taken. name: Too long.');
  });

  it('says what a bare 404 "Not found." means in one sentence', async () => {
    const error = await failureFor(404, (res) => json(res, 404, { detail: 'Not found.' }));
    assert.deepEqual(error.nonFieldErrors, ['Not found.']);
    assert.deepEqual(error.fieldErrors, {});
    assert.equal(error.message, 'Not found (404): it may have been deleted, or belong to another organization.');
  });

  it('reads {error} answers and keeps the rest of the body for details such as dependent agents', async () => {
    service.handle((_req, res) => json(res, 409, { error: 'Policy is used by agents.', dependent_agents: [{ id: 'a1', name: 'Triage' }] }));
    const error = (await rejectionOf(client.policies.delete('p1'))) as ServiceError;
    assert.equal(error.status, 409);
    assert.deepEqual(error.nonFieldErrors, ['Policy is used by agents.']);
    assert.deepEqual(error.fieldErrors, {});
    assert.deepEqual((error.body as { dependent_agents: unknown[] }).dependent_agents, [{ id: 'a1', name: 'Triage' }]);
  });

  it('reads a bare array of messages as non-field errors', async () => {
    service.handle((_req, res) => json(res, 400, ['Missing input: text', 'Unknown input: foo']));
    const error = (await rejectionOf(client.agents.run('a1', { inputs: { foo: 'x' } }))) as ServiceError;
    assert.deepEqual(error.nonFieldErrors, ['Missing input: text', 'Unknown input: foo']);
    assert.equal(error.message, 'Missing input: text. Unknown input: foo.');
  });

  it('builds the message from the status alone for an HTML page from a proxy', async () => {
    const error = await failureFor(503, (res) => text(res, 503, '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>'));
    assert.equal(error.message, 'The service is unavailable (503). Try again in a moment.');
    assert.deepEqual(error.nonFieldErrors, []);
    assert.equal(error.body, undefined);
  });

  it('builds the message from the status alone for an empty body', async () => {
    const error = await failureFor(500, (res) => text(res, 500, '', 'text/plain'));
    assert.equal(error.message, 'The service failed with an internal error (500).');
  });

  it('tells the user to sign in again on a 401 without a body', async () => {
    const error = await failureFor(401, (res) => text(res, 401, '', 'text/plain'));
    assert.match(error.message, /did not accept the access token \(401\)\. Sign in again\./);
  });

  it('never puts the token into the message, even when the service echoes it', async () => {
    const error = await failureFor(400, (res) => json(res, 400, { detail: `Bad header: Bearer ${TOKEN}`, token: TOKEN }));
    assert.ok(!error.message.includes(TOKEN), error.message);
    assert.ok(!JSON.stringify(error.body).includes(TOKEN));
  });

  it('recognises its own errors and nothing else', async () => {
    const error = await failureFor(404, (res) => json(res, 404, { detail: 'Not found.' }));
    assert.ok(isServiceError(error));
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'ServiceError');
    assert.equal(isServiceError(new Error('x')), false);
    assert.equal(isServiceError({ kind: 'http' }), false);
  });

  it('says plainly that the server does not offer dataset file lists when it answers 404', async () => {
    service.handle((_req, res) => json(res, 404, { detail: 'Not found.' }));
    const error = (await rejectionOf(client.datasets.listFiles('d1'))) as ServiceError;
    assert.equal(error.kind, 'unsupported');
    assert.equal(error.status, 404);
    assert.match(error.message, /^This server does not offer listing the files of a dataset/);
  });

  it('says plainly that the server does not offer creating agents when New Agent’s POST answers 404, never that the agent “may have been deleted”', async () => {
    service.handle((_req, res) => json(res, 404, { detail: 'Not found.' }));
    const error = (await rejectionOf(client.agents.create({ name: 'Claims triage', engine_class_id: 'llm_classifier' }))) as ServiceError;
    assert.equal(error.kind, 'unsupported');
    assert.equal(error.message, 'This server does not offer creating agents (it answered 404).');
  });

  it('says plainly that the server does not offer database queries when it answers 405', async () => {
    service.handle((_req, res) => text(res, 405, ''));
    const error = (await rejectionOf(client.database.submitQuery('SELECT 1'))) as ServiceError;
    assert.equal(error.kind, 'unsupported');
    assert.match(error.message, /^This server does not offer database queries/);
  });

  it('keeps other failures of the query endpoint as ordinary HTTP errors', async () => {
    service.handle((_req, res) => json(res, 400, { query: ['Only SELECT statements are allowed.'] }));
    const error = (await rejectionOf(client.database.submitQuery('DROP TABLE x'))) as ServiceError;
    assert.equal(error.kind, 'http');
    assert.deepEqual(error.fieldErrors, { query: ['Only SELECT statements are allowed.'] });
  });

  it('reports a refused connection as a network error that names the service', async () => {
    const port = service.port;
    await service.close();
    const offline = clientFor({ url: `http://127.0.0.1:${port}` }, { retry: { maxRetries: 0 } });
    try {
      const error = (await rejectionOf(offline.agents.get('a1'))) as ServiceError;
      assert.equal(error.kind, 'network');
      assert.equal(error.code, 'ECONNREFUSED');
      assert.equal(error.outcomeUnknown, false);
      assert.match(error.message, new RegExp(`Could not connect to the service at http://127\\.0\\.0\\.1:${port}`));
    } finally {
      await offline.close();
      service = await startFakeService();
    }
  });
});

describe('service client: reading error bodies', () => {
  it('treats a JSON string body as one message', () => {
    assert.deepEqual(readErrorBody('"Quota exceeded"').nonFieldErrors, ['Quota exceeded']);
  });

  it('does not read the extra keys of a {detail} body as fields', () => {
    const details = readErrorBody(JSON.stringify({ detail: 'Given token not valid', code: 'token_not_valid' }));
    assert.deepEqual(details.nonFieldErrors, ['Given token not valid']);
    assert.deepEqual(details.fieldErrors, {});
  });

  it('finds nothing in HTML or broken JSON', () => {
    assert.deepEqual(readErrorBody('<html>502 Bad Gateway</html>'), { fieldErrors: {}, nonFieldErrors: [] });
    assert.deepEqual(readErrorBody('{"detail": '), { fieldErrors: {}, nonFieldErrors: [] });
  });

  it('names fields of nested objects with dots', () => {
    const details = readErrorBody(JSON.stringify({ content: { guidelines: { categories: ['This list may not be empty.'] } } }));
    assert.deepEqual(details.fieldErrors, { 'content.guidelines.categories': ['This list may not be empty.'] });
  });
});

describe('error bodies that are hostile or odd', () => {
  it('reads field names such as toString and __proto__ as plain fields', () => {
    const details = readErrorBody('{"toString": ["This field is required."], "__proto__": ["bad"], "constructor": "x"}');
    // Read as own entries: `fieldErrors.constructor` would name Object's method to the type checker.
    const fields = new Map(Object.entries(details.fieldErrors));
    assert.deepEqual(fields.get('toString'), ['This field is required.']);
    assert.deepEqual(fields.get('constructor'), ['x']);
    assert.deepEqual(Object.keys(details.fieldErrors).sort(), ['__proto__', 'constructor', 'toString']);
  });

  it('reads a deeply nested body without exhausting the stack', () => {
    const deepArray = `{"name": ${'['.repeat(100_000)}"x"${']'.repeat(100_000)}}`;
    const deepObject = `{"name": ${'{"a":'.repeat(20_000)}"x"${'}'.repeat(20_000)}}`;
    for (const text of [deepArray, deepObject, `{"detail": ${'['.repeat(50_000)}"x"${']'.repeat(50_000)}}`, `${'['.repeat(50_000)}${']'.repeat(50_000)}`]) {
      const details = readErrorBody(text);
      const messages = [...Object.values(details.fieldErrors).flat(), ...details.nonFieldErrors];
      assert.ok(messages.some((m) => m === 'x' || m.includes('not shown')), JSON.stringify(messages).slice(0, 200));
    }
  });
});
