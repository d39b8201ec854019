import * as assert from 'node:assert/strict';
import { median, percentile, round } from '../../../bench/lib/stats';

describe('Benchmark statistics', () => {
  it('reports a percentile as a value that was measured (nearest rank)', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    assert.equal(percentile(samples, 99), 99);
    assert.equal(percentile(samples, 50), 50);
    assert.equal(percentile(samples, 100), 100);
    assert.equal(percentile([7], 95), 7);
  });

  it('takes the middle of an odd count and the mean of the two middles of an even count', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
  });

  it('has no median or percentile without samples', () => {
    assert.ok(Number.isNaN(median([])));
    assert.ok(Number.isNaN(percentile([], 50)));
  });

  it('rounds to the digits asked for', () => {
    assert.equal(round(1.2345, 2), 1.23);
    assert.equal(round(16.66666), 16.7);
  });
});
