import { strict as assert } from 'node:assert';
import { JobStatus } from '../../../src/core/jobStatus';
import { StatusFetcher } from '../../../src/core/jobWatch/statusFetcher';
import type { BulkJobStatus, JobStatusSource, SingleJobStatus } from '../../../src/core/jobWatch/types';

/** A source whose answers the test writes out as they are, however odd. */
function source(bulk: () => unknown, one: (id: string) => unknown = () => ({ status: JobStatus.STARTED })): JobStatusSource & { bulkIds: string[][] } {
  const bulkIds: string[][] = [];
  return {
    bulkIds,
    statuses: (ids) => {
      bulkIds.push([...ids]);
      return Promise.resolve(bulk() as BulkJobStatus[]);
    },
    status: (id) => Promise.resolve(one(id) as SingleJobStatus),
  };
}

const signal = (): AbortSignal => new AbortController().signal;

describe('Reading job statuses', () => {
  it('probes first, then uses the bulk request once it answers', async () => {
    const fetcher = new StatusFetcher(source(() => [{ id: 'a', status: JobStatus.SUCCESS }]));
    assert.equal(fetcher.mode, 'probe');
    await fetcher.fetch(['a'], signal());
    assert.equal(fetcher.mode, 'bulk');
  });

  it('asks for at most 100 jobs per request, and for none when there are none', async () => {
    const src = source(() => []);
    const fetcher = new StatusFetcher(src);
    assert.deepEqual(await fetcher.fetch([], signal()), []);
    assert.equal(src.bulkIds.length, 0);
    await fetcher.fetch(Array.from({ length: 201 }, (_, i) => `j${i}`), signal());
    assert.deepEqual(src.bulkIds.map((ids) => ids.length), [100, 100, 1]);
  });

  it('counts an item of the bulk answer without an id or a whole status as missing', async () => {
    const answer = [null, { id: 7, status: JobStatus.SUCCESS }, { id: 'b', status: 1.5 }, { id: 'c', status: '2' }, { id: 'd', status: JobStatus.SUCCESS }];
    const outcomes = await new StatusFetcher(source(() => answer)).fetch(['a', 'b', 'c', 'd'], signal());
    assert.deepEqual(outcomes.map((o) => o.kind), ['missing', 'missing', 'missing', 'status']);
  });

  it('counts every job missing when the bulk answer is not a list', async () => {
    const outcomes = await new StatusFetcher(source(() => ({ results: [] }))).fetch(['a'], signal());
    assert.deepEqual(outcomes, [{ kind: 'missing', id: 'a' }]);
  });

  it('takes only the times and message the service sent', async () => {
    const answer = [
      { id: 'a', status: JobStatus.FAILURE, timestamp: 1_763_726_400.5, error_message: 'out of memory', created_at: 'c', last_updated_at: 'u' },
      { id: 'b', status: JobStatus.STARTED, timestamp: null, error_message: '', created_at: null, last_updated_at: '' },
      { id: 'c', status: JobStatus.STARTED, timestamp: Number.NaN },
    ];
    const [a, b, c] = await new StatusFetcher(source(() => answer)).fetch(['a', 'b', 'c'], signal());
    assert.deepEqual(a, { kind: 'status', id: 'a', status: JobStatus.FAILURE, changedAt: 1_763_726_400_500, errorMessage: 'out of memory', createdAt: 'c', lastUpdatedAt: 'u' });
    assert.deepEqual(b, { kind: 'status', id: 'b', status: JobStatus.STARTED });
    assert.deepEqual(c, { kind: 'status', id: 'c', status: JobStatus.STARTED });
  });

  it('asks job by job when the server has no bulk request, keeping the order and naming a job it does not know', async () => {
    const unsupported = Object.assign(new Error('no bulk'), { kind: 'unsupported', status: 404 });
    const src: JobStatusSource = {
      statuses: () => Promise.reject(unsupported),
      status: (id) => (id === 'gone' ? Promise.reject(Object.assign(new Error('404'), { kind: 'http', status: 404 })) : Promise.resolve({ status: JobStatus.SUCCESS })),
    };
    const fetcher = new StatusFetcher(src);
    const outcomes = await fetcher.fetch(['a', 'gone', 'b', 'c', 'd', 'e'], signal());
    assert.equal(fetcher.mode, 'perJob');
    assert.deepEqual(outcomes.map((o) => `${o.id}:${o.kind}`), ['a:status', 'gone:missing', 'b:status', 'c:status', 'd:status', 'e:status']);
  });

  it('counts a per-job answer without a whole status as an error', async () => {
    const unsupported = Object.assign(new Error('no bulk'), { kind: 'unsupported' });
    const answers: Record<string, unknown> = { a: null, b: { status: 'x' }, c: { status: JobStatus.SUCCESS } };
    const src: JobStatusSource = { statuses: () => Promise.reject(unsupported), status: (id) => Promise.resolve(answers[id] as SingleJobStatus) };
    const outcomes = await new StatusFetcher(src).fetch(['a', 'b', 'c'], signal());
    assert.deepEqual(outcomes.map((o) => o.kind), ['error', 'error', 'status']);
    assert.equal(outcomes[0]?.kind === 'error' && (outcomes[0].error as Error).message, 'The service sent no status.');
  });

  it('gives every job not yet asked for an error when the fetch is aborted', async () => {
    const controller = new AbortController();
    const unsupported = Object.assign(new Error('no bulk'), { kind: 'unsupported' });
    const src: JobStatusSource = {
      statuses: () => Promise.reject(unsupported),
      status: () => {
        controller.abort(new Error('stopped'));
        return Promise.resolve({ status: JobStatus.SUCCESS });
      },
    };
    const outcomes = await new StatusFetcher(src).fetch(['a', 'b', 'c', 'd', 'e', 'f'], controller.signal);
    assert.equal(outcomes.length, 6);
    const last = outcomes[5]!;
    assert.equal(last.kind, 'error');
    assert.equal(last.kind === 'error' && (last.error as Error).message, 'stopped');
  });
});
