import * as assert from 'node:assert/strict';
import { parseSample } from '../../../src/core/summary/sampleData';
import { isStoredSample, rememberSample, type StoredSample } from '../../../src/core/summary/sampleMemory';

describe('sample data the user edits', () => {
  it('reads JSON of any kind, and an empty text as no data', () => {
    assert.deepEqual(parseSample('{"a": [1, {"b": null}]}'), { ok: true, value: { a: [1, { b: null }] } });
    assert.deepEqual(parseSample('[1, 2]'), { ok: true, value: [1, 2] });
    assert.deepEqual(parseSample('  \n'), { ok: true, value: {} });
  });

  it('says where the JSON is broken, by line and column', () => {
    const result = parseSample('{\n  "a": 1,\n  "b": tru\n}');
    assert.ok(!result.ok);
    assert.deepEqual(result.problem.start, { line: 3, column: 8 });
    assert.match(result.problem.message, /^The sample is not valid JSON: a character that cannot start a JSON value was found/);
  });

  it('refuses what the service would not send: comments and trailing commas', () => {
    assert.equal(parseSample('{"a": 1, }').ok, false);
    assert.equal(parseSample('{"a": 1 // note\n}').ok, false);
  });

  it('counts further problems instead of listing them all', () => {
    const result = parseSample('{"a": , "b": , "c": }');
    assert.ok(!result.ok);
    assert.match(result.problem.message, /and \d+ more problems\)$/);
  });
});

describe('remembered samples', () => {
  const at = (usedAt: number, text = '{}'): StoredSample => ({ text, origin: 'Edited', usedAt });

  it('keeps one sample per key, the newest replacing the old', () => {
    const once = rememberSample({}, 'policy:1', at(1, '{"a":1}'));
    const twice = rememberSample(once, 'policy:1', at(2, '{"a":2}'));
    assert.deepEqual(Object.keys(twice), ['policy:1']);
    assert.equal(twice['policy:1']!.text, '{"a":2}');
    assert.equal(once['policy:1']!.text, '{"a":1}', 'the old record is not changed');
  });

  it('forgets the samples changed longest ago past the count limit', () => {
    let samples = {};
    for (let i = 1; i <= 5; i++) samples = rememberSample(samples, `policy:${i}`, at(i), { maxChars: 100, maxCount: 3 });
    assert.deepEqual(Object.keys(samples).sort(), ['policy:3', 'policy:4', 'policy:5']);
  });

  it('does not keep a sample too large to remember, and drops the older one it replaces', () => {
    const small = rememberSample({}, 'policy:1', at(1, '{}'), { maxChars: 10, maxCount: 3 });
    const large = rememberSample(small, 'policy:1', at(2, `{"a":"${'x'.repeat(20)}"}`), { maxChars: 10, maxCount: 3 });
    assert.deepEqual(large, {});
  });

  it('recognises only well-formed remembered samples in storage', () => {
    assert.equal(isStoredSample(at(1)), true);
    for (const bad of [null, 'x', {}, { text: 1, origin: 'o', usedAt: 1 }, { text: '', origin: 'o' }]) assert.equal(isStoredSample(bad), false);
  });
});
