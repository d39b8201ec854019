// How long a finished job stays in the status bar, and its result offered until the user looks.
import * as assert from 'node:assert/strict';
import { JobStatus } from '../../../src/core/jobStatus';
import { JobWatcher } from '../../../src/core/jobWatch';
import { parseWatchState, serializeJobs } from '../../../src/core/jobWatch/persistence';
import { FakeClock, FakeSource } from './fakes';

const INTERVAL = 5000;
/** What the status bar keeps a finished job for (its own constant; any span shows the rule). */
const KEPT = 10 * 60_000;
const { STARTED, SUCCESS } = JobStatus;

function setup() {
  const clock = new FakeClock();
  const source = new FakeSource(clock);
  const watcher = new JobWatcher(source, { intervalMs: INTERVAL }, clock);
  const ids = (): string[] => watcher.jobs().map((job) => job.id);
  return { clock, source, watcher, ids };
}

describe('a finished watched job in the status bar', () => {
  it('stays a while after it was watched by its pasted ID, however long ago the service finished it', async () => {
    const { clock, source, watcher, ids } = setup();
    // The service finished it an hour before the user pasted its ID.
    source.jobs.set('old', { status: SUCCESS, timestamp: (clock.now() - 3_600_000) / 1000 });
    watcher.watch({ id: 'old' });
    await clock.advance(1000);
    assert.equal(watcher.jobs()[0]?.status, SUCCESS);
    await clock.advance(30_000);
    watcher.dismissFinished(clock.now() - KEPT);
    assert.deepEqual(ids(), ['old'], 'still shown half a minute after it was watched');
    await clock.advance(KEPT);
    watcher.dismissFinished(clock.now() - KEPT);
    assert.deepEqual(ids(), [], 'gone once the time has passed since it was watched');
    watcher.dispose();
  });

  it('stays a while after it was seen finished, when that is later than when it was watched', async () => {
    const { clock, source, watcher, ids } = setup();
    source.set(STARTED, 'long');
    watcher.watch({ id: 'long', status: STARTED, group: 'batch:1' });
    await clock.advance(KEPT + INTERVAL);
    source.set(SUCCESS, 'long');
    await clock.advance(INTERVAL);
    watcher.dismissFinished(clock.now() - KEPT);
    assert.deepEqual(ids(), ['long'], 'a job that ran longer than the span is not dismissed the moment it ends');
    await clock.advance(KEPT + 1);
    watcher.dismissFinished(clock.now() - KEPT);
    assert.deepEqual(ids(), []);
    watcher.dispose();
  });

  it('keeps offering the result of a job that finished while watched until the user looks at it', async () => {
    const { clock, source, watcher, ids } = setup();
    source.set(STARTED, 'j');
    watcher.watch({ id: 'j', status: STARTED });
    await clock.advance(INTERVAL);
    source.set(SUCCESS, 'j');
    await clock.advance(INTERVAL);
    assert.equal(watcher.jobs()[0]?.unseen, true, 'finished unseen');
    await clock.advance(3 * KEPT);
    watcher.dismissFinished(clock.now() - KEPT);
    assert.deepEqual(ids(), ['j'], 'the time out never takes a result the user has not seen');
    watcher.markSeen('j');
    assert.equal(watcher.jobs()[0]?.unseen, undefined);
    watcher.dismissFinished(clock.now() - KEPT);
    assert.deepEqual(ids(), []);
    watcher.dispose();
  });

  it('offers no unseen result for a job watched after it had finished, nor for a batch’s jobs', async () => {
    const { clock, source, watcher } = setup();
    source.set(SUCCESS, 'done');
    source.set(STARTED, 'b1');
    watcher.watch({ id: 'done' });
    watcher.watch({ id: 'b1', status: STARTED, group: 'batch:b1' });
    await clock.advance(INTERVAL);
    source.set(SUCCESS, 'b1');
    await clock.advance(INTERVAL);
    assert.deepEqual(watcher.jobs().map((job) => [job.id, job.status, job.unseen]), [['done', SUCCESS, undefined], ['b1', SUCCESS, undefined]]);
    watcher.dispose();
  });

  it('remembers across a reload that a result is unseen and when the job was seen finished', () => {
    const stored: unknown = JSON.parse(JSON.stringify(serializeJobs([{ id: 'j', status: SUCCESS, watchedAt: 1, seenFinishedAt: 2, unseen: true }])));
    assert.deepEqual(parseWatchState(stored, 0), [{ id: 'j', status: SUCCESS, watchedAt: 1, seenFinishedAt: 2, unseen: true }]);
    assert.deepEqual(parseWatchState({ jobs: [{ id: 'j', status: SUCCESS, unseen: 'yes', seenFinishedAt: 'x' }] }, 0), [{ id: 'j', status: SUCCESS, watchedAt: 0 }]);
  });
});
