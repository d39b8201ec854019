import * as assert from 'node:assert/strict';
import { checkFiles, confirmationQuestion, uploadSummary } from '../../../src/core/uploads/uploadPlan';
import { parseMetadata } from '../../../src/core/uploads/uploadMetadata';

const file = (name: string, size = 10, isFile = true) => ({ path: `/tmp/${name}`, name, size, isFile });

describe('upload plan', () => {
  it('refuses folders, over-long names and sizes the service cannot record, before anything is sent', () => {
    const { accepted, refused } = checkFiles([file('ok.txt'), file('folder', 0, false), file('x'.repeat(1025)), file('huge.bin', 2_147_483_648), file('edge.bin', 2_147_483_647), file('n'.repeat(1024))]);
    assert.deepEqual(accepted.map((f) => f.name.length > 20 ? 'long-1024' : f.name), ['ok.txt', 'edge.bin', 'long-1024']);
    assert.equal(refused.length, 3);
    assert.match(refused[0]!.reason, /folder/);
    assert.match(refused[1]!.reason, /1,025 characters.*at most 1,024/);
    assert.match(refused[2]!.reason, /2 GB.*2,147,483,647 bytes/);
  });

  it('asks once before many files or a large total, naming the count and size', () => {
    const limits = { maxCount: 20, maxBytes: 100 * 1024 * 1024 };
    assert.equal(confirmationQuestion([file('a'), file('b')], limits, 'Calls'), undefined);
    const many = Array.from({ length: 21 }, (_, i) => file(`f${i}`, 1024));
    assert.equal(confirmationQuestion(many, limits, 'Calls'), 'Upload 21 files (21 KB in all) to “Calls”?');
    assert.equal(confirmationQuestion([file('big', 150 * 1024 * 1024)], limits, 'Calls'), 'Upload 1 file (150 MB in all) to “Calls”?');
  });

  it('takes optional metadata as a JSON object and refuses anything else', () => {
    assert.deepEqual(parseMetadata(''), { ok: true, value: undefined });
    assert.deepEqual(parseMetadata(' {"source":"crm"} '), { ok: true, value: { source: 'crm' } });
    assert.equal(parseMetadata('{source: crm}').ok, false);
    assert.equal(parseMetadata('[1,2]').ok, false);
    assert.equal(parseMetadata('"text"').ok, false);
  });

  it('says where bad metadata is broken in words, by line and column, not by the parser’s position', () => {
    const bad = parseMetadata('{source: "crm"}');
    assert.ok(!bad.ok);
    assert.equal(bad.problem, 'Not valid JSON: line 1, column 2: a property name in double quotes was expected');
    const unclosed = parseMetadata('{\n  "source": "crm"\n');
    assert.ok(!unclosed.ok);
    assert.match(unclosed.problem, /^Not valid JSON: line 3, column 1: a closing brace \(\}\) was expected$/);
  });

  it('sums up which files went and which failed and why', () => {
    assert.equal(uploadSummary([{ name: 'a.txt', ok: true }], 'Calls', false), 'Uploaded “a.txt” to “Calls”.');
    assert.equal(
      uploadSummary([{ name: 'a.txt', ok: true }, { name: 'b.txt', ok: false, reason: 'The service refused it (413)' }], 'Calls', false),
      'Uploaded 1 of 2 files to “Calls”. Not uploaded: b.txt: The service refused it (413).',
    );
    assert.match(uploadSummary([{ name: 'a', ok: true }, { name: 'b', ok: false, reason: 'cancelled' }], 'C', true), /\(cancelled\)/);
  });
});
