import { strict as assert } from 'node:assert';
import { getEventListeners } from 'node:events';
import type { QueryResultSet } from '../../../src/core/client';
import { followQuery } from '../../../src/core/queries/followQuery';

const queryId = '7d1e2c3b-0000-4000-8000-000000000001';
const pending = (status = 'STARTED'): QueryResultSet => ({ worksheet_query_id: queryId, status, results: null, error: null });
const finished: QueryResultSet = { worksheet_query_id: queryId, status: 'SUCCESS', results: [], error: null };

/** A service whose query stays running for `polls` reads, then succeeds. */
function serviceRunningFor(polls: number): { read: () => Promise<QueryResultSet>; reads: () => number } {
  let count = 0;
  return { read: () => Promise.resolve(++count > polls ? finished : pending()), reads: () => count };
}

describe('Following a database query', () => {
  it('keeps at most one abort listener on the signal however many times it polls', async () => {
    const controller = new AbortController();
    const service = serviceRunningFor(25);
    const listenerCounts: number[] = [];
    const set = await followQuery(service.read, queryId, {
      signal: controller.signal,
      firstDelayMs: 1,
      maxDelayMs: 1,
      onPending: () => listenerCounts.push(getEventListeners(controller.signal, 'abort').length),
    });
    assert.equal(set.status, 'SUCCESS');
    assert.equal(service.reads(), 26);
    assert.ok(Math.max(...listenerCounts) <= 1, `listeners seen while polling: ${listenerCounts.join(', ')}`);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0, 'nothing is left on the signal once the query is final');
  });

  it('stops waiting when the signal aborts, with the signal\'s reason', async () => {
    const controller = new AbortController();
    const promise = followQuery(serviceRunningFor(Infinity).read, queryId, {
      signal: controller.signal,
      firstDelayMs: 60_000,
      onPending: () => controller.abort(new Error('stopped by the user')),
    });
    await assert.rejects(promise, /stopped by the user/);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
  });

  it('gives up with a sentence after the longest wait', async () => {
    const promise = followQuery(serviceRunningFor(Infinity).read, queryId, { signal: new AbortController().signal, maxWaitMs: -1, onPending: () => undefined });
    await assert.rejects(promise, /still STARTED after/);
  });
});
