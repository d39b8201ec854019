// Cases added at the end of a test set keep every byte before them, and are made from jobs as Create Test Set from Jobs… makes them.
import * as assert from 'node:assert/strict';
import type { AgentJob } from '../../../src/core/client';
import { parseTestSet } from '../../../src/core/comparison/testSet';
import { appendedText, appendLinesBytes, appendProblem, caseLinesFromJobs, sourceJobIds } from '../../../src/core/comparison/testSetAppend';

const bytes = (...parts: (string | number[])[]) => Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));
const job = (id: string, transcript: string): AgentJob => ({ id, status_code: 3, created_at: '2026-01-01T00:00:00Z', job_inputs: [{ key: 'transcript', value: transcript }] });

describe('cases added to the end of a test set', () => {
  it('keeps a BOM, CRLF line ends and bytes that are not UTF-8, and ends the new lines with CRLF', () => {
    const before = bytes([0xef, 0xbb, 0xbf], '// agent: a\r\n{"inputs":{"t":"', [0xff, 0xfe], '"}}\r\n');
    const after = appendLinesBytes(before, ['{"inputs":{"t":"new"}}']);
    assert.deepEqual(after.subarray(0, before.length), before);
    assert.equal(new TextDecoder().decode(after.subarray(before.length)), '{"inputs":{"t":"new"}}\r\n');
  });

  it('ends a last line that has no line end before adding', () => {
    assert.equal(new TextDecoder().decode(appendLinesBytes(bytes('{"inputs":{}}'), ['A', 'B'])), '{"inputs":{}}\nA\nB\n');
    assert.equal(appendedText('{"inputs":{}}\r\n{"inputs":{}}', ['A']), '\r\nA\r\n');
    assert.equal(appendedText('', ['A']), 'A\n');
  });

  it('adds only to JSONL test sets', () => {
    assert.equal(appendProblem('qa.testset.jsonl'), undefined);
    assert.match(appendProblem('qa.testset.csv') ?? '', /is not a JSONL test set/);
  });

  it('makes cases of jobs with their inputs and the job as the results before, and knows the jobs a test set has', () => {
    const { lines } = caseLinesFromJobs([job('j-1', 'Agent: Could I have your account PIN, please?')], new Map());
    const text = `// agent: a\n${lines.join('\n')}\n`;
    const [c] = parseTestSet('qa.testset.jsonl', text).cases;
    assert.deepEqual(c?.inputs, { transcript: 'Agent: Could I have your account PIN, please?' });
    assert.equal(c?.sourceJobId, 'j-1');
    assert.equal(c?.expected, undefined);
    assert.deepEqual([...sourceJobIds('qa.testset.jsonl', text)], ['j-1']);
  });
});
