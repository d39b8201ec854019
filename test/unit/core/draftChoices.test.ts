import { strict as assert } from 'node:assert';
import { draftChoiceAt } from '../../../src/core/documents/draftChoice';

const draft = JSON.stringify({ name: 'Triage', engine_config: { policy_id: '', model: 'gpt', temperature: '0.2' }, input_definitions: [{ key: 'model' }] }, null, 2);
const inside = (snippet: string, shift: number): number => draft.indexOf(snippet) + shift;

describe('Completion of an agent draft’s policy and model', () => {
  it('offers policies inside the policy_id value and models inside the model value', () => {
    assert.equal(draftChoiceAt(draft, inside('"policy_id": ""', 14)), 'policy_id');
    assert.equal(draftChoiceAt(draft, inside('"model": "gpt"', 11)), 'model');
  });

  it('offers nothing on the keys, on other settings, or on a field of the same name elsewhere', () => {
    assert.equal(draftChoiceAt(draft, inside('"policy_id"', 3)), undefined);
    assert.equal(draftChoiceAt(draft, inside('"temperature": "0.2"', 17)), undefined);
    assert.equal(draftChoiceAt(draft, inside('"key": "model"', 10)), undefined);
  });
});
