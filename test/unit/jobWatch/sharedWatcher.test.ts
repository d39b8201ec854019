// One watcher for the status bar and the Agents view: a job both shown and watched is polled once.
import * as assert from 'node:assert/strict';
import { JobStatus } from '../../../src/core/jobStatus';
import { JobWatcher } from '../../../src/core/jobWatch';
import { FakeClock, FakeSource, ids } from './fakes';

const INTERVAL = 5000;

function setup(): { clock: FakeClock; source: FakeSource; watcher: JobWatcher } {
  const clock = new FakeClock();
  const source = new FakeSource(clock);
  const watcher = new JobWatcher(source, { intervalMs: INTERVAL }, clock);
  watcher.setTrackingIntervalMs(INTERVAL);
  return { clock, source, watcher };
}

describe('one watcher for watched and shown jobs', () => {
  it('costs one bulk request per interval in total for jobs both shown in the tree and watched in the status bar', async () => {
    const { clock, source, watcher } = setup();
    const jobIds = ids(10);
    source.set(JobStatus.STARTED, ...jobIds);
    watcher.track('agent-a/jobs', jobIds.map((id) => ({ id, status: JobStatus.STARTED })));
    for (const id of jobIds.slice(0, 4)) watcher.watch({ id, status: JobStatus.STARTED });

    await clock.advance(60_000);

    assert.equal(source.bulkCalls, 12, 'one poll soon after the jobs appeared, then one every 5 s');
    assert.equal(source.singleCalls, 0);
    for (const call of source.calls) assert.deepEqual([...call.ids].sort(), [...jobIds].sort(), 'every job rides in the same request');
    watcher.dispose();
  });

  it('shows only watched jobs in the status bar, and tells the tree about every status change', async () => {
    const { clock, source, watcher } = setup();
    const [shown, watched] = ids(2) as [string, string];
    source.set(JobStatus.STARTED, shown, watched);
    watcher.track('tree', [{ id: shown, status: JobStatus.STARTED }, { id: watched, status: JobStatus.STARTED }]);
    watcher.watch({ id: watched, status: JobStatus.STARTED, label: 'batch' });
    const seen: string[] = [];
    watcher.onDidTransition((job, _from, to) => seen.push(`${job.id}:${to}`));

    source.set(JobStatus.SUCCESS, shown, watched);
    await clock.advance(INTERVAL);

    assert.deepEqual(watcher.jobs().map((j) => j.id), [watched]);
    assert.deepEqual(seen.sort(), [`${shown}:${JobStatus.SUCCESS}`, `${watched}:${JobStatus.SUCCESS}`].sort());
    assert.equal(watcher.isWatched(shown), false);
    watcher.dispose();
  });

  it('stops polling shown-only jobs while their view is hidden, but keeps polling the watched ones', async () => {
    const { clock, source, watcher } = setup();
    const [shown, watched] = ids(2) as [string, string];
    source.set(JobStatus.STARTED, shown, watched);
    watcher.track('tree', [{ id: shown, status: JobStatus.STARTED }]);
    watcher.watch({ id: watched, status: JobStatus.STARTED });
    watcher.setTrackingPaused('tree', true);

    await clock.advance(20_000);

    assert.ok(source.bulkCalls > 0);
    for (const call of source.calls) assert.deepEqual(call.ids, [watched]);
    watcher.dispose();
  });

  it('keeps polling a job another view still shows while one of its views is hidden', async () => {
    const { clock, source, watcher } = setup();
    const [both, treeOnly] = ids(2) as [string, string];
    source.set(JobStatus.STARTED, both, treeOnly);
    watcher.track('tree', [{ id: both, status: JobStatus.STARTED }, { id: treeOnly, status: JobStatus.STARTED }]);
    watcher.track('jobViews', [{ id: both, status: JobStatus.STARTED }]);
    watcher.setTrackingPaused('tree', true);

    await clock.advance(20_000);

    assert.ok(source.bulkCalls > 0);
    for (const call of source.calls) assert.deepEqual(call.ids, [both]);
    watcher.dispose();
  });

  it('keeps polling the jobs of a comparison while the Agents view is hidden, in the same request as the others', async () => {
    const { clock, source, watcher } = setup();
    const [shown, compared] = ids(2) as [string, string];
    source.set(JobStatus.STARTED, shown, compared);
    watcher.track('tree', [{ id: shown, status: JobStatus.STARTED }]);
    watcher.track('comparison', [{ id: compared, status: JobStatus.STARTED }]);
    watcher.setTrackingPaused('tree', true);

    await clock.advance(20_000);

    assert.ok(source.bulkCalls > 0);
    for (const call of source.calls) assert.deepEqual(call.ids, [compared]);
    watcher.untrack('comparison');
    const before = source.bulkCalls;
    await clock.advance(20_000);
    assert.equal(source.bulkCalls, before, 'nothing is polled once the comparison lets go of its jobs');
    watcher.dispose();
  });

  it('keeps a watched job when the view stops showing it, and a shown job when the user stops watching it', async () => {
    const { clock, source, watcher } = setup();
    const [a, b] = ids(2) as [string, string];
    source.set(JobStatus.STARTED, a, b);
    watcher.track('tree', [{ id: a }, { id: b }]);
    watcher.watch({ id: a });
    watcher.watch({ id: b });
    watcher.untrack('tree', [a]);
    watcher.unwatch(b);
    await clock.advance(INTERVAL);

    assert.deepEqual(watcher.jobs().map((j) => j.id), [a]);
    assert.deepEqual([...(source.calls.at(-1)?.ids ?? [])].sort(), [a, b].sort());
    watcher.untrack('tree');
    watcher.unwatchAll();
    const before = source.bulkCalls;
    await clock.advance(60_000);
    assert.equal(source.bulkCalls, before, 'nothing left to poll');
    watcher.dispose();
  });

  it('never saves shown-only jobs with the watched list', () => {
    const { watcher } = setup();
    watcher.track('tree', [{ id: 'tracked-job', status: JobStatus.STARTED }]);
    watcher.watch({ id: 'watched-job', status: JobStatus.STARTED, group: 'batch-1' });
    const saved = JSON.stringify(watcher.serialize());
    assert.ok(saved.includes('watched-job') && saved.includes('batch-1'));
    assert.ok(!saved.includes('tracked-job'));
    watcher.dispose();
  });
});
