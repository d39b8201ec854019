import * as assert from 'node:assert/strict';
import { JobStatus } from '../../../src/core/jobStatus';
import { JobWatcher, MAX_BULK_IDS, MAX_MISSES, PER_JOB_CONCURRENCY } from '../../../src/core/jobWatch';
import { FakeClock, FakeSource, httpError, ids, unsupportedError } from './fakes';

const INTERVAL = 5000;

function setup(): { clock: FakeClock; source: FakeSource; watcher: JobWatcher } {
  const clock = new FakeClock();
  const source = new FakeSource(clock);
  return { clock, source, watcher: new JobWatcher(source, { intervalMs: INTERVAL }, clock) };
}

describe('job watcher on servers without the bulk endpoint', () => {
  const lacksBulk: [string, () => Error][] = [
    ['says it is unsupported', unsupportedError],
    ['answers 404', () => httpError(404)],
    ['answers 405', () => httpError(405)],
  ];
  for (const [how, error] of lacksBulk) {
    it(`asks per job when the bulk endpoint ${how}, and remembers it`, async () => {
      const { clock, source, watcher } = setup();
      source.bulkError = error();
      source.set(JobStatus.STARTED, 'a', 'b', 'c');
      for (const id of ['a', 'b', 'c']) watcher.watch({ id });

      await clock.advance(1000);
      assert.equal(source.bulkCalls, 1);
      assert.equal(source.singleCalls, 3, 'the first poll goes on per job without waiting an interval');
      assert.deepEqual(
        watcher.jobs().map((j) => j.status),
        [1, 1, 1],
      );

      await clock.advance(10 * INTERVAL);
      assert.equal(source.bulkCalls, 1, 'the bulk endpoint is not tried again');
      assert.equal(source.singleCalls, 33);
      watcher.dispose();
    });
  }

  it('keeps using the bulk endpoint after a server error on it', async () => {
    const { clock, source, watcher } = setup();
    source.bulkError = httpError(500);
    source.set(JobStatus.STARTED, 'a');
    watcher.watch({ id: 'a' });
    await clock.advance(1000);
    source.bulkError = undefined;
    await clock.advance(60_000);
    assert.equal(source.singleCalls, 0);
    assert.ok(source.bulkCalls > 1);
    watcher.dispose();
  });

  it('probes the bulk endpoint again when the connection changes', async () => {
    const { clock, source, watcher } = setup();
    source.bulkError = unsupportedError();
    source.set(JobStatus.STARTED, 'a');
    watcher.watch({ id: 'a' });
    await clock.advance(3 * INTERVAL);
    assert.equal(source.bulkCalls, 1);

    const oldCalls = source.calls.length;
    const start = clock.now();
    const upgraded = new FakeSource(clock).set(JobStatus.STARTED, 'a');
    watcher.setSource(upgraded);
    await clock.advance(3 * INTERVAL);
    assert.equal(upgraded.singleCalls, 0);
    assert.deepEqual(
      upgraded.calls.map((c) => c.at - start),
      [100, 5100, 10_100],
      'one soon after the change, then one per interval',
    );
    assert.equal(source.calls.length, oldCalls, 'the old connection is not used any more');
    watcher.dispose();
  });

  it(`asks at most ${PER_JOB_CONCURRENCY} jobs at a time in per-job mode`, async () => {
    const { clock, source, watcher } = setup();
    source.bulkError = httpError(404);
    source.latencyMs = 300;
    source.set(JobStatus.STARTED, ...ids(20));
    for (const id of ids(20)) watcher.watch({ id });

    await clock.advance(INTERVAL);
    assert.equal(source.singleCalls, 20);
    assert.equal(source.maxInFlight, PER_JOB_CONCURRENCY);
    watcher.dispose();
  });

  it('keeps the interval when only some jobs fail in per-job mode, and marks those jobs', async () => {
    const { clock, source, watcher } = setup();
    source.bulkError = unsupportedError();
    source.set(JobStatus.STARTED, 'ok', 'broken');
    source.jobErrors.set('broken', httpError(500));
    watcher.watch({ id: 'ok' });
    watcher.watch({ id: 'broken' });
    await clock.advance(1000 + 3 * INTERVAL);
    const pollTimes = [...new Set(source.calls.map((c) => c.at))];
    assert.deepEqual(pollTimes.slice(1).map((t, i) => t - (pollTimes[i] ?? 0)), [INTERVAL, INTERVAL, INTERVAL]);
    const [ok, broken] = watcher.jobs();
    assert.equal(ok?.lastError, undefined);
    assert.match(broken?.lastError ?? '', /500/);
    assert.equal(broken?.notFound, undefined, 'a failing request is not a lost job');
    watcher.dispose();
  });

  it(`splits more than ${MAX_BULK_IDS} jobs into several bulk requests`, async () => {
    const { clock, source, watcher } = setup();
    const many = ids(MAX_BULK_IDS + 20);
    source.set(JobStatus.PENDING, ...many);
    for (const id of many) watcher.watch({ id });
    await clock.advance(1000);
    assert.deepEqual(
      source.calls.map((c) => c.ids.length),
      [MAX_BULK_IDS, 20],
    );
    assert.ok(watcher.jobs().every((j) => j.status === JobStatus.PENDING));
    watcher.dispose();
  });
});

describe('job watcher with jobs the service does not know', () => {
  it(`marks a job left out of the bulk answer and stops polling it after ${MAX_MISSES} tries`, async () => {
    const { clock, source, watcher } = setup();
    source.set(JobStatus.STARTED, 'known');
    watcher.watch({ id: 'known' });
    watcher.watch({ id: 'ghost' });

    await clock.advance(1000);
    const first = watcher.jobs()[1];
    assert.match(first?.lastError ?? '', /does not know this job/);
    assert.equal(first?.notFound, undefined, 'one miss is not enough to give up');

    await clock.advance(10 * INTERVAL);
    assert.equal(watcher.jobs()[1]?.notFound, true);
    const asked = source.calls.filter((c) => c.ids.includes('ghost')).length;
    assert.equal(asked, MAX_MISSES);
    assert.deepEqual(source.calls.at(-1)?.ids, ['known'], 'the known job is still polled');
    assert.equal(watcher.summary().text, '1 running · 1 not found');
    watcher.dispose();
  });

  it('gives up on a job the per-job endpoint answers 404 for, and tries again when it is watched again', async () => {
    const { clock, source, watcher } = setup();
    source.bulkError = unsupportedError();
    watcher.watch({ id: 'ghost' });
    await clock.advance(20 * INTERVAL);
    assert.equal(source.singleCalls, MAX_MISSES);
    assert.equal(watcher.jobs()[0]?.notFound, true);
    assert.equal(clock.pending, 0, 'nothing left to poll');

    source.set(JobStatus.STARTED, 'ghost');
    watcher.watch({ id: 'ghost' });
    await clock.advance(1000);
    const job = watcher.jobs()[0];
    assert.equal(job?.status, JobStatus.STARTED);
    assert.equal(job?.notFound, undefined);
    assert.equal(job?.lastError, undefined);
    watcher.dispose();
  });

  it('forgets a miss once the service knows the job again', async () => {
    const { clock, source, watcher } = setup();
    watcher.watch({ id: 'late' });
    await clock.advance(1000);
    await clock.advance(INTERVAL);
    source.set(JobStatus.PENDING, 'late');
    await clock.advance(INTERVAL);
    source.jobs.delete('late');
    await clock.advance(2 * INTERVAL);
    assert.equal(watcher.jobs()[0]?.notFound, undefined, 'two misses after a success do not add up with the earlier two');
    watcher.dispose();
  });
});
