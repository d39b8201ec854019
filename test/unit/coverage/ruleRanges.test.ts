// Where each rule of a policy's JSON text is: the place of its title, for the editor's lenses, marks and hovers.
import * as assert from 'node:assert/strict';
import { policyText } from '../../../src/core/coverage/ruleRanges';

const CONTENT = {
  guidelines: {
    categories: [
      { title: 'Identity', rules: [{ title: 'Verifies the caller', sub_rules: [{ title: 'Asks for the PIN' }] }] },
      { title: 'Resolution', rules: [{ title: 'States a next step' }, { flag: 'RED_FLAG' }] },
    ],
  },
};

/** The text at each rule's place. */
const atSpots = (text: string, spots: { offset: number; length: number }[]) => spots.map((s) => text.slice(s.offset, s.offset + s.length));

describe('the places of a policy’s rules in its JSON text', () => {
  it('finds the title of every rule and sub-rule, in the rules’ order', () => {
    const text = JSON.stringify(CONTENT, null, 2);
    const read = policyText(text);
    assert.deepEqual(read.spots.map((s) => s.rule.number), ['1.1', '1.1.1', '2.1', '2.2']);
    assert.deepEqual(atSpots(text, read.spots.slice(0, 3)), ['"Verifies the caller"', '"Asks for the PIN"', '"States a next step"']);
  });

  it('places a rule with no title on its object', () => {
    const text = JSON.stringify(CONTENT, null, 2);
    const spot = policyText(text).spots[3]!;
    assert.equal(text[spot.offset], '{');
    assert.equal(spot.rule.title, 'Untitled rule');
  });

  it('reads a policy file’s content and the policy it names', () => {
    const file = { kind: 'agent-workbench.policy', policyId: 'p-1', name: 'Quality', baseVersionId: 'v-2', content: CONTENT };
    const text = JSON.stringify(file, null, 2);
    const read = policyText(text, { file: true });
    assert.deepEqual(read.file, { policyId: 'p-1', name: 'Quality', baseVersionId: 'v-2' });
    assert.equal(atSpots(text, read.spots)[1], '"Asks for the PIN"');
  });

  it('still finds the rules before a syntax error while the user types', () => {
    const text = JSON.stringify(CONTENT, null, 2).replace('"States a next step" }', '"States a next step", }').replace('"flag"', '"flag" "');
    const read = policyText(text);
    assert.deepEqual(atSpots(text, read.spots.slice(0, 3)), ['"Verifies the caller"', '"Asks for the PIN"', '"States a next step"']);
  });

  it('gives no rules for a text nested past what the checks read, and for one that is not JSON', () => {
    assert.deepEqual(policyText('['.repeat(10_000)).spots, []);
    assert.deepEqual(policyText('not json').spots, []);
  });
});
