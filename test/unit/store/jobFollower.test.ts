import { strict as assert } from 'node:assert';
import { JobStatus } from '../../../src/core/jobStatus';
import { JobWatcher } from '../../../src/core/jobWatch/jobWatcher';
import { JobFollower, type JobChange } from '../../../src/core/store/jobFollower';
import { FakeClock, FakeSource } from '../jobWatch/fakes';

const INTERVAL = 5000;

function setup() {
  const clock = new FakeClock();
  const source = new FakeSource(clock);
  const watcher = new JobWatcher(source, { intervalMs: INTERVAL }, clock);
  return { clock, source, watcher };
}

function heard(follower: JobFollower): string[] {
  const changes: string[] = [];
  follower.onDidChange((change: JobChange) => changes.push(`${change.id}:${change.status}`));
  return changes;
}

describe('A part of the extension following jobs', () => {
  it('hears about the jobs it follows and only those', async () => {
    const { clock, source, watcher } = setup();
    source.set(JobStatus.SUCCESS, 'a', 'b');
    const first = new JobFollower(watcher, 'first');
    const second = new JobFollower(watcher, 'second');
    const firstHeard = heard(first);
    const secondHeard = heard(second);
    first.follow([{ id: 'a', status: JobStatus.STARTED }]);
    second.follow([{ id: 'b', status: JobStatus.STARTED }]);
    await clock.advance(INTERVAL);
    assert.deepEqual(firstHeard, [`a:${JobStatus.SUCCESS}`]);
    assert.deepEqual(secondHeard, [`b:${JobStatus.SUCCESS}`]);
    assert.equal(source.bulkCalls, 1, 'both followers ride in one request');
    watcher.dispose();
  });

  it('follows an id without its surrounding blanks, and never a blank one', async () => {
    const { clock, source, watcher } = setup();
    source.set(JobStatus.SUCCESS, 'a');
    const follower = new JobFollower(watcher, 'view');
    const changes = heard(follower);
    follower.follow([{ id: '   ', status: JobStatus.STARTED }, { id: ' a ', status: JobStatus.STARTED }]);
    assert.equal(follower.follows('a'), true);
    assert.equal(follower.follows(''), false);
    assert.equal(follower.follows('   '), false);
    await clock.advance(INTERVAL);
    assert.deepEqual(changes, [`a:${JobStatus.SUCCESS}`]);
    assert.deepEqual(source.calls.flatMap((c) => c.ids), ['a']);
    watcher.dispose();
  });

  it('stops hearing about the jobs it unfollows, and the watcher stops asking for them', async () => {
    const { clock, source, watcher } = setup();
    const follower = new JobFollower(watcher, 'view');
    const changes = heard(follower);
    follower.follow([{ id: 'a', status: JobStatus.STARTED }, { id: 'b', status: JobStatus.STARTED }]);
    follower.unfollow(['a']);
    assert.equal(follower.follows('a'), false);
    assert.equal(follower.follows('b'), true);
    source.set(JobStatus.SUCCESS, 'a', 'b');
    await clock.advance(INTERVAL);
    assert.deepEqual(changes, [`b:${JobStatus.SUCCESS}`]);
    assert.deepEqual(source.calls.flatMap((c) => c.ids), ['b']);
    watcher.dispose();
  });

  it('unfollows every job when it names none', async () => {
    const { clock, source, watcher } = setup();
    const follower = new JobFollower(watcher, 'view');
    follower.follow([{ id: 'a', status: JobStatus.STARTED }, { id: 'b', status: JobStatus.STARTED }]);
    follower.unfollow();
    assert.equal(follower.follows('a') || follower.follows('b'), false);
    await clock.advance(INTERVAL * 3);
    assert.equal(source.calls.length, 0);
    watcher.dispose();
  });

  it('stops calling a listener whose subscription is disposed, and keeps calling the others', async () => {
    const { clock, source, watcher } = setup();
    source.set(JobStatus.SUCCESS, 'a');
    const follower = new JobFollower(watcher, 'view');
    const kept = heard(follower);
    const dropped: string[] = [];
    follower.onDidChange((change) => dropped.push(change.id)).dispose();
    follower.follow([{ id: 'a', status: JobStatus.STARTED }]);
    await clock.advance(INTERVAL);
    assert.deepEqual(dropped, []);
    assert.deepEqual(kept, [`a:${JobStatus.SUCCESS}`]);
    watcher.dispose();
  });

  it('lets its jobs wait while it is hidden, and asks again once shown', async () => {
    const { clock, source, watcher } = setup();
    const follower = new JobFollower(watcher, 'view');
    follower.follow([{ id: 'a', status: JobStatus.STARTED }]);
    follower.setPaused(true);
    await clock.advance(INTERVAL * 3);
    assert.equal(source.calls.length, 0);
    follower.setPaused(false);
    await clock.advance(INTERVAL);
    assert.deepEqual(source.calls.flatMap((c) => c.ids), ['a']);
    watcher.dispose();
  });

  it('asks for the statuses at once when refreshed', async () => {
    const { source, watcher } = setup();
    source.set(JobStatus.SUCCESS, 'a');
    const follower = new JobFollower(watcher, 'view');
    const changes = heard(follower);
    follower.follow([{ id: 'a', status: JobStatus.STARTED }]);
    await follower.refreshNow();
    assert.deepEqual(changes, [`a:${JobStatus.SUCCESS}`]);
    watcher.dispose();
  });

  it('once disposed hears nothing more, follows nothing, and its jobs are no longer asked for', async () => {
    const { clock, source, watcher } = setup();
    const follower = new JobFollower(watcher, 'view');
    const changes = heard(follower);
    follower.follow([{ id: 'a', status: JobStatus.STARTED }]);
    follower.dispose();
    assert.equal(follower.follows('a'), false);
    source.set(JobStatus.SUCCESS, 'a');
    await clock.advance(INTERVAL * 3);
    assert.equal(source.calls.length, 0);
    assert.deepEqual(changes, []);
    watcher.dispose();
  });

  it('still hears its jobs when another follower of the same job is disposed', async () => {
    const { clock, source, watcher } = setup();
    source.set(JobStatus.SUCCESS, 'a');
    const staying = new JobFollower(watcher, 'staying');
    const leaving = new JobFollower(watcher, 'leaving');
    const changes = heard(staying);
    staying.follow([{ id: 'a', status: JobStatus.STARTED }]);
    leaving.follow([{ id: 'a', status: JobStatus.STARTED }]);
    leaving.dispose();
    await clock.advance(INTERVAL);
    assert.deepEqual(changes, [`a:${JobStatus.SUCCESS}`]);
    watcher.dispose();
  });
});
