import * as assert from 'node:assert/strict';
import { JobStatus } from '../../../src/core/jobStatus';
import { JobWatcher } from '../../../src/core/jobWatch';
import { FakeClock, FakeSource, ids, settle } from './fakes';

const INTERVAL = 5000;

function setup(): { clock: FakeClock; source: FakeSource; watcher: JobWatcher } {
  const clock = new FakeClock();
  const source = new FakeSource(clock);
  const watcher = new JobWatcher(source, { intervalMs: INTERVAL }, clock);
  return { clock, source, watcher };
}

describe('job watcher polling', () => {
  it('makes exactly one request per interval for 50 running jobs when the server has the bulk endpoint', async () => {
    const { clock, source, watcher } = setup();
    const jobIds = ids(50);
    source.set(JobStatus.STARTED, ...jobIds);
    for (const id of jobIds) watcher.watch({ id, status: JobStatus.STARTED });

    await clock.advance(60_000);

    assert.equal(source.singleCalls, 0);
    assert.equal(source.bulkCalls, 12, 'one poll soon after watching, then one every 5 s');
    for (const call of source.calls) assert.deepEqual(call.ids, jobIds);
    const gaps = source.calls.slice(1).map((call, i) => call.at - (source.calls[i]?.at ?? 0));
    assert.deepEqual(new Set(gaps), new Set([INTERVAL]));
    watcher.dispose();
  });

  it('keeps the same rate when the service takes a while to answer', async () => {
    const { clock, source, watcher } = setup();
    source.latencyMs = 800;
    source.set(JobStatus.STARTED, ...ids(50));
    for (const id of ids(50)) watcher.watch({ id });

    await clock.advance(60_000);

    assert.equal(source.bulkCalls, 12);
    assert.equal(source.maxInFlight, 1);
    watcher.dispose();
  });

  it('makes no request at all while nothing is watched', async () => {
    const { clock, source, watcher } = setup();
    await clock.advance(10 * 60_000);
    assert.equal(source.calls.length, 0);
    assert.equal(clock.pending, 0);
    watcher.dispose();
  });

  it('makes no request over a long time when every watched job is already final', async () => {
    const { clock, source, watcher } = setup();
    watcher.watch({ id: 'a', status: JobStatus.SUCCESS });
    watcher.watch({ id: 'b', status: JobStatus.FAILURE });
    watcher.watch({ id: 'c', status: JobStatus.CANCELLED });
    watcher.watch({ id: 'd', status: JobStatus.CACHED });

    await clock.advance(60 * 60_000);

    assert.equal(source.calls.length, 0);
    assert.equal(clock.pending, 0, 'no timer is armed');
    watcher.dispose();
  });

  it('never polls a job again once it reached a final status, and stops when nothing runs', async () => {
    const { clock, source, watcher } = setup();
    source.set(JobStatus.STARTED, 'quick', 'slow');
    watcher.watch({ id: 'quick' });
    watcher.watch({ id: 'slow' });
    await clock.advance(1000);

    source.set(JobStatus.SUCCESS, 'quick');
    await clock.advance(INTERVAL);
    const afterQuickFinished = source.calls.length;
    await clock.advance(3 * INTERVAL);
    assert.deepEqual(
      source.calls.slice(afterQuickFinished).map((c) => c.ids),
      [['slow'], ['slow'], ['slow']],
    );

    source.set(JobStatus.FAILURE, 'slow');
    await clock.advance(INTERVAL);
    const total = source.calls.length;
    await clock.advance(30 * 60_000);
    assert.equal(source.calls.length, total, 'no request after the last job finished');
    assert.equal(clock.pending, 0);
    watcher.dispose();
  });

  it('gathers jobs watched together into one first request, soon after watching', async () => {
    const { clock, source, watcher } = setup();
    source.set(JobStatus.PENDING, 'a', 'b', 'c');
    watcher.watch({ id: 'a' });
    await clock.advance(30);
    watcher.watch({ id: 'b' });
    watcher.watch({ id: 'c' });
    await clock.advance(200);

    assert.equal(source.calls.length, 1);
    assert.deepEqual(source.calls[0]?.ids, ['a', 'b', 'c']);
    assert.equal(watcher.jobs()[2]?.status, JobStatus.PENDING);
    watcher.dispose();
  });

  it('does not put off the first poll while jobs keep being watched', async () => {
    const { clock, source, watcher } = setup();
    source.set(JobStatus.PENDING, ...ids(10));
    for (const id of ids(10)) {
      watcher.watch({ id });
      await clock.advance(40);
    }
    const start = clock.now() - 400;
    assert.deepEqual(
      source.calls.map((c) => [c.at - start, c.ids.length]),
      [
        [100, 3],
        [220, 6],
        [340, 9],
      ],
      'each request goes 100 ms after the first new job it waits for, with every job watched by then',
    );
    watcher.dispose();
  });

  it('lists a job once even when it is watched twice, keeping its place and taking a new label', () => {
    const { watcher } = setup();
    watcher.watch({ id: 'a', status: JobStatus.STARTED });
    watcher.watch({ id: 'b', status: JobStatus.STARTED });
    watcher.watch({ id: ' a ', label: 'nightly eval' });
    assert.deepEqual(
      watcher.jobs().map((j) => [j.id, j.label]),
      [
        ['a', 'nightly eval'],
        ['b', undefined],
      ],
    );
    watcher.dispose();
  });

  it('keeps only the job fields it needs when given a whole job object', () => {
    const { watcher } = setup();
    const fromTree = { id: 'a', status: JobStatus.STARTED, label: 'eval', job_inputs: [{ key: 'doc', value: 'x'.repeat(1000) }] };
    watcher.watch(fromTree);
    assert.deepEqual(Object.keys(watcher.jobs()[0] ?? {}).sort(), ['id', 'label', 'status', 'watchedAt']);
    watcher.dispose();
  });

  it('refuses to watch an empty job ID', () => {
    const { watcher } = setup();
    assert.throws(() => watcher.watch({ id: '   ' }), /job ID is required/);
    watcher.dispose();
  });

  it('stops polling when the last running job is unwatched, and drops the answer of a request in flight', async () => {
    const { clock, source, watcher } = setup();
    source.latencyMs = 2000;
    source.set(JobStatus.STARTED, 'a');
    watcher.watch({ id: 'a', status: JobStatus.STARTED });
    watcher.watch({ id: 'done', status: JobStatus.SUCCESS });
    await clock.advance(500);
    assert.equal(source.inFlight, 1);

    watcher.unwatch('a');
    await settle();
    assert.equal(source.signals[0]?.aborted, true);
    assert.equal(clock.pending, 0);
    await clock.advance(60_000);
    assert.equal(source.calls.length, 1);
    assert.deepEqual(
      watcher.jobs().map((j) => j.id),
      ['done'],
    );
    watcher.dispose();
  });

  it('dismisses finished jobs and keeps the running ones', async () => {
    const { clock, source, watcher } = setup();
    source.set(JobStatus.STARTED, 'run');
    watcher.watch({ id: 'ok', status: JobStatus.SUCCESS });
    watcher.watch({ id: 'run', status: JobStatus.STARTED });
    watcher.watch({ id: 'bad', status: JobStatus.FAILURE });
    watcher.dismissFinished();
    assert.deepEqual(
      watcher.jobs().map((j) => j.id),
      ['run'],
    );
    await clock.advance(INTERVAL);
    assert.equal(source.calls.length, 1);
    watcher.unwatchAll();
    assert.deepEqual(watcher.jobs(), []);
    await clock.advance(10 * INTERVAL);
    assert.equal(source.calls.length, 1);
    watcher.dispose();
  });
});
