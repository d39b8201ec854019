import * as assert from 'node:assert/strict';
import { parseTestSet } from '../../../src/core/comparison/testSet';
import { writeLabel, type LabelEdit } from '../../../src/core/comparison/testSetLabel';

const AT = '2026-11-27T07:30:00.000Z';

/** Every line of `after` but `changed` (1-based) is the same bytes as in `before`. */
function assertOnlyLinesChanged(before: string, after: string, changed: number[]): void {
  const a = before.split('\n');
  const b = after.split('\n');
  assert.equal(b.length, a.length, 'the number of lines is kept');
  a.forEach((line, i) => {
    if (!changed.includes(i + 1)) assert.equal(b[i], line, `line ${i + 1} is kept byte for byte`);
  });
}

function labelled(fileName: string, text: string, edit: LabelEdit): string {
  const result = writeLabel(fileName, text, edit);
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.text;
}

describe('writing a label into a test set', () => {
  describe('JSONL', () => {
    const text = [
      '// cases from the March review',
      '{"name":"a","inputs":{"transcript":"one"}}',
      '',
      '{"name":"b", "inputs":{"transcript":"two"}, "expected":"Compliant", "tags":["x"]}\r',
      '{not json at all',
      '  {"name":"c","inputs":{"transcript":"three"},"source_job_id":"job-3"}',
      '// trailing comment',
    ].join('\n');

    it('writes the expectation and the label on the case line and keeps every other byte', () => {
      const after = labelled('calls.testset.jsonl', text, { line: 2, name: 'a', shown: undefined, expected: { disposition: 'Non-Compliant' }, label: { note: 'promised $240', by: 'priya', at: AT } });
      assertOnlyLinesChanged(text, after, [2]);
      assert.equal(after.split('\n')[1], `{"name":"a","inputs":{"transcript":"one"},"expected":"Non-Compliant","label_note":"promised $240","labelled_by":"priya","labelled_at":"${AT}"}`);
      const c = parseTestSet('calls.testset.jsonl', after).cases.find((x) => x.line === 2)!;
      assert.deepEqual(c.expected, { disposition: 'Non-Compliant' });
      assert.deepEqual(c.label, { note: 'promised $240', by: 'priya', at: AT });
    });

    it('replaces an expectation in its place, keeps the key order, the indent and a CRLF line end', () => {
      const after = labelled('calls.testset.jsonl', text, { line: 4, name: 'b', shown: { disposition: 'Compliant' }, expected: { disposition: 'Needs Review' }, label: { by: 'sam', at: AT } });
      assertOnlyLinesChanged(text, after, [4]);
      assert.equal(after.split('\n')[3], `{"name":"b","inputs":{"transcript":"two"},"expected":"Needs Review","tags":["x"],"labelled_by":"sam","labelled_at":"${AT}"}\r`);
      const indented = labelled('calls.testset.jsonl', text, { line: 6, name: 'c', shown: undefined, expected: { disposition: 'Compliant', outputs: { summary: 'ok' } }, label: { at: AT } });
      assertOnlyLinesChanged(text, indented, [6]);
      assert.match(indented.split('\n')[5]!, /^ {2}\{"name":"c",.*"source_job_id":"job-3","expected":\{"disposition":"Compliant","outputs":\{"summary":"ok"\}\},"labelled_at":/);
    });

    it('drops a previous note that does not belong to the new label', () => {
      const once = labelled('s.jsonl', text, { line: 2, shown: undefined, expected: { disposition: 'Compliant' }, label: { note: 'old', by: 'a', at: AT } });
      const twice = labelled('s.jsonl', once, { line: 2, shown: { disposition: 'Compliant' }, expected: { disposition: 'Non-Compliant' }, label: { by: 'b', at: AT } });
      assert.doesNotMatch(twice.split('\n')[1]!, /label_note/);
      assert.match(twice.split('\n')[1]!, /"labelled_by":"b"/);
    });

    it('refuses to overwrite a label the caller did not see', () => {
      const result = writeLabel('s.jsonl', text, { line: 4, name: 'b', shown: undefined, expected: { disposition: 'Non-Compliant' }, label: { at: AT } });
      assert.equal(result.ok, false);
      assert.equal(!result.ok && result.conflict, 'changed');
      assert.deepEqual(!result.ok && result.current, { disposition: 'Compliant' });
      assert.match(!result.ok ? result.message : '', /labelled "Compliant" meanwhile/);
    });

    it('refuses when the line now holds another case or none', () => {
      const moved = writeLabel('s.jsonl', text, { line: 2, name: 'b', shown: undefined, expected: { disposition: 'X' }, label: {} });
      assert.equal(!moved.ok && moved.conflict, 'moved');
      const gone = writeLabel('s.jsonl', text, { line: 5, shown: undefined, expected: { disposition: 'X' }, label: {} });
      assert.equal(!gone.ok && gone.conflict, 'missing');
    });
  });

  describe('CSV', () => {
    const text = ['name,transcript,expected', 'a,"Hello, there",Compliant', 'broken,"never closed', 'b,"two', 'lines"', 'c,three', ''].join('\r\n');

    it('changes the labelled row only, and appends new label columns to the header', () => {
      const after = labelled('calls.testset.csv', text, { line: 6, name: 'c', shown: undefined, expected: { disposition: 'Non-Compliant' }, label: { note: 'says "free upgrade", twice', by: 'priya', at: AT } });
      const lines = after.split('\r\n');
      assert.equal(lines[0], 'name,transcript,expected,label_note,labelled_by,labelled_at');
      assert.equal(lines[5], `c,three,Non-Compliant,"says ""free upgrade"", twice",priya,${AT}`);
      assertOnlyLinesChanged(text.replaceAll('\r\n', '\n'), after.replaceAll('\r\n', '\n'), [1, 6]);
      const parsed = parseTestSet('calls.testset.csv', after);
      const c = parsed.cases.find((x) => x.name === 'c')!;
      assert.deepEqual(c.inputs, { transcript: 'three' }, 'label columns are not inputs');
      assert.deepEqual(c.label, { note: 'says "free upgrade", twice', by: 'priya', at: AT });
      assert.deepEqual(parsed.cases.find((x) => x.name === 'a')!.expected, { disposition: 'Compliant' }, 'a shorter row is still read');
    });

    it('labels a row that spans lines and keeps the rows around it', () => {
      const after = labelled('calls.csv', text, { line: 4, name: 'b', shown: undefined, expected: { disposition: 'Compliant' }, label: {} });
      assert.equal(after, text.replace('b,"two\r\nlines"', 'b,"two\r\nlines",Compliant'));
    });

    it('refuses to overwrite a label the caller did not see', () => {
      const result = writeLabel('calls.csv', text, { line: 2, name: 'a', shown: { disposition: 'Non-Compliant' }, expected: { disposition: 'Needs Review' }, label: {} });
      assert.equal(!result.ok && result.conflict, 'changed');
    });
  });
});
