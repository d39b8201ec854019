import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { planFor } from '../../../src/sandbox/jobs/lifecycle';
import { eventObjects } from '../../../src/sandbox/jobs/jobStore';
import { rankBySimilarity, tokenize } from '../../../src/sandbox/jobs/semantic';
import { SeededRandom } from '../../../src/sandbox/seed/random';
import { makePdf } from '../../../src/sandbox/seed/demoFiles';
import { writeFileAtomically } from '../../../src/sandbox/store/persistence';

describe('sandbox semantic search', () => {
  const docs = [
    { key: 'refund', text: 'I was charged twice for my invoice and want a refund' },
    { key: 'password', text: 'the password reset email never arrives' },
    { key: 'shipping', text: 'my parcel is stuck in transit, tracking has not changed' },
  ];

  it('ranks the document that shares the rare words first', () => {
    const ranked = rankBySimilarity('refund for a double charge on the invoice', docs);
    assert.equal(ranked[0]!.key, 'refund');
    assert.ok(ranked.every((r) => r.score > 0 && r.score <= 1));
  });

  it('keeps nothing when no word is shared, and ignores stop words', () => {
    assert.deepEqual(rankBySimilarity('quantum chromodynamics', docs), []);
    assert.deepEqual(rankBySimilarity('the and of', docs), []);
    assert.deepEqual(tokenize('The Café, déjà-vu: 42!'), ['café', 'déjà', 'vu', '42']);
  });
});

describe('sandbox job lifecycle plans', () => {
  it('always ends in SUCCESS or FAILURE, follows the markers, and is the same for the same inputs', () => {
    assert.deepEqual(planFor('hello [ok]', 'ffffffff00000000'), [{ s: 1 }, { s: 3 }]);
    const failing = planFor('this will [fail]', '0000000000000000');
    assert.equal(failing.at(-1)!.s, 4);
    assert.ok(failing.at(-1)!.e);
    const retrying = planFor('[retry] [ok]', 'ffffffff00000000');
    assert.deepEqual(retrying, [{ s: 1 }, { s: 3 }], 'ok wins over retry');
    const withRetry = planFor('[retry]', '00000063ffffffff');
    assert.ok(withRetry.some((step) => step.s === 2 && step.e));
    assert.deepEqual(planFor('x', 'abcdef0123456789'), planFor('x', 'abcdef0123456789'));
  });

  it('shows stored events with counts per status and the attempt of each error', () => {
    const events = eventObjects([[1000, 0], [2000, 1], [3000, 2, 'timeout'], [4000, 1], [5000, 3]]);
    assert.deepEqual(events.map((e) => e.count), [1, 1, 1, 2, 1]);
    assert.deepEqual(events[2], { timestamp: new Date(3000).toISOString(), status_code: 2, error_message: 'timeout', error_details: { attempt: 1 }, count: 1 });
    assert.equal('error_message' in events[0]!, false);
    assert.equal('error_details' in events[0]!, false);
  });
});

describe('sandbox seed helpers', () => {
  it('draws the same numbers and UUIDs from the same seed', () => {
    const a = new SeededRandom(1);
    const b = new SeededRandom(1);
    const drawn = Array.from({ length: 5 }, () => a.uuid());
    assert.deepEqual(drawn, Array.from({ length: 5 }, () => b.uuid()));
    assert.ok(drawn.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)));
    assert.notDeepEqual(new SeededRandom(2).uuid(), drawn[0]);
  });

  it('makes PDFs whose cross-reference table points at their objects', () => {
    const pdf = makePdf(['Hello (world)']).toString('latin1');
    assert.ok(pdf.startsWith('%PDF-1.4') && pdf.trimEnd().endsWith('%%EOF'));
    const xref = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    assert.ok(pdf.slice(xref).startsWith('xref'));
    const offsets = [...pdf.matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    offsets.forEach((offset, i) => assert.ok(pdf.slice(offset).startsWith(`${i + 1} 0 obj`)));
    assert.ok(pdf.includes('(Hello \\(world\\)) Tj'));
  });
});

describe('sandbox database file writes', () => {
  it('replace the file whole through a temporary sibling', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-atomic-'));
    try {
      const file = path.join(dir, 'db.sqlite');
      writeFileAtomically(file, Buffer.from('one'));
      writeFileAtomically(file, Buffer.from('two'));
      assert.equal(fs.readFileSync(file, 'utf8'), 'two');
      assert.deepEqual(fs.readdirSync(dir), ['db.sqlite']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
