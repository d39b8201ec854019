import * as assert from 'node:assert/strict';
import { caseLabel, parseCsvTestSet, parseJsonlTestSet, parseTestSet, testCaseLine, testSetFormat } from '../../../src/core/comparison/testSet';

describe('test sets', () => {
  describe('JSONL', () => {
    it('reads one case a line with its name, tags, inputs, expectation and source job', () => {
      const text = [
        '{"name":"refund asked twice","tags":["refund","vip"],"inputs":{"transcript":"Hello"},"expected":{"disposition":"Escalate"},"source_job_id":"job-1"}',
        '{"inputs":{"transcript":"Bye","count":3}}',
      ].join('\n');
      const { cases, problems } = parseJsonlTestSet(text);
      assert.deepEqual(problems, []);
      assert.equal(cases.length, 2);
      assert.deepEqual(cases[0], {
        line: 1,
        name: 'refund asked twice',
        tags: ['refund', 'vip'],
        inputs: { transcript: 'Hello' },
        expected: { disposition: 'Escalate' },
        sourceJobId: 'job-1',
      });
      assert.deepEqual(cases[1], { line: 2, tags: [], inputs: { transcript: 'Bye', count: 3 } });
    });

    it('reports each bad line with its number and keeps every good one', () => {
      const text = ['{"inputs":{"a":"1"}}', '{not json', '', '// a comment', '[1,2]', '{"name":"no inputs"}', '{"inputs":{"a":"2"},"tags":"x"}', '{"inputs":{"a":"3"}}'].join('\n');
      const { cases, problems } = parseJsonlTestSet(text);
      assert.deepEqual(
        cases.map((c) => c.line),
        [1, 8],
      );
      assert.deepEqual(
        problems.map((p) => p.line),
        [2, 5, 6, 7],
      );
      assert.equal(problems[0]!.message, 'Not valid JSON: column 2: a property name in double quotes was expected');
      assert.match(problems[2]!.message, /inputs/);
      assert.match(problems[3]!.message, /tags/);
    });

    it('takes a bare string as the expected disposition and output values of any type as text', () => {
      const { cases } = parseJsonlTestSet('{"inputs":{"a":"1"},"expected":"Approve"}\r\n{"inputs":{"a":"1"},"expected":{"outputs":{"score":3,"label":"x"}}}');
      assert.deepEqual(cases[0]!.expected, { disposition: 'Approve' });
      assert.deepEqual(cases[1]!.expected, { outputs: { score: '3', label: 'x' } });
    });

    it('writes a case back as a line that reads the same', () => {
      const line = testCaseLine({ name: 'n', tags: ['t'], inputs: { a: 'x\ny' }, expected: { disposition: 'D' }, sourceJobId: 'j' });
      const { cases } = parseJsonlTestSet(line);
      assert.deepEqual(cases[0], { line: 1, name: 'n', tags: ['t'], inputs: { a: 'x\ny' }, expected: { disposition: 'D' }, sourceJobId: 'j' });
    });
  });

  describe('CSV', () => {
    it('reads a header, then a case a row: special columns have their meaning, the rest are inputs', () => {
      const text = 'name,tags,transcript,customer,expected,expected.summary,source_job_id\r\nfirst,"a; b","Hi, there",ACME,Approve,ok,job-9\r\nsecond,,"multi\nline",,,,\r\n';
      const { cases, problems } = parseCsvTestSet(text);
      assert.deepEqual(problems, []);
      assert.deepEqual(cases[0], {
        line: 2,
        name: 'first',
        tags: ['a', 'b'],
        inputs: { transcript: 'Hi, there', customer: 'ACME' },
        expected: { disposition: 'Approve', outputs: { summary: 'ok' } },
        sourceJobId: 'job-9',
      });
      assert.deepEqual(cases[1]!.inputs, { transcript: 'multi\nline' });
      assert.equal(cases[1]!.expected, undefined);
    });

    it('reports rows with too many cells or no inputs and keeps the others', () => {
      const { cases, problems } = parseCsvTestSet('transcript,name\nhello,a\nx,y,z\n,only name\nbye,b\n');
      assert.deepEqual(
        cases.map((c) => c.name),
        ['a', 'b'],
      );
      assert.deepEqual(
        problems.map((p) => p.line),
        [3, 4],
      );
    });

    it('says where a broken quote is instead of throwing', () => {
      const { cases, problems } = parseCsvTestSet('a\n"unterminated\n');
      assert.equal(cases.length, 0);
      assert.equal(problems.length, 1);
      assert.match(problems[0]!.message, /Not valid CSV/);
    });
  });

  it('picks the format from the file name', () => {
    assert.equal(testSetFormat('cases.testset.jsonl'), 'jsonl');
    assert.equal(testSetFormat('Cases.TESTSET.CSV'), 'csv');
    assert.equal(testSetFormat('notes.txt'), undefined);
    assert.equal(parseTestSet('x.csv', 'a\n1\n').cases.length, 1);
    assert.equal(parseTestSet('x.testset.jsonl', '{"inputs":{"a":1}}').cases.length, 1);
  });

  it('labels a case by its name, else by its line', () => {
    assert.equal(caseLabel({ name: 'n', line: 3 }), 'n');
    assert.equal(caseLabel({ line: 3 }), 'line 3');
  });
});
