import * as assert from 'node:assert/strict';
import { elapsedText, readText, resultTitle, rowCountText, statusLine, truncationNotice } from '../../../src/core/grid/resultSummary';
import { result } from './builders';

describe('the status line of a result', () => {
  it('counts rows in words people read', () => {
    assert.equal(rowCountText(0), 'No rows');
    assert.equal(rowCountText(1), '1 row');
    assert.equal(rowCountText(100_000), '100,000 rows');
  });

  it('says how many rows and bytes the query read and how long it took', () => {
    const r = result(['a'], [['1'], ['2']], { summary: { read_rows: 1_234_567, read_bytes: 47_185_920, elapsed_ns: 340_000_000 } });
    assert.equal(statusLine(r), '2 rows · read 1,234,567 rows, 45 MB · 340 ms');
  });

  it('falls back to the timestamps for the time, and leaves out what the service did not say', () => {
    assert.equal(elapsedText({ start_timestamp: 100, end_timestamp: 101.5 }), '1 s');
    assert.equal(readText({ summary: null }), '');
    assert.equal(statusLine(result(['a'], [])), 'No rows');
  });

  it('names each result set in its tab', () => {
    assert.equal(resultTitle(1, result(['a'], [['x']])), 'Result 2 · 1 row');
  });
});

describe('a result the service cut short', () => {
  it('says how many of how many rows are shown when the service counted them all', () => {
    const r = result(['a'], [['1'], ['2']], { row_count: 1_500_000, truncated: true });
    assert.match(truncationNotice(r) ?? '', /^Showing only the first 2 of 1,500,000 rows: the service cut the result short\./);
  });

  it('says so when the service only flagged it', () => {
    assert.match(truncationNotice(result(['a'], [['1']], { truncated: true })) ?? '', /first 1 row: the service cut the result short and more rows exist/);
  });

  it('says nothing when every row arrived', () => {
    assert.equal(truncationNotice(result(['a'], [['1']], { truncated: false })), undefined);
  });
});
