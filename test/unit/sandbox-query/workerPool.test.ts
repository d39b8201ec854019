import * as assert from 'node:assert/strict';
import { failure, type QueryOutcome, type WorkerRequest } from '../../../src/sandbox/query/types';
import { WorkerPool } from '../../../src/sandbox/workers/workerPool';
import { workerLocation } from '../../../src/sandbox/workers/workerLocation';
import { resultOf } from './helpers';

function queryPool(threads: number): WorkerPool<WorkerRequest, QueryOutcome> {
  return new WorkerPool<WorkerRequest, QueryOutcome>({
    location: () => workerLocation('queryWorker', '../query/worker.ts', 'query worker'),
    threads,
    timeoutMs: 30_000,
    failure,
    what: 'query engine',
    timedOut: (limit) => `Query timed out after ${limit}`,
  });
}

describe('the sandbox’s worker threads', function () {
  this.timeout(60_000);
  const pools: WorkerPool<WorkerRequest, QueryOutcome>[] = [];
  const pool = (threads: number) => {
    const created = queryPool(threads);
    pools.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });

  it('starts a spare thread with the first task, so another organization’s task does not wait for one to start', async () => {
    const threads = pool(2);
    assert.equal(threads.threads, 0, 'no thread before the first task');
    assert.deepEqual(resultOf(await threads.run('org-a', { sql: 'SELECT 1', maxRows: 10 })).result_rows, [['1']]);
    assert.equal(threads.threads, 2);
  });

  it('never starts more threads than its limit, however many organizations ask at once', async () => {
    const threads = pool(2);
    const outcomes = await Promise.all(['a', 'b', 'c', 'd'].map((org, i) => threads.run(org, { sql: `SELECT ${i}`, maxRows: 10 })));
    assert.deepEqual(outcomes.map((o) => resultOf(o).result_rows), [[['0']], [['1']], [['2']], [['3']]]);
    assert.equal(threads.threads, 2);
  });

  it('starts no spare when its limit is one thread', async () => {
    const threads = pool(1);
    await threads.run('org-a', { sql: 'SELECT 1', maxRows: 10 });
    assert.equal(threads.threads, 1);
  });

  it('stops the spare with the rest when closed', async () => {
    const threads = pool(2);
    await threads.run('org-a', { sql: 'SELECT 1', maxRows: 10 });
    await threads.close();
    assert.equal(threads.threads, 0);
  });
});
