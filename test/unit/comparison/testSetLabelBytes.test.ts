import * as assert from 'node:assert/strict';
import { parseTestSet } from '../../../src/core/comparison/testSet';
import { writeLabelBytes } from '../../../src/core/comparison/testSetLabelBytes';
import type { LabelEdit } from '../../../src/core/comparison/testSetLabel';

const AT = '2026-11-27T07:30:00.000Z';
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
// Latin-1 "café" and a lone continuation byte: not UTF-8, as files from old exports are.
const NOT_UTF8 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80]);

/** The file's lines as bytes, split at LF (a CR stays with its line). */
function lines(bytes: Uint8Array): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  const b = Buffer.from(bytes);
  for (let i = b.indexOf(0x0a); i >= 0; i = b.indexOf(0x0a, start)) {
    out.push(b.subarray(start, i));
    start = i + 1;
  }
  out.push(b.subarray(start));
  return out;
}

/** Every byte but those of line `changed` (1-based) is the same as before; answers the new line. */
function assertOnlyLineChanged(before: Uint8Array, after: Uint8Array, changed: number): string {
  const a = lines(before);
  const b = lines(after);
  assert.equal(b.length, a.length, 'the number of lines is kept');
  a.forEach((line, i) => {
    if (i + 1 !== changed) assert.ok(line.equals(b[i]!), `line ${i + 1} is kept byte for byte: ${JSON.stringify(line.toString('latin1'))} became ${JSON.stringify(b[i]!.toString('latin1'))}`);
  });
  assert.ok(!a[changed - 1]!.equals(b[changed - 1]!), 'the labelled line changed');
  return b[changed - 1]!.toString('utf8');
}

function labelled(fileName: string, bytes: Uint8Array, edit: LabelEdit): Uint8Array {
  const { result, bytes: out } = writeLabelBytes(fileName, bytes, edit);
  assert.ok(result.ok, result.ok ? '' : result.message);
  assert.ok(out);
  return out;
}

const label = (line: number, name: string, shown?: string): LabelEdit => ({ line, name, shown: shown ? { disposition: shown } : undefined, expected: { disposition: 'Non-Compliant' }, label: { by: 'priya', at: AT } });

describe('writing a label into a test set file as bytes (the file closed)', () => {
  describe('JSONL', () => {
    const file = Buffer.concat([
      BOM,
      Buffer.from('// cases from the March review\r\n{"name":"a","inputs":{"transcript":"one"}}\r\n'),
      Buffer.from('{"name":"b","inputs":{"transcript":"'),
      NOT_UTF8,
      Buffer.from('"},"expected":"Compliant"}\n'),
      Buffer.from('// note: '),
      NOT_UTF8,
      Buffer.from('\r\n{"name":"c","inputs":{"transcript":"three"}}\n'),
    ]);

    it('keeps the BOM, the CRLF and LF line ends and bytes that are not UTF-8 on every other line', () => {
      const after = labelled('calls.testset.jsonl', file, label(2, 'a'));
      assert.ok(Buffer.from(after.subarray(0, 3)).equals(BOM), 'the BOM is kept');
      const line = assertOnlyLineChanged(file, after, 2);
      assert.equal(line, `{"name":"a","inputs":{"transcript":"one"},"expected":"Non-Compliant","labelled_by":"priya","labelled_at":"${AT}"}\r`);
    });

    it('labels the last case, after lines that are not UTF-8, in place', () => {
      const after = labelled('calls.testset.jsonl', file, label(5, 'c'));
      assert.match(assertOnlyLineChanged(file, after, 5), /^\{"name":"c",.*"expected":"Non-Compliant"/);
      const c = parseTestSet('calls.testset.jsonl', new TextDecoder().decode(after)).cases.find((x) => x.line === 5)!;
      assert.deepEqual(c.expected, { disposition: 'Non-Compliant' });
    });

    it('labels a case whose own line is not UTF-8, changing that line only', () => {
      const after = labelled('calls.testset.jsonl', file, label(3, 'b', 'Compliant'));
      assert.match(assertOnlyLineChanged(file, after, 3), /^\{"name":"b",.*"expected":"Non-Compliant"/);
    });

    it('answers a conflict, and no bytes, when the file says something else than the caller saw', () => {
      const { result, bytes } = writeLabelBytes('calls.testset.jsonl', file, label(3, 'b', 'Needs Review'));
      assert.equal(result.ok, false);
      assert.equal(bytes, undefined);
    });
  });

  describe('CSV', () => {
    const file = Buffer.concat([
      BOM,
      Buffer.from('name,transcript,expected\r\n'),
      Buffer.from('a,"'),
      NOT_UTF8,
      Buffer.from('",Compliant\r\n'),
      Buffer.from('b,two\n'),
      Buffer.from('c,'),
      NOT_UTF8,
      Buffer.from('\r\n'),
    ]);

    it('keeps the BOM, the line ends and bytes that are not UTF-8 on every other row, new label columns added to the header only', () => {
      const after = labelled('calls.csv', file, label(3, 'b'));
      assert.ok(Buffer.from(after.subarray(0, 3)).equals(BOM), 'the BOM is kept');
      const a = lines(file);
      const b = lines(after);
      assert.equal(b[0]!.toString('utf8'), '\ufeffname,transcript,expected,labelled_by,labelled_at\r', 'the header gains the label columns, its CRLF kept');
      assert.ok(a[1]!.equals(b[1]!) && a[3]!.equals(b[3]!) && a[4]!.equals(b[4]!), 'the other rows are kept byte for byte');
      assert.equal(b[2]!.toString('utf8'), `b,two,Non-Compliant,priya,${AT}`);
    });
  });
});
