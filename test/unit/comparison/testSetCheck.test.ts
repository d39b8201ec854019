import * as assert from 'node:assert/strict';
import { checkTestSet, testSetAgentId, testSetHeader } from '../../../src/core/comparison/testSetCheck';

describe('checking a test set against the agent it names', () => {
  const text = [
    testSetHeader('agent-1', 'Support Call QA'),
    '{"inputs": {"transcript": "hello", "language": "en"}}',
    '{"inputs": {"transcript": "hi", "langauge": "en"}}',
    '{"inputs": {"transcript": "oops"',
  ].join('\n');

  it('reads the agent from the header line, which the cases skip', () => {
    assert.equal(testSetAgentId(text), 'agent-1');
    assert.equal(testSetAgentId('{"inputs": {}}'), undefined);
  });

  it('names a misspelt input and the one it leaves out on their line, and a broken line as an error', () => {
    const problems = checkTestSet('a.testset.jsonl', text, ['transcript', 'language']);
    assert.deepEqual(
      problems.map((p) => [p.line, p.severity, p.term]),
      [
        [3, 'warning', '"langauge"'],
        [3, 'warning', '"inputs"'],
        [4, 'error', undefined],
      ],
    );
    assert.match(problems[0]!.message, /takes no input "langauge"/);
    assert.match(problems[1]!.message, /Missing input: language/);
  });

  it('checks only the lines when the agent is not known', () => {
    assert.deepEqual(checkTestSet('a.testset.jsonl', text).map((p) => p.line), [4]);
  });

  it('underlines an expected disposition the policy does not name, on its value, in JSONL and CSV alike', () => {
    const jsonl = [
      testSetHeader('agent-1', 'Support Call QA'),
      '{"name": "named", "inputs": {"transcript": "Escalate"}, "expected": "Escalate"}',
      '{"name": "case and space", "inputs": {"transcript": "a"}, "expected": {"disposition": "  escalate "}}',
      '{"name": "unknown", "inputs": {"transcript": "Escalte"}, "expected": "Escalte"}',
      '{"name": "outputs only", "inputs": {"transcript": "b"}, "expected": {"outputs": {"summary": "x"}}}',
    ].join('\n');
    const problems = checkTestSet('a.testset.jsonl', jsonl, undefined, ['Escalate', 'Resolve']);
    assert.deepEqual(problems.map((p) => [p.line, p.severity, p.term]), [[4, 'warning', '"Escalte"']]);
    assert.equal(problems[0]!.message, '"Escalte" is not a disposition of the policy the agent applies (it names Escalate, Resolve).');

    const csv = ['name,transcript,expected', 'one,hello,Resolve', 'two,Refund,Refund please', 'three,hi,'].join('\n');
    assert.deepEqual(checkTestSet('a.testset.csv', csv, ['transcript'], ['Escalate', 'Resolve']).map((p) => [p.line, p.term]), [[3, 'Refund please']]);
  });

  it('says nothing of expected values when the policy names no dispositions, or they are not known', () => {
    const one = [testSetHeader('agent-1', 'QA'), '{"inputs": {"t": "x"}, "expected": "Anything"}'].join('\n');
    assert.deepEqual(checkTestSet('a.testset.jsonl', one, undefined, []), []);
    assert.deepEqual(checkTestSet('a.testset.jsonl', one, undefined, undefined), []);
  });
});
