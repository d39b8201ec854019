import * as assert from 'node:assert/strict';
import { JobStatus } from '../../../src/core/jobStatus';
import { JobWatcher } from '../../../src/core/jobWatch';
import { FakeClock, FakeSource, httpError } from './fakes';

const INTERVAL = 5000;

function setup(options: { unfocusedFactor?: number; maxBackoffMs?: number } = {}) {
  const clock = new FakeClock();
  const source = new FakeSource(clock).set(JobStatus.STARTED, 'a');
  const watcher = new JobWatcher(source, { intervalMs: INTERVAL, ...options }, clock);
  watcher.watch({ id: 'a' });
  return { clock, source, watcher };
}

/** Time between consecutive requests. */
function gaps(source: FakeSource): number[] {
  return source.calls.slice(1).map((call, i) => call.at - (source.calls[i]?.at ?? 0));
}

describe('job watcher timing', () => {
  it('polls four times less often while the window is not focused, and at once when focus comes back late', async () => {
    const { clock, source, watcher } = setup();
    await clock.advance(1000);
    watcher.setFocused(false);
    await clock.advance(60_000);
    assert.deepEqual(gaps(source), [20_000, 20_000, 20_000]);

    await clock.advance(10_000); // 19 s since the last poll
    const before = source.calls.length;
    watcher.setFocused(true);
    await clock.advance(0);
    assert.equal(source.calls.length, before + 1, 'an overdue poll happens on focus');
    await clock.advance(INTERVAL);
    assert.equal(source.calls.length, before + 2);
    watcher.dispose();
  });

  it('polls nothing at all while paused, and catches up at once when resumed', async () => {
    const { clock, source, watcher } = setup();
    await clock.advance(1000);
    const before = source.calls.length;
    watcher.setPaused(true);
    await clock.advance(120_000);
    assert.equal(source.calls.length, before, 'no request while paused');
    assert.equal(clock.pending, 0, 'no timer armed while paused');
    watcher.setPaused(false);
    await clock.advance(0);
    assert.equal(source.calls.length, before + 1);
    watcher.dispose();
  });

  it('honours a custom unfocused factor', async () => {
    const { clock, source, watcher } = setup({ unfocusedFactor: 2 });
    watcher.setFocused(false);
    await clock.advance(40_000);
    assert.deepEqual(gaps(source), [10_000, 10_000, 10_000]);
    watcher.dispose();
  });

  it('backs off exponentially on errors up to five minutes, and returns to the interval after a success', async () => {
    const { clock, source, watcher } = setup();
    source.outage = httpError(503);
    await clock.advance(15 * 60_000);
    assert.deepEqual(gaps(source), [10_000, 20_000, 40_000, 80_000, 160_000, 300_000]);
    assert.match(watcher.jobs()[0]?.lastError ?? '', /503/);

    source.outage = undefined;
    await clock.advance(300_000);
    const recovered = source.calls.length;
    await clock.advance(3 * INTERVAL);
    assert.equal(source.calls.length, recovered + 3, 'back to one poll per interval');
    assert.equal(watcher.jobs()[0]?.lastError, undefined);
    assert.equal(watcher.jobs()[0]?.status, JobStatus.STARTED);
    watcher.dispose();
  });

  it('honours a custom backoff cap', async () => {
    const { clock, source, watcher } = setup({ maxBackoffMs: 30_000 });
    source.outage = httpError(502);
    await clock.advance(3 * 60_000);
    assert.deepEqual(gaps(source).slice(0, 5), [10_000, 20_000, 30_000, 30_000, 30_000]);
    watcher.dispose();
  });

  it('waits as long as the service asks with Retry-After', async () => {
    const { clock, source, watcher } = setup();
    source.outage = httpError(429, { retryAfterMs: 60_000 });
    await clock.advance(1000);
    await clock.advance(60_000);
    assert.deepEqual(gaps(source), [60_000]);
    watcher.dispose();
  });

  it('never starts a poll while another is in flight, even when the service is slower than the interval', async () => {
    const { clock, source, watcher } = setup();
    source.latencyMs = 12_000;
    await clock.advance(1000);
    const joined = watcher.refreshNow();
    // Everything that re-times polling, while the request is out.
    watcher.setFocused(false);
    watcher.setFocused(true);
    watcher.setIntervalMs(INTERVAL);
    source.set(JobStatus.STARTED, 'b');
    watcher.watch({ id: 'b', status: JobStatus.STARTED });
    await clock.advance(60_000);
    await joined;
    assert.equal(source.maxInFlight, 1);
    // Each poll ends 12 s after it starts; the next one waits half an interval more.
    assert.deepEqual(new Set(gaps(source)), new Set([14_500]));
    watcher.dispose();
  });

  it('polls at once when the user asks, then keeps the interval from there', async () => {
    const { clock, source, watcher } = setup();
    await clock.advance(2000);
    await watcher.refreshNow();
    assert.equal(source.calls.length, 2);
    assert.equal(source.calls[1]?.at, clock.now());
    await clock.advance(INTERVAL);
    assert.deepEqual(gaps(source), [1900, INTERVAL]);
    watcher.dispose();
  });

  it('makes no request on "refresh" when nothing is running', async () => {
    const clock = new FakeClock();
    const source = new FakeSource(clock);
    const watcher = new JobWatcher(source, { intervalMs: INTERVAL }, clock);
    watcher.watch({ id: 'done', status: JobStatus.SUCCESS });
    await watcher.refreshNow();
    assert.equal(source.calls.length, 0);
    watcher.dispose();
  });

  it('follows a new interval setting, never below one second', async () => {
    const { clock, source, watcher } = setup();
    await clock.advance(1000);
    watcher.setIntervalMs(10_000);
    await clock.advance(30_000);
    watcher.setIntervalMs(10);
    const before = source.calls.length;
    await clock.advance(10_000);
    assert.deepEqual(gaps(source).slice(0, 3), [10_000, 10_000, 10_000]);
    assert.equal(source.calls.length - before, 10);
    watcher.dispose();
  });

  it('leaves no timer and aborts the request in flight when disposed', async () => {
    const { clock, source, watcher } = setup();
    source.latencyMs = 3000;
    let changes = 0;
    watcher.onDidChange(() => changes++);
    await clock.advance(1000);
    assert.equal(source.inFlight, 1);

    watcher.dispose();
    await clock.advance(0);
    assert.equal(source.signals[0]?.aborted, true);
    assert.equal(clock.pending, 0);
    await clock.advance(60 * 60_000);
    assert.equal(source.calls.length, 1);
    assert.equal(changes, 0);
    assert.equal(watcher.jobs()[0]?.id, 'a', 'the jobs can still be saved after dispose');
  });

  it('leaves no timer when disposed between polls, and ignores calls afterwards', async () => {
    const { clock, source, watcher } = setup();
    await clock.advance(1000);
    assert.equal(clock.pending, 1);
    watcher.dispose();
    assert.equal(clock.pending, 0);
    watcher.watch({ id: 'b' });
    await watcher.refreshNow();
    await clock.advance(60_000);
    assert.equal(source.calls.length, 1);
    assert.equal(clock.pending, 0);
  });

  it('works with real timers and lets them go on dispose', async () => {
    let calls = 0;
    const watcher = new JobWatcher(
      {
        statuses: (jobIds) => {
          calls++;
          return Promise.resolve(jobIds.map((id) => ({ id, status: JobStatus.STARTED })));
        },
        status: () => Promise.resolve({ status: JobStatus.STARTED }),
      },
      { intervalMs: 1000 },
    );
    // Waits for the first poll's answer to arrive (an event), not for a guessed time.
    const polled = new Promise<void>((resolve) => {
      const subscription = watcher.onDidChange(() => {
        if (watcher.jobs()[0]?.status !== JobStatus.STARTED) return;
        subscription.dispose();
        resolve();
      });
    });
    watcher.watch({ id: 'a' });
    await polled;
    assert.equal(calls, 1);
    assert.equal(watcher.jobs()[0]?.status, JobStatus.STARTED);
    watcher.dispose();
  });
});
