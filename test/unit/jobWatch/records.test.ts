import { strict as assert } from 'node:assert';
import { JobStatus } from '../../../src/core/jobStatus';
import { Emitter } from '../../../src/core/jobWatch/emitter';
import { pollDelay, pollTiming } from '../../../src/core/jobWatch/pollSchedule';
import { applyOutcome, errorText, type JobRecord, retryAfterOf } from '../../../src/core/jobWatch/watchRecords';

const T = Date.parse('2026-11-21T12:00:00Z');

function record(extra: Partial<JobRecord> = {}): JobRecord {
  return { id: 'j', status: JobStatus.STARTED, watchedAt: T, misses: 0, watched: true, trackers: new Set(), ...extra };
}

describe('A watched job after a poll', () => {
  it('keeps its known creation and update times when the answer has none', () => {
    const job = record({ createdAt: 'c0', lastUpdatedAt: 'u0' });
    applyOutcome(job, { kind: 'status', id: 'j', status: JobStatus.STARTED }, T);
    assert.equal(job.createdAt, 'c0');
    assert.equal(job.lastUpdatedAt, 'u0');
    applyOutcome(job, { kind: 'status', id: 'j', status: JobStatus.STARTED, createdAt: 'c1', lastUpdatedAt: 'u1' }, T);
    assert.equal(job.createdAt, 'c1');
    assert.equal(job.lastUpdatedAt, 'u1');
  });

  it('is finished when the service says it changed, else when first seen final, and keeps that time', () => {
    const job = record();
    applyOutcome(job, { kind: 'status', id: 'j', status: JobStatus.SUCCESS }, T + 5000);
    assert.equal(job.finishedAt, T + 5000);
    applyOutcome(job, { kind: 'status', id: 'j', status: JobStatus.SUCCESS }, T + 9000);
    assert.equal(job.finishedAt, T + 5000, 'a later poll of the same final status keeps the time');
    const told = record();
    applyOutcome(told, { kind: 'status', id: 'j', status: JobStatus.FAILURE, changedAt: T + 1000 }, T + 5000);
    assert.equal(told.finishedAt, T + 1000);
  });

  it('takes a new finish time when a final status changes, and none while running again', () => {
    const job = record({ status: JobStatus.FAILURE, finishedAt: T });
    applyOutcome(job, { kind: 'status', id: 'j', status: JobStatus.SUCCESS }, T + 7000);
    assert.equal(job.finishedAt, T + 7000);
    applyOutcome(job, { kind: 'status', id: 'j', status: JobStatus.RETRY }, T + 8000);
    assert.equal(job.finishedAt, undefined);
  });

  it('gets a finish time when restored final without one', () => {
    const job = record({ status: JobStatus.SUCCESS, finishedAt: undefined });
    applyOutcome(job, { kind: 'status', id: 'j', status: JobStatus.SUCCESS }, T + 3000);
    assert.equal(job.finishedAt, T + 3000);
  });

  it('says what failed in one line, whatever was thrown', () => {
    assert.equal(errorText(new Error('socket hang up')), 'socket hang up');
    assert.equal(errorText(new Error('')), 'The status request failed.');
    assert.equal(errorText('offline'), 'offline');
    assert.equal(errorText(''), 'The status request failed.');
    assert.equal(errorText({ message: 'not an Error' }), 'The status request failed.');
    assert.equal(errorText(undefined), 'The status request failed.');
  });

  it('reads the wait the service asked for, and none from anything else', () => {
    assert.equal(retryAfterOf({ retryAfterMs: 3000 }), 3000);
    for (const error of [null, undefined, {}, { retryAfterMs: 0 }, { retryAfterMs: -5 }, { retryAfterMs: Number.POSITIVE_INFINITY }, { retryAfterMs: Number.NaN }, { retryAfterMs: '3000' }]) {
      assert.equal(retryAfterOf(error), 0, String(error && JSON.stringify(error)));
    }
  });
});

describe('The watcher’s poll timing', () => {
  it('falls back to the defaults for a factor or bound that is missing or not a number', () => {
    const defaults = pollTiming({ intervalMs: 5000 });
    assert.deepEqual(pollTiming({ intervalMs: 5000, unfocusedFactor: Number.NaN, maxBackoffMs: Number.NaN }), defaults);
    assert.equal(pollTiming({ intervalMs: 5000, unfocusedFactor: 2 }).unfocusedFactor, 2);
  });

  it('waits only the interval after a good poll, whatever wait an earlier failure asked for', () => {
    const timing = pollTiming({ intervalMs: 5000 });
    assert.equal(pollDelay(timing, true, 0, 60_000), 5000);
    assert.equal(pollDelay(timing, true, 1, 60_000), 60_000);
  });
});

describe('The watcher’s events', () => {
  it('calls each listener until its subscription is disposed, and none after clear', () => {
    const emitter = new Emitter<[number]>();
    const heard: string[] = [];
    emitter.on((n) => heard.push(`a${n}`));
    const b = emitter.on((n) => heard.push(`b${n}`));
    emitter.fire(1);
    b.dispose();
    emitter.fire(2);
    emitter.clear();
    emitter.fire(3);
    assert.deepEqual(heard, ['a1', 'b1', 'a2']);
  });

  it('removes one subscription of a listener subscribed twice per dispose', () => {
    const emitter = new Emitter<[]>();
    let calls = 0;
    const listener = (): void => void calls++;
    const first = emitter.on(listener);
    emitter.on(listener);
    first.dispose();
    emitter.fire();
    assert.equal(calls, 1);
  });
});
