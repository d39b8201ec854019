// Why a case changed: the rules whose result differs between the baseline's run and another target's.
import * as assert from 'node:assert/strict';
import { comparisonView } from '../../../src/core/comparison/comparisonView';
import { newComparison } from '../../../src/core/comparison/comparisonRecord';
import { matchedRuleList, matchedRules, ruleChanges, ruleChangesText } from '../../../src/core/comparison/ruleChanges';

const out = (disposition: string, rules: unknown) => [
  { key: 'disposition', value: disposition, data_type: 'text/plain' },
  { key: 'matched_rules', value: JSON.stringify(rules), data_type: 'application/json' },
];

describe('comparison: why a case changed', () => {
  it('reads the matched rules of the sandbox’s output, of a list of names, and of an object of results', () => {
    assert.deepEqual([...matchedRules(out('x', [{ rule: 'Promises outcomes', flag: 'RED_FLAG' }, { title: 'Greets' }]))!], ['Promises outcomes', 'Greets']);
    assert.deepEqual([...matchedRules(out('x', ['A', 'B']))!], ['A', 'B']);
    assert.deepEqual([...matchedRules(out('x', { A: true, B: false, C: { matched: true } }))!], ['A', 'C']);
    assert.equal(matchedRules([{ key: 'matched_rules', value: 'not json' }]), undefined);
    assert.equal(matchedRules([{ key: 'disposition', value: 'x' }]), undefined);
    assert.deepEqual([...matchedRules(out('x', [{ rule: 'A', matched: false }]))!], []);
  });

  it('reads the category of each matched rule where the output gives one, so rules named twice stay apart', () => {
    const rules = matchedRuleList(out('x', [{ category: 'Opening', rule: 'Uses the name' }, { category: 'Closing', rule: 'Uses the name' }, 'Greets', { rule: 'Greets' }]));
    assert.deepEqual(rules, [{ category: 'Opening', name: 'Uses the name' }, { category: 'Closing', name: 'Uses the name' }, { name: 'Greets' }]);
    assert.deepEqual([...matchedRules(out('x', [{ category: 'Opening', rule: 'Uses the name' }, { category: 'Closing', rule: 'Uses the name' }]))!], ['Uses the name']);
  });

  it('names the rules matched on one side only', () => {
    const changes = ruleChanges(out('Non-Compliant', [{ rule: 'Promises outcomes' }, { rule: 'Verifies caller' }]), out('Compliant', [{ rule: 'Verifies caller' }, { rule: 'Recaps' }]));
    assert.deepEqual(changes, [{ rule: 'Promises outcomes', matchedBy: 'baseline' }, { rule: 'Recaps', matchedBy: 'other' }]);
    assert.equal(ruleChangesText(changes, 'Before', 'Now'), 'Why: “Promises outcomes” matched by Before only; “Recaps” matched by Now only.');
    assert.deepEqual(ruleChanges(out('x', ['A']), [{ key: 'disposition', value: 'y' }]), [], 'nothing when one side says nothing about rules');
  });

  it('gives a changed row of the page its reason, and an unchanged one none', () => {
    const record = newComparison({
      title: 't', agentId: 'a', testSet: 'cases.jsonl',
      cases: [{ line: 1, tags: [], inputs: {} }, { line: 2, tags: [], inputs: {} }] as never,
      targets: [{ id: 'before', label: 'Before', kind: 'current' }, { id: 'now', label: 'Now', kind: 'current' }],
    });
    record.cases[0]!.runs = { before: { jobId: '1', status: 3, outputs: out('Non-Compliant', ['Promises outcomes']) }, now: { jobId: '2', status: 3, outputs: out('Compliant', []) } };
    record.cases[1]!.runs = { before: { jobId: '3', status: 3, outputs: out('Compliant', []) }, now: { jobId: '4', status: 3, outputs: out('Compliant', []) } };
    const rows = comparisonView(record).rows;
    assert.equal(rows[0]!.why, 'Why: “Promises outcomes” matched by Before only.');
    assert.equal(rows[1]!.why, null);
  });
});
