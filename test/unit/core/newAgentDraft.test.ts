import * as assert from 'node:assert/strict';
import { checkJson } from '../../../src/core/documents/jsonProblems';
import { createAgentBody, inputDefinitionsOf, newAgentDraft, NewAgentDraftSchema } from '../../../src/core/documents/newAgentDraft';

const engine = {
  engine_class_id: 'llm_conversation_reviewer',
  name: 'Conversation Reviewer (LLM)',
  description: 'Reviews a transcript against a policy.',
  input_schema: { type: 'object', properties: { transcript: { type: 'string', description: 'The call', 'x-data-type': 'text/plain' }, recording: { type: 'string', format: 'binary' } } },
  default_engine_config: { model: 'gpt-4o-mini', temperature: 0.2, policy_id: '' },
};

describe('new agent draft', () => {
  it('starts from the engine’s inputs and default config, with the model chosen', () => {
    const draft = newAgentDraft('Call QA', engine, 'o3-mini');
    assert.deepEqual(draft.input_definitions, [
      { key: 'transcript', data_type: 'text/plain', description: 'The call' },
      { key: 'recording', data_type: 'application/octet-stream' },
    ]);
    assert.deepEqual(draft.engine_config, { model: 'o3-mini', temperature: '0.2', policy_id: '' });
    assert.equal(draft.engine_class_id, 'llm_conversation_reviewer');
    assert.equal(draft.version_name, 'version 1');
  });

  it('keeps the engine’s model when none is chosen, and offers one text input when the engine names none', () => {
    const draft = newAgentDraft('Plain', { engine_class_id: 'x' });
    assert.deepEqual(draft.engine_config, {});
    assert.equal(draft.input_definitions.length, 1);
    assert.equal(newAgentDraft('A', engine).engine_config.model, 'gpt-4o-mini');
  });

  it('leaves out a default of null instead of writing the text "null", and keeps a list as its JSON text', () => {
    const draft = newAgentDraft('Nulls', { engine_class_id: 'x', default_engine_config: { model: 'gpt-4o', stop: null, labels: ['a', 'b'], strict: true } });
    assert.deepEqual(draft.engine_config, { model: 'gpt-4o', labels: '["a","b"]', strict: 'true' });
    assert.equal(checkJson(JSON.stringify(draft), NewAgentDraftSchema).ok, true);
  });

  it('prefers an engine’s own list of input definitions', () => {
    assert.deepEqual(inputDefinitionsOf([{ key: 'doc', data_type: 'application/pdf', example: '' }, { nokey: true }]), [{ key: 'doc', data_type: 'application/pdf' }]);
  });

  it('is checked by the same schema the editor completes with, and becomes the create request', () => {
    const text = JSON.stringify(newAgentDraft('  Call QA ', engine));
    const check = checkJson(text, NewAgentDraftSchema);
    assert.ok(check.ok);
    assert.equal(createAgentBody(check.value).name, 'Call QA');
    assert.equal('description' in createAgentBody({ ...check.value, description: '  ' }), false, 'a blank description is left out, as the live service refuses an empty one');
    assert.equal(createAgentBody({ ...check.value, description: 'Reviews calls' }).description, 'Reviews calls');
    const bad = checkJson(JSON.stringify({ ...newAgentDraft('x', engine), name: '', extra: 1 }), NewAgentDraftSchema);
    assert.equal(bad.ok, false);
  });
});
