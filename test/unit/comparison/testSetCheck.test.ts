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
});
