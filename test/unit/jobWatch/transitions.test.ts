import * as assert from 'node:assert/strict';
import { JobStatus } from '../../../src/core/jobStatus';
import { JobWatcher, type WatchedJob } from '../../../src/core/jobWatch';
import { FakeClock, FakeSource, httpError } from './fakes';

const INTERVAL = 5000;
const { PENDING, STARTED, RETRY, SUCCESS, FAILURE } = JobStatus;

function setup() {
  const clock = new FakeClock();
  const source = new FakeSource(clock);
  const watcher = new JobWatcher(source, { intervalMs: INTERVAL }, clock);
  const seen: [string, number | undefined, number][] = [];
  const jobsSeen: WatchedJob[] = [];
  watcher.onDidTransition((job, from, to) => {
    seen.push([job.id, from, to]);
    jobsSeen.push(job);
  });
  return { clock, source, watcher, seen, jobsSeen };
}

/** Plays a status sequence on the service, one status per poll. */
async function play(clock: FakeClock, source: FakeSource, id: string, statuses: { status: number; error_message?: string }[]) {
  for (const next of statuses) {
    source.jobs.set(id, next);
    await clock.advance(INTERVAL);
  }
}

describe('job watcher transitions', () => {
  it('tells once per status change, RETRY included, and nothing while the status stays', async () => {
    const { clock, source, watcher, seen } = setup();
    source.set(PENDING, 'j');
    watcher.watch({ id: 'j', status: PENDING });
    await play(clock, source, 'j', [
      { status: PENDING },
      { status: STARTED },
      { status: STARTED },
      { status: RETRY, error_message: 'rate limited by the model provider' },
      { status: RETRY, error_message: 'rate limited by the model provider' },
      { status: STARTED },
      { status: SUCCESS },
      { status: SUCCESS },
    ]);
    assert.deepEqual(seen, [
      ['j', PENDING, STARTED],
      ['j', STARTED, RETRY],
      ['j', RETRY, STARTED],
      ['j', STARTED, SUCCESS],
    ]);
    watcher.dispose();
  });

  it('gives the first status of a job watched by ID alone as a change from "unknown"', async () => {
    const { clock, source, watcher, seen } = setup();
    source.set(STARTED, 'pasted');
    watcher.watch({ id: 'pasted' });
    assert.equal(watcher.jobs()[0]?.status, undefined);
    await clock.advance(1000);
    assert.deepEqual(seen, [['pasted', undefined, STARTED]]);
    watcher.dispose();
  });

  it('carries the error message of a failure and keeps the failed job listed', async () => {
    const { clock, source, watcher, jobsSeen } = setup();
    source.set(STARTED, 'j');
    watcher.watch({ id: 'j', label: 'nightly eval' });
    await clock.advance(1000);
    source.jobs.set('j', { status: FAILURE, error_message: 'Input "document" is missing.', timestamp: 1_795_000_000.25 });
    await clock.advance(INTERVAL);

    const failed = jobsSeen.at(-1);
    assert.equal(failed?.status, FAILURE);
    assert.equal(failed?.errorMessage, 'Input "document" is missing.');
    assert.equal(failed?.finishedAt, 1_795_000_000_250, 'the service time of the change');
    assert.equal(failed?.label, 'nightly eval');
    assert.deepEqual(watcher.jobs()[0], failed);
    watcher.dispose();
  });

  it('shows the error message while a job retries and drops it once it runs again', async () => {
    const { clock, source, watcher } = setup();
    source.jobs.set('j', { status: RETRY, error_message: 'worker lost' });
    watcher.watch({ id: 'j' });
    await clock.advance(1000);
    assert.equal(watcher.jobs()[0]?.errorMessage, 'worker lost');
    source.set(STARTED, 'j');
    await clock.advance(INTERVAL);
    assert.equal(watcher.jobs()[0]?.errorMessage, undefined);
    watcher.dispose();
  });

  it('notes when it saw a job finish if the service sent no time', async () => {
    const { clock, source, watcher } = setup();
    source.set(STARTED, 'j');
    watcher.watch({ id: 'j' });
    await clock.advance(1000);
    source.set(SUCCESS, 'j');
    await clock.advance(INTERVAL);
    assert.equal(watcher.jobs()[0]?.finishedAt, source.calls.at(-1)?.at);
    watcher.dispose();
  });

  it('tells listeners only when something shown changed', async () => {
    const { clock, source, watcher } = setup();
    let changes = 0;
    watcher.onDidChange(() => changes++);
    source.set(STARTED, 'j');
    watcher.watch({ id: 'j', status: STARTED });
    assert.equal(changes, 1, 'watching is a change');
    await clock.advance(1000);
    assert.equal(changes, 2, 'the first answer brings the creation time');
    await clock.advance(10 * INTERVAL);
    assert.equal(changes, 2, 'the same status again and again is not');
    source.outage = httpError(500);
    await clock.advance(INTERVAL);
    assert.equal(changes, 3, 'a failed poll shows a warning');
    watcher.dispose();
  });

  it('keeps polling and telling other listeners when one listener throws', async () => {
    const { clock, source, watcher, seen } = setup();
    watcher.onDidTransition(() => {
      throw new Error('listener bug');
    });
    let after = 0;
    watcher.onDidTransition(() => after++);
    source.set(STARTED, 'j');
    watcher.watch({ id: 'j' });
    await clock.advance(1000);
    source.set(SUCCESS, 'j');
    await clock.advance(INTERVAL);
    assert.equal(seen.length, 2);
    assert.equal(after, 2);
    watcher.dispose();
  });

  it('stops telling a listener once its subscription is disposed', async () => {
    const { clock, source, watcher } = setup();
    let calls = 0;
    const subscription = watcher.onDidTransition(() => calls++);
    source.set(STARTED, 'j');
    watcher.watch({ id: 'j' });
    await clock.advance(1000);
    subscription.dispose();
    source.set(SUCCESS, 'j');
    await clock.advance(INTERVAL);
    assert.equal(calls, 1);
    watcher.dispose();
  });
});
