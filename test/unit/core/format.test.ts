import * as assert from 'node:assert/strict';
import { bytes, clip, dateTime, duration, elapsedMs, endSentence, nanoseconds, relativeTime } from '../../../src/core/format';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const before = (ms: number): string => new Date(NOW - ms).toISOString();

describe('human formats', () => {
  it('says how long ago something happened in the units people use', () => {
    assert.equal(relativeTime(before(10_000), NOW), 'just now');
    assert.equal(relativeTime(before(5 * 60_000), NOW), '5 min ago');
    assert.equal(relativeTime(before(3 * 3_600_000), NOW), '3 h ago');
    assert.equal(relativeTime(before(2 * 86_400_000), NOW), '2 d ago');
    assert.equal(relativeTime(before(90 * 86_400_000), NOW), '2026-08-23');
    assert.equal(relativeTime(new Date(NOW + 2 * 3_600_000).toISOString(), NOW), 'in 2 h');
  });

  it('shows nothing for a missing or unreadable time instead of "NaN"', () => {
    assert.equal(relativeTime(null, NOW), '');
    assert.equal(relativeTime('not a date', NOW), '');
    assert.equal(dateTime(undefined), '');
    assert.equal(dateTime('garbage'), 'garbage');
  });

  it('shows durations from milliseconds to days', () => {
    assert.equal(duration(850), '850 ms');
    assert.equal(duration(12_400), '12 s');
    assert.equal(duration(185_000), '3 min 05 s');
    assert.equal(duration(2 * 3_600_000 + 10 * 60_000), '2 h 10 min');
    assert.equal(duration(3 * 86_400_000 + 5 * 3_600_000), '3 d 5 h');
    assert.equal(duration(null), '');
    assert.equal(duration(-1), '');
  });

  it('measures elapsed time between two times or until now', () => {
    assert.equal(elapsedMs(before(60_000), undefined, NOW), 60_000);
    assert.equal(elapsedMs('2026-01-01T00:00:00Z', '2026-01-01T00:00:30Z'), 30_000);
    assert.equal(elapsedMs(null), undefined);
  });

  it('shows sizes in binary units with at most one decimal', () => {
    assert.equal(bytes(0), '0 B');
    assert.equal(bytes(512), '512 B');
    assert.equal(bytes(1536), '1.5 KB');
    assert.equal(bytes(10 * 1024 * 1024), '10 MB');
    assert.equal(bytes(2_147_483_647), '2 GB');
    assert.equal(bytes(150 * 1024 * 1024), '150 MB');
  });

  it('shows query elapsed nanoseconds in human units', () => {
    assert.equal(nanoseconds(12_000), '12 µs');
    assert.equal(nanoseconds(3_400_000), '3.4 ms');
    assert.equal(nanoseconds(1_230_000_000), '1.23 s');
  });
});

describe('clipped labels', () => {
  it('keeps a service text to one line of at most the given length', () => {
    assert.equal(clip('Support  Call\nQA'), 'Support Call QA');
    assert.equal(clip('x'.repeat(5 * 1024 * 1024)).length, 200);
    assert.ok(clip('x'.repeat(300), 50).endsWith('…'));
    assert.equal(clip(null), '');
  });
});

describe('format: the end of a sentence', () => {
  it('adds a full stop only where none ends the text', () => {
    assert.equal(endSentence('it is no longer there'), 'it is no longer there.');
    assert.equal(endSentence('it is no longer there (moved or deleted after it was chosen).'), 'it is no longer there (moved or deleted after it was chosen).');
    assert.equal(endSentence('a.txt: Could not read “a.txt”: it is no longer there.'), 'a.txt: Could not read “a.txt”: it is no longer there.');
    assert.equal(endSentence('why?'), 'why?');
    assert.equal(endSentence('“quoted.”'), '“quoted.”');
  });
});
