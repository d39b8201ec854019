import * as assert from 'node:assert/strict';
import { ElicitationAnswerValidator } from '../../../src/core/mcp/answerValidator';

const validator = new ElicitationAnswerValidator();

describe('the answers an MCP client gives to a confirmation', () => {
  it('takes any object for the empty schema a confirmation asks with', () => {
    const check = validator.getValidator({ type: 'object', properties: {} });
    assert.deepEqual(check({}), { valid: true, data: {}, errorMessage: undefined });
    assert.equal(check({ anything: 1 }).valid, true);
  });

  it('refuses an answer that is not an object', () => {
    const check = validator.getValidator({ type: 'object', properties: {} });
    for (const answer of [null, 'yes', 3, [], undefined]) assert.deepEqual(check(answer), { valid: false, data: undefined, errorMessage: 'The answer is not an object.' });
  });

  it('checks the flat fields elicitation allows: types, required names and offered values', () => {
    const check = validator.getValidator({
      type: 'object',
      properties: { reason: { type: 'string', enum: ['cost', 'time'] }, jobs: { type: 'integer' }, share: { type: 'number' }, ok: { type: 'boolean' } },
      required: ['ok'],
    });
    assert.equal(check({ ok: true, reason: 'cost', jobs: 3, share: 0.5 }).valid, true);
    assert.equal(check({ reason: 'cost' }).errorMessage, 'The answer has no ok.');
    assert.equal(check({ ok: 'yes' }).errorMessage, "The answer's ok is not a boolean.");
    assert.equal(check({ ok: true, jobs: 2.5 }).errorMessage, "The answer's jobs is not an integer.");
    assert.equal(check({ ok: true, share: Number.NaN }).errorMessage, "The answer's share is not a number.");
    assert.equal(check({ ok: true, reason: 'mood' }).errorMessage, "The answer's reason is not one of the values offered.");
  });

  it('refuses every answer to a schema elicitation does not allow, rather than waving it through', () => {
    for (const schema of [{ type: 'string' }, { type: 'object', properties: { nested: { type: 'object' } } }, { type: 'object', properties: [] }, { type: 'object', required: 'ok' }, null]) {
      const result = validator.getValidator(schema)({});
      assert.equal(result.valid, false, JSON.stringify(schema));
    }
  });
});
