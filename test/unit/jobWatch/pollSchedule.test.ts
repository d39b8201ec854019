import * as assert from 'node:assert/strict';
import { nextPollAt, pollDelay, pollTiming, SOON_MS } from '../../../src/core/jobWatch/pollSchedule';

describe('poll timing rules', () => {
  it('fills the defaults: four times slower unfocused, backoff capped at five minutes', () => {
    assert.deepEqual(pollTiming({ intervalMs: 5000 }), { intervalMs: 5000, unfocusedFactor: 4, maxBackoffMs: 300_000 });
  });

  it('refuses settings that would hammer the service or stop polling', () => {
    assert.equal(pollTiming({ intervalMs: 0 }).intervalMs, 1000);
    assert.equal(pollTiming({ intervalMs: Number.NaN }).intervalMs, 1000);
    assert.equal(pollTiming({ intervalMs: 5000, unfocusedFactor: 0.1 }).unfocusedFactor, 1);
    assert.equal(pollTiming({ intervalMs: 5000, maxBackoffMs: -1 }).maxBackoffMs, 1000);
  });

  it('doubles the delay per failure up to the cap, and never below a long interval', () => {
    const timing = pollTiming({ intervalMs: 5000 });
    assert.deepEqual(
      [0, 1, 2, 3, 6, 7, 1000].map((failures) => pollDelay(timing, true, failures)),
      [5000, 10_000, 20_000, 40_000, 300_000, 300_000, 300_000],
    );
    const slow = pollTiming({ intervalMs: 600_000 });
    assert.equal(pollDelay(slow, true, 3), 600_000, 'an interval above the cap is kept as it is');
    assert.equal(pollDelay(timing, false, 1), 40_000, 'unfocused and failing: both apply');
  });

  it('waits for Retry-After when it is longer than the backoff, but not past the cap', () => {
    const timing = pollTiming({ intervalMs: 5000 });
    assert.equal(pollDelay(timing, true, 1, 60_000), 60_000);
    assert.equal(pollDelay(timing, true, 1, 2000), 10_000);
    assert.equal(pollDelay(timing, true, 1, 3_600_000), 300_000);
  });

  it('spaces polls from the start of the last one, with a rest after a slow one', () => {
    assert.equal(nextPollAt(1000, 5000, { startedAt: 0, finishedAt: 200 }, false), 5000);
    assert.equal(nextPollAt(9000, 5000, { startedAt: 0, finishedAt: 9000 }, false), 11_500);
    assert.equal(nextPollAt(60_000, 5000, { startedAt: 0, finishedAt: 100 }, false), 60_000, 'overdue: now');
  });

  it('polls soon for the first poll and for a job waiting for its first status', () => {
    assert.equal(nextPollAt(1000, 5000, undefined, false), 1000 + SOON_MS);
    assert.equal(nextPollAt(1000, 5000, { startedAt: 0, finishedAt: 100 }, true), 1000 + SOON_MS);
    assert.equal(nextPollAt(4950, 5000, { startedAt: 0, finishedAt: 100 }, true), 5000, 'a poll due sooner anyway');
  });
});
