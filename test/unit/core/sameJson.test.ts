import * as assert from 'node:assert/strict';
import { sameJson } from '../../../src/core/documents/sameJson';

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
