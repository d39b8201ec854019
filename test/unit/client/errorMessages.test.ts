import * as assert from 'node:assert/strict';
import { httpErrorMessage, readErrorBody, statusMessage } from '../../../src/core/client/errorBody';

/** The sentence a user sees for an HTTP error with this body. */
const say = (status: number, body: string, retryAfterMs?: number): string => httpErrorMessage(status, readErrorBody(body), retryAfterMs);

/** `levels` arrays around `inner`, as JSON. */
const inArrays = (levels: number, inner: string): string => '['.repeat(levels) + inner + ']'.repeat(levels);

/** `levels` objects `{"a": …}` around `inner`, as JSON. */
const inObjects = (levels: number, inner: string): string => '{"a":'.repeat(levels) + inner + '}'.repeat(levels);

describe('service client: reading error bodies', () => {
  it('reads a body with blanks before it', () => {
    assert.deepEqual(readErrorBody('  \n{"detail":"Denied"}').nonFieldErrors, ['Denied']);
  });

  it('reads nothing, and keeps no body, from text that is not an object, array or string', () => {
    for (const text of ['404', 'true', 'null', '', '   ', 'Bad Gateway', '<html>busy</html>', '{not json']) {
      assert.deepEqual(readErrorBody(text), { fieldErrors: {}, nonFieldErrors: [] }, text);
    }
  });

  it('reads a JSON string as the message', () => {
    assert.deepEqual(readErrorBody('"Quota exceeded"').nonFieldErrors, ['Quota exceeded']);
  });

  it('reads `{error}` without a detail, and leaves a detail’s extras out of the fields', () => {
    assert.deepEqual(readErrorBody('{"error":"Engine offline"}'), { fieldErrors: {}, nonFieldErrors: ['Engine offline'], body: { error: 'Engine offline' } });
    assert.deepEqual(readErrorBody('{"detail":"In use","code":"in_use"}').fieldErrors, {});
  });

  it('shows a detail that is a number, a boolean or an object as JSON writes it, and skips nulls', () => {
    assert.deepEqual(readErrorBody('{"detail":5}').nonFieldErrors, ['5']);
    assert.deepEqual(readErrorBody('{"detail":true}').nonFieldErrors, ['true']);
    assert.deepEqual(readErrorBody('{"detail":{"code":"x"}}').nonFieldErrors, ['{"code":"x"}']);
    assert.deepEqual(readErrorBody('{"detail":["a",null,"b"]}').nonFieldErrors, ['a', 'b']);
    assert.deepEqual(readErrorBody('{"detail":null}').nonFieldErrors, []);
  });

  it('cuts an object detail longer than 400 characters to 400 with an ellipsis', () => {
    const exact = `{"k":"${'x'.repeat(392)}"}`;
    assert.equal(exact.length, 400);
    assert.deepEqual(readErrorBody(`{"detail":${exact}}`).nonFieldErrors, [exact]);
    const long = `{"k":"${'x'.repeat(393)}"}`;
    const [cut] = readErrorBody(`{"detail":${long}}`).nonFieldErrors;
    assert.equal(cut, `${long.slice(0, 399)}…`);
  });

  it('says an object detail too deep to write out is not readable', () => {
    assert.deepEqual(readErrorBody(`{"detail":${inObjects(20000, '1')}}`).nonFieldErrors, ['(details not readable)']);
  });

  it('reads nested detail lists 32 levels deep, and says so beyond', () => {
    assert.deepEqual(readErrorBody(`{"detail":${inArrays(32, '"deep"')}}`).nonFieldErrors, ['deep']);
    assert.deepEqual(readErrorBody(`{"detail":${inArrays(31, '{"a":1}')}}`).nonFieldErrors, ['{"a":1}']);
    assert.deepEqual(readErrorBody(`{"detail":${inArrays(32, '{"a":1}')}}`).nonFieldErrors, ['(more details not shown)']);
  });

  it('keeps every message of a field, as text, without nulls', () => {
    assert.deepEqual(readErrorBody('{"tags":["bad",null,"worse",3,false],"age":5,"gone":null}').fieldErrors, { tags: ['bad', 'worse', '3', 'false'], age: ['5'] });
  });

  it('names nested fields by their path, 32 levels deep and no further', () => {
    const path = (levels: number): string => `f${'.a'.repeat(levels)}`;
    assert.deepEqual(readErrorBody(`{"f":${inObjects(31, '"x"')}}`).fieldErrors, { [path(31)]: ['x'] });
    assert.deepEqual(readErrorBody(`{"f":${inObjects(32, '"x"')}}`).fieldErrors, { [path(32)]: ['(more details not shown)'] });
  });

  it('keeps at most 200 nested fields of a list or an object', () => {
    const list = JSON.stringify({ rows: Array.from({ length: 250 }, () => ({ k: 'bad' })) });
    assert.equal(Object.keys(readErrorBody(list).fieldErrors).length, 200);
    const object = JSON.stringify({ f: Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`k${i}`, 'bad'])) });
    assert.equal(Object.keys(readErrorBody(object).fieldErrors).length, 200);
  });

  it('keeps at most 200 messages of one field, even when two keys name the same field', () => {
    const many = Array.from({ length: 200 }, (_, i) => `m${i}`);
    const body = JSON.stringify({ a: { b: many }, 'a.b': many });
    assert.equal(readErrorBody(body).fieldErrors['a.b']?.length, 200);
  });
});

describe('service client: the sentence for an HTTP error', () => {
  it('keeps a 404’s own message, and says more than Django’s bare "Not found."', () => {
    const generic = statusMessage(404);
    assert.equal(say(404, '{"detail":"No Agent matches the given query."}'), 'No Agent matches the given query.');
    for (const body of ['{"detail":"Not found."}', '{"detail":"not found"}', '{"detail":" Not found. "}', '["Not found."]']) assert.equal(say(404, body), generic, body);
    for (const body of ['{"detail":"Agent not found."}', '{"detail":"Not found in this organization."}', '["Not found.","Really."]']) assert.notEqual(say(404, body), generic, body);
    assert.equal(say(404, '{"non_field_errors":["Not found."],"name":["bad"]}'), 'Not found. name: bad.');
  });

  it('keeps "Not found." as it is for statuses other than 404', () => {
    assert.equal(say(410, '{"detail":"Not found."}'), 'Not found.');
  });

  it('joins a field’s messages as sentences after its name', () => {
    assert.equal(say(400, '{"name":["Too long","Required."]}'), 'name: Too long. Required.');
  });

  it('ends each message as a sentence once, trimmed, and drops empty ones', () => {
    assert.equal(say(400, '["", "  Bad  ", "Done!", "Use e.g. a name", "(see docs)"]'), 'Bad. Done! Use e.g. a name. (see docs)');
  });

  it('cuts a message longer than 400 characters to 400 with an ellipsis', () => {
    const exact = `${'x'.repeat(399)}.`;
    assert.equal(say(400, JSON.stringify([exact])), exact);
    const long = `${'x'.repeat(400)}.`;
    assert.equal(say(400, JSON.stringify([long])), `${'x'.repeat(399)}…`);
  });

  it('falls back to the status’s own sentence when the body says nothing', () => {
    assert.equal(say(400, '{}'), 'The service rejected the request (400).');
    assert.equal(say(429, '<html>slow down</html>', 2500), 'The service is receiving too many requests (429). Try again in 3 s.');
  });

  it('has a sentence for each status it knows, naming the status', () => {
    for (const status of [400, 401, 403, 404, 405, 409, 413, 429, 500, 502, 503, 504]) {
      assert.ok(statusMessage(status).includes(`(${status})`), `${status}: ${statusMessage(status)}`);
      assert.notEqual(statusMessage(status), `The service answered with status ${status}.`);
    }
    assert.equal(statusMessage(418), 'The service answered with status 418.');
  });

  it('tells a redirect from 300 to 399, and nothing else as one', () => {
    for (const status of [300, 301, 399]) assert.match(statusMessage(status), /redirect/, String(status));
    for (const status of [299, 400]) assert.doesNotMatch(statusMessage(status), /redirect/, String(status));
  });

  it('says when to try again after a 429: the wait it was given, at least a second, else in a moment', () => {
    assert.match(statusMessage(429), /Try again in a moment\.$/);
    assert.match(statusMessage(429, 200), /Try again in 1 s\.$/);
    assert.match(statusMessage(503, 4000), /\(503\)\. Try again in 4 s\.$/);
  });
});
