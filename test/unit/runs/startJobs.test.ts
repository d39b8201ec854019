import * as assert from 'node:assert/strict';
import type { ServiceClient } from '../../../src/core/client';
import type { RunPlan } from '../../../src/core/runs/runCheck';
import { PartlyStarted, startJobs } from '../../../src/core/runs/startJobs';

interface Sent {
  call: string;
  args: unknown[];
}

/** A client whose run calls are recorded; `failAt` makes that call (0-based) throw `failure`. */
function fakeClient(failAt?: number, failure: Error = new Error('The service is unavailable (503).')) {
  const sent: Sent[] = [];
  const answer = (call: string, args: unknown[], value: unknown) => {
    const n = sent.length;
    sent.push({ call, args });
    if (n === failAt) return Promise.reject(failure);
    return Promise.resolve(value);
  };
  const client = {
    agents: {
      run: (...args: unknown[]) => answer('run', args, `job-${sent.length + 1}`),
      runVersion: (...args: unknown[]) => answer('runVersion', args, `job-${sent.length + 1}`),
      runMany: (...args: unknown[]) => answer('runMany', args, (args[1] as unknown[]).map((_, i) => `many-${i + 1}`)),
    },
  } as unknown as ServiceClient;
  return { client, sent };
}

const plan = (extra: Partial<RunPlan>): RunPlan => ({ agentId: 'a1', batch: false, inputSets: [{ transcript: 'hello' }], ...extra });

describe('starting the jobs of a checked run', () => {
  it('starts one job of the current version with its inputs and metadata, and answers its id', async () => {
    const { client, sent } = fakeClient();
    const signal = new AbortController().signal;
    assert.deepEqual(await startJobs(client, plan({ metadata: { ticket: 'T-1' } }), signal, undefined), ['job-1']);
    assert.deepEqual(sent, [{ call: 'run', args: ['a1', { inputs: { transcript: 'hello' }, metadata: { ticket: 'T-1' } }, { signal, ground: undefined }] }]);
  });

  it('sends no metadata key when the run has none', async () => {
    const { client, sent } = fakeClient();
    await startJobs(client, plan({}), undefined, undefined);
    assert.deepEqual(sent[0]?.args[1], { inputs: { transcript: 'hello' } });
  });

  it('starts one job of a chosen version through that version', async () => {
    const { client, sent } = fakeClient();
    assert.deepEqual(await startJobs(client, plan({ versionId: 'v2' }), undefined, undefined), ['job-1']);
    assert.deepEqual(sent.map((s) => [s.call, s.args[0], s.args[1]]), [['runVersion', 'a1', 'v2']]);
  });

  it('starts a run with no input set with empty inputs', async () => {
    const { client, sent } = fakeClient();
    await startJobs(client, plan({ inputSets: [] }), undefined, undefined);
    assert.deepEqual(sent[0]?.args[1], { inputs: {} });
  });

  it('starts a batch of the current version with one request, ids in the order of the sets', async () => {
    const { client, sent } = fakeClient();
    const sets = [{ transcript: 'one' }, { transcript: 'two' }];
    assert.deepEqual(await startJobs(client, plan({ batch: true, inputSets: sets }), undefined, undefined), ['many-1', 'many-2']);
    assert.deepEqual(sent.map((s) => [s.call, s.args[0], s.args[1]]), [['runMany', 'a1', sets]]);
  });

  it('starts a batch of a chosen version one request a set, in order', async () => {
    const { client, sent } = fakeClient();
    const sets = [{ transcript: 'one' }, { transcript: 'two' }, { transcript: 'three' }];
    assert.deepEqual(await startJobs(client, plan({ batch: true, versionId: 'v2', inputSets: sets, metadata: { m: 1 } }), undefined, undefined), ['job-1', 'job-2', 'job-3']);
    assert.deepEqual(
      sent.map((s) => [s.call, s.args[1], s.args[2]]),
      sets.map((inputs) => ['runVersion', 'v2', { inputs, metadata: { m: 1 } }]),
    );
  });

  it('says which jobs started when a later request of a batch fails, and sends nothing after it', async () => {
    const { client, sent } = fakeClient(2);
    const sets = [{ t: '1' }, { t: '2' }, { t: '3' }, { t: '4' }];
    const error = await startJobs(client, plan({ batch: true, versionId: 'v2', inputSets: sets }), undefined, undefined).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof PartlyStarted);
    assert.deepEqual(error.jobIds, ['job-1', 'job-2']);
    assert.equal(error.name, 'PartlyStarted');
    assert.equal(error.message, '2 jobs started (job-1, job-2) before a request failed: The service is unavailable (503).');
    assert.equal((error as PartlyStarted & { outcomeUnknown: boolean }).outcomeUnknown, false);
    assert.equal(sent.length, 3, 'the fourth set is never sent');
  });

  it('keeps “outcome unknown” of the failed request, so the failed set is never sent again blindly', async () => {
    const lost = Object.assign(new Error('The connection closed before the answer.'), { outcomeUnknown: true });
    const { client } = fakeClient(1, lost);
    const error = await startJobs(client, plan({ batch: true, versionId: 'v2', inputSets: [{ t: '1' }, { t: '2' }] }), undefined, undefined).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof PartlyStarted);
    assert.equal(error.message, '1 job started (job-1) before a request failed: The connection closed before the answer.');
    assert.equal((error as PartlyStarted & { outcomeUnknown: boolean }).outcomeUnknown, true);
    assert.equal(error.reason, lost);
  });

  it('passes the first request’s failure on as it is: nothing started', async () => {
    const failure = new Error('Not found (404).');
    const { client } = fakeClient(0, failure);
    await assert.rejects(startJobs(client, plan({ batch: true, versionId: 'v2', inputSets: [{ t: '1' }, { t: '2' }] }), undefined, undefined), (e: unknown) => e === failure);
  });

  it('names a failure that is not an Error by its text', () => {
    assert.equal(new PartlyStarted(['j1'], 'socket hang up').message, '1 job started (j1) before a request failed: socket hang up');
  });
});
