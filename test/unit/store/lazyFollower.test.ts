import * as assert from 'node:assert/strict';
import type { Subscription } from '../../../src/core/jobWatch';
import type { FollowRequest, JobChange } from '../../../src/core/store/jobFollower';
import { LazyFollower, type JobFollowing } from '../../../src/core/store/lazyFollower';

/** A connection's follower that records what it was asked. */
function fakeFollower() {
  const calls: string[] = [];
  let emit: (change: JobChange) => void = () => undefined;
  const follower: JobFollowing = {
    follow: (jobs: readonly FollowRequest[]) => void calls.push(`follow ${jobs.map((j) => `${j.id}:${j.status ?? '-'}`).join(',')}`),
    unfollow: (ids?: readonly string[]) => void calls.push(`unfollow ${ids?.join(',') ?? 'all'}`),
    follows: () => false,
    onDidChange: (listener) => ((emit = listener), { dispose: () => undefined }),
    setPaused: (paused) => void calls.push(`paused ${paused}`),
    refreshNow: () => (calls.push('refresh'), Promise.resolve()),
    dispose: () => void calls.push('dispose'),
  };
  return { follower, calls, emit: (change: JobChange) => emit(change) };
}

/** A switch event the test fires. */
function switches() {
  let listeners: (() => void)[] = [];
  const on = (listener: () => void): Subscription => (listeners.push(listener), { dispose: () => (listeners = listeners.filter((l) => l !== listener)) });
  return { on, fire: () => [...listeners].forEach((l) => l()), count: () => listeners.length };
}

describe('a follower that may start signed out', () => {
  it('keeps what it is asked while signed out, and hands it to the first connection’s follower, paused as asked', async () => {
    const events = switches();
    const inner = fakeFollower();
    let signedIn = false;
    const lazy = new LazyFollower(() => (signedIn ? inner.follower : undefined), events.on);
    lazy.follow([{ id: ' a ', status: 1 }, { id: 'b' }, { id: '  ' }]);
    lazy.unfollow(['b']);
    lazy.setPaused(true);
    await lazy.refreshNow();
    assert.equal(lazy.bound, false);
    assert.ok(lazy.follows('a') && !lazy.follows('b'));
    events.fire(); // a switch while still signed out
    assert.equal(lazy.bound, false);
    signedIn = true;
    events.fire();
    assert.equal(lazy.bound, true);
    assert.deepEqual(inner.calls, ['paused true', 'follow a:1']);
    assert.equal(events.count(), 0, 'it stops listening once bound');
    const heard: string[] = [];
    lazy.onDidChange((change) => heard.push(`${change.id}:${change.status}`));
    inner.emit({ id: 'a', status: 3 } as JobChange);
    assert.deepEqual(heard, ['a:3']);
    lazy.follow([{ id: 'c' }]);
    lazy.unfollow();
    lazy.dispose();
    assert.deepEqual(inner.calls.slice(2), ['follow c:-', 'unfollow all', 'dispose']);
  });

  it('binds at once when a connection is there, and binds nothing after it is disposed', () => {
    const events = switches();
    const inner = fakeFollower();
    const now = new LazyFollower(() => inner.follower, events.on);
    assert.equal(now.bound, true);
    assert.equal(events.count(), 0);
    const later = fakeFollower();
    let made = 0;
    const gone = new LazyFollower(() => (made++ > 0 ? later.follower : undefined), events.on);
    gone.dispose();
    events.fire();
    assert.equal(gone.bound, false);
    assert.deepEqual(later.calls, []);
  });
});
