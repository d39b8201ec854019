import * as assert from 'node:assert/strict';
import { sameJson, samePolicyContent } from '../../../src/core/documents/sameJson';

describe('same JSON', () => {
  it('sees an edit that only reorders keys or reformats as no change', () => {
    assert.equal(sameJson(JSON.parse('{"a": 1, "b": [1, {"c": null}]}'), { b: [1, { c: null }], a: 1 }), true);
  });

  it('sees any changed, added or removed value, and the order of list items', () => {
    assert.equal(sameJson({ a: 1 }, { a: 2 }), false);
    assert.equal(sameJson({ a: 1 }, { a: 1, b: 1 }), false);
    assert.equal(sameJson({ a: 1, b: undefined }, { a: 1, c: undefined }), false);
    assert.equal(sameJson([1, 2], [2, 1]), false);
    assert.equal(sameJson({ a: [] }, { a: {} }), false);
    assert.equal(sameJson(null, {}), false);
  });
});

describe('same policy content', () => {
  const saved = {
    guidelines: { categories: [{ id: 'c1', title: 'Refunds', rules: [{ id: 'r1', title: 'No promises', flag: 'RED_FLAG', sub_rules: [{ id: 's1', title: 'Timing' }] }] }] },
    dispositions: { classifications: [{ name: 'Compliant' }] },
  };

  it('sees a version whose category, rule and sub-rule ids the service made anew as unchanged', () => {
    const regenerated = {
      guidelines: { categories: [{ id: 'c9', title: 'Refunds', rules: [{ id: 'r9', title: 'No promises', flag: 'RED_FLAG', sub_rules: [{ id: 's9', title: 'Timing' }] }] }] },
      dispositions: { classifications: [{ name: 'Compliant' }] },
    };
    assert.equal(sameJson(saved, regenerated), false);
    assert.equal(samePolicyContent(saved, regenerated), true);
    const withoutIds = JSON.parse(JSON.stringify(saved).replace(/"id":"\w+",/g, '')) as unknown;
    assert.equal(samePolicyContent(withoutIds, saved), true);
  });

  it('still sees an edited title, flag or sub-rule, and ids outside the guidelines', () => {
    const edited = structuredClone(saved);
    edited.guidelines.categories[0]!.rules[0]!.sub_rules[0]!.title = 'Timing of refunds';
    assert.equal(samePolicyContent(saved, edited), false);
    const flagged = structuredClone(saved);
    flagged.guidelines.categories[0]!.rules[0]!.flag = 'GREEN_FLAG';
    assert.equal(samePolicyContent(saved, flagged), false);
    assert.equal(samePolicyContent({ ...saved, id: 'a' }, { ...saved, id: 'b' }), false);
  });

  it('compares a rule keyed "__proto__" as data', () => {
    const odd = JSON.parse('{"guidelines":{"categories":[{"id":"c1","title":"T","rules":[{"id":"r1","title":"R","__proto__":{"x":1}}]}]}}') as unknown;
    const other = JSON.parse('{"guidelines":{"categories":[{"id":"c2","title":"T","rules":[{"id":"r2","title":"R","__proto__":{"x":2}}]}]}}') as unknown;
    assert.equal(samePolicyContent(odd, odd), true);
    assert.equal(samePolicyContent(odd, other), false);
  });
});
