import * as assert from 'node:assert/strict';
import type { JobResultRecord } from '../../../src/core/client';
import { ResultBatcher } from '../../../src/core/jobView/resultBatcher';

const record = (id: string): JobResultRecord => ({ id, status: 3, result: [], corrected_outputs: null, agent_id: null, agent_version_id: null, cost: null, input_tokens: null, output_tokens: null });

/** A batcher whose window closes when the test says, and whose requests are recorded. */
function setup(answer: (ids: string[]) => Promise<JobResultRecord[]> = (ids) => Promise.resolve(ids.filter((id) => id !== 'gone').map(record))) {
  const requests: string[][] = [];
  let flush: (() => void) | undefined;
  const batcher = new ResultBatcher(
    (ids) => {
      requests.push(ids);
      return answer(ids);
    },
    (fn) => (flush = fn),
  );
  return { batcher, requests, close: () => flush?.() };
}

describe('result batcher', () => {
  it('reads the results of several views in one request', async () => {
    const { batcher, requests, close } = setup();
    const reads = ['a', 'b', 'c', 'a'].map((id) => batcher.read(id));
    close();
    const records = await Promise.all(reads);
    assert.deepEqual(requests, [['a', 'b', 'c']]);
    assert.deepEqual(records.map((r) => r?.id), ['a', 'b', 'c', 'a']);
  });

  it('answers null for a job the service has no result for', async () => {
    const { batcher, close } = setup();
    const read = batcher.read('gone');
    close();
    assert.equal(await read, null);
  });

  it('fails every read of a failed request, and the next read sends a new one', async () => {
    let fail = true;
    const { batcher, requests, close } = setup((ids) => (fail ? Promise.reject(new Error('503')) : Promise.resolve(ids.map(record))));
    const failed = batcher.read('a');
    close();
    await assert.rejects(failed, /503/);
    fail = false;
    const again = batcher.read('a');
    close();
    assert.equal((await again)?.id, 'a');
    assert.equal(requests.length, 2);
  });
});
