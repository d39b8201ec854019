import * as assert from 'node:assert/strict';
import * as z from 'zod/mini';
import { describeIssue, parseBody, ParseProblem } from '../../../src/core/client/parse';

/** The sentence a parse problem gives, or '' when the body parsed. */
function problem(schema: z.ZodMiniType<unknown>, text: string, contentType?: string): string {
  try {
    parseBody(schema, text, contentType, 'op');
    return '';
  } catch (error) {
    assert.ok(error instanceof ParseProblem);
    return error.message;
  }
}

const issue = (code: string, path: PropertyKey[], extra: Record<string, unknown> = {}) => ({ code, path, ...extra });

describe('service client: naming what is wrong with an answer', () => {
  it('says an answer is not JSON, naming its content type without parameters, or none', () => {
    assert.equal(problem(z.string(), '{oops'), 'op: the answer is not valid JSON.');
    assert.equal(problem(z.string(), '{oops', 'application/json; charset=utf-8'), 'op: the answer is not valid JSON (application/json).');
  });

  it('counts the problems beyond the first: none, one more problem, more problems', () => {
    const schema = z.object({ a: z.string(), b: z.string(), c: z.string() });
    assert.equal(problem(schema, '{"a":"x","b":"y","c":1}'), 'op: c: expected string, got number');
    assert.equal(problem(schema, '{"a":"x","b":2,"c":1}'), 'op: b: expected string, got number (and 1 more problem)');
    assert.equal(problem(schema, '{"a":0,"b":2,"c":1}'), 'op: a: expected string, got number (and 2 more problems)');
  });

  it('names null and arrays as such, and a value missing as missing', () => {
    const schema = z.object({ a: z.string() });
    assert.equal(problem(schema, '{"a":null}'), 'op: a: expected string, got null');
    assert.equal(problem(schema, '{"a":[]}'), 'op: a: expected string, got array');
    assert.equal(problem(schema, '{}'), 'op: a: expected string, but it is missing');
  });

  it('finds no value below a null or below text', () => {
    assert.equal(describeIssue(issue('invalid_type', ['a', 'b'], { expected: 'string' }), [], { a: null }), 'a.b: expected string, but it is missing');
    assert.equal(describeIssue(issue('invalid_type', ['name', 'length'], { expected: 'string' }), [], { name: 'abc' }), 'name.length: expected string, but it is missing');
  });

  it('lists the values an enumeration allows', () => {
    assert.equal(describeIssue(issue('invalid_value', ['kind'], { values: ['a', 1] }), [], { kind: 'c' }), 'kind: expected one of "a", 1, got "c"');
    assert.equal(describeIssue(issue('invalid_value', ['kind']), [], { kind: 'c' }), 'kind: expected one of , got "c"');
  });

  it('says what is too small or too big, or “value” when it does not know', () => {
    assert.equal(describeIssue(issue('too_small', ['n'], { origin: 'string' }), [], {}), 'n: string is too small or too short');
    assert.equal(describeIssue(issue('too_small', ['n']), [], {}), 'n: value is too small or too short');
    assert.equal(describeIssue(issue('too_big', ['n'], { origin: 'array' }), [], {}), 'n: array is too big or too long');
    assert.equal(describeIssue(issue('too_big', ['n']), [], {}), 'n: value is too big or too long');
    assert.equal(describeIssue(issue('custom', []), [], {}), '(response): does not have the expected form (custom)');
  });

  it('reports the first problem of the union branch that got deepest into the value', () => {
    const shallow = [issue('invalid_type', ['x'], { expected: 'number' })];
    const deep = [issue('invalid_type', ['y', 'z'], { expected: 'boolean' }), issue('invalid_type', [], { expected: 'object' })];
    const union = issue('invalid_union', ['v'], { errors: [shallow, deep] });
    assert.equal(describeIssue(union, [], { v: { y: { z: 1 } } }), 'v.y.z: expected boolean, got number');
  });

  it('names the forms a union allows when no branch got into the value, skipping branches without one', () => {
    const union = issue('invalid_union', ['v'], { errors: [[], [issue('invalid_type', [], { expected: 'string' })], [issue('too_small', [])], [issue('invalid_type', [], { expected: 'string' })]] });
    assert.equal(describeIssue(union, [], { v: 1 }), 'v: expected string, got number');
    const formless = issue('invalid_union', [], { errors: [[issue('custom', [])]] });
    assert.equal(describeIssue(formless, [], 1), '(response): expected another form, got number');
  });

  it('treats a union issue without branches as any other issue', () => {
    assert.equal(describeIssue(issue('invalid_union', ['x'], { errors: [] }), [], { x: 1 }), 'x: does not have the expected form (invalid_union)');
    assert.equal(describeIssue(issue('invalid_union', ['x']), [], { x: 1 }), 'x: does not have the expected form (invalid_union)');
  });
});
