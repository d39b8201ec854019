import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { JobStatus } from '../../../src/core/jobStatus';
import { JobWatcher, MAX_RESTORED_JOBS, parseWatchState } from '../../../src/core/jobWatch';
import { FakeClock, FakeSource, httpError, ids } from './fakes';

const INTERVAL = 5000;

function setup() {
  const clock = new FakeClock();
  const source = new FakeSource(clock);
  return { clock, source, watcher: new JobWatcher(source, { intervalMs: INTERVAL }, clock) };
}

describe('watched jobs across a window reload', () => {
  it('restores every job as it was saved, in order', async () => {
    const before = setup();
    before.source.jobs.set('failed', { status: JobStatus.FAILURE, error_message: 'boom', timestamp: 1_795_000_000 });
    before.source.set(JobStatus.STARTED, 'running');
    before.watcher.watch({ id: 'running', label: 'eval run', agentId: 'agent-1', createdAt: '2026-11-21T11:00:00Z' });
    before.watcher.watch({ id: 'failed' });
    before.watcher.watch({ id: 'done', status: JobStatus.SUCCESS });
    before.watcher.watch({ id: 'pasted' });
    await before.clock.advance(1000);
    const saved = JSON.parse(JSON.stringify(before.watcher.serialize())) as unknown;

    const after = setup();
    assert.equal(after.watcher.restore(saved), 4);
    const expected = before.watcher.jobs().map(({ lastError: _e, notFound: _n, ...job }) => job);
    assert.deepEqual(after.watcher.jobs(), expected);
    assert.equal(after.watcher.jobs()[1]?.errorMessage, 'boom');
    before.watcher.dispose();
    after.watcher.dispose();
  });

  it('polls the restored jobs that still run, soon, without telling old changes again', async () => {
    const { clock, source, watcher } = setup();
    const transitions: unknown[] = [];
    watcher.onDidTransition((...args) => transitions.push(args));
    source.set(JobStatus.STARTED, 'a');
    watcher.restore({
      version: 1,
      jobs: [
        { id: 'a', status: JobStatus.STARTED, watchedAt: 1 },
        { id: 'b', status: JobStatus.SUCCESS, watchedAt: 2 },
      ],
    });
    await clock.advance(1000);
    assert.deepEqual(
      source.calls.map((c) => c.ids),
      [['a']],
    );
    assert.deepEqual(transitions, []);
    watcher.dispose();
  });

  it('gives a job the service had lost a fresh try after a reload', async () => {
    const { clock, source, watcher } = setup();
    watcher.watch({ id: 'ghost' });
    await clock.advance(60_000);
    assert.equal(watcher.jobs()[0]?.notFound, true);
    const restored = setup();
    restored.watcher.restore(watcher.serialize());
    assert.equal(restored.watcher.jobs()[0]?.notFound, undefined);
    assert.equal(restored.watcher.summary().anyRunning, true);
    watcher.dispose();
    restored.watcher.dispose();
    assert.ok(source.calls.length > 0);
  });

  it('keeps the jobs already watched and adds the stored ones after them', () => {
    const { watcher } = setup();
    watcher.watch({ id: 'b', status: JobStatus.STARTED, label: 'current' });
    const added = watcher.restore({ version: 1, jobs: [{ id: 'a', status: 3 }, { id: 'b', status: 4, label: 'stale' }] });
    assert.equal(added, 1);
    assert.deepEqual(
      watcher.jobs().map((j) => [j.id, j.status, j.label]),
      [
        ['b', JobStatus.STARTED, 'current'],
        ['a', JobStatus.SUCCESS, undefined],
      ],
    );
    watcher.dispose();
  });

  it('reads the older forms: a list of IDs, or a list of jobs', () => {
    const now = 1_000;
    assert.deepEqual(parseWatchState(['a', ' b ', 'a'], now), [
      { id: 'a', status: undefined, watchedAt: now },
      { id: 'b', status: undefined, watchedAt: now },
    ]);
    assert.deepEqual(parseWatchState([{ id: 'c', status: 4, errorMessage: 'x' }], now), [
      { id: 'c', status: 4, watchedAt: now, errorMessage: 'x' },
    ]);
  });

  it('keeps a job whose fields are damaged and drops only those fields', () => {
    const damaged = { id: 'a', status: 'running', label: 5, watchedAt: 'yesterday', finishedAt: null, createdAt: '' };
    assert.deepEqual(parseWatchState({ version: 1, jobs: [damaged] }, 7), [{ id: 'a', status: undefined, watchedAt: 7 }]);
  });

  it('ignores garbage without throwing and without polling', async () => {
    const { clock, source, watcher } = setup();
    const garbage: unknown[] = [undefined, null, 42, 'text', {}, { jobs: 'x' }, { jobs: [null, 5, { id: 7 }, { id: '' }, []] }, [[['a']]]];
    for (const data of garbage) assert.equal(watcher.restore(data), 0);
    assert.deepEqual(watcher.jobs(), []);
    await clock.advance(60_000);
    assert.equal(source.calls.length, 0);
    assert.equal(clock.pending, 0);
    watcher.dispose();
  });

  it(`restores at most ${MAX_RESTORED_JOBS} jobs from a damaged store`, () => {
    assert.equal(parseWatchState(ids(MAX_RESTORED_JOBS + 50), 0).length, MAX_RESTORED_JOBS);
  });

  it('never throws on any JSON, and every job it reads has an ID and a watch time', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.array(fc.record({ id: fc.oneof(fc.string(), fc.jsonValue()), status: fc.jsonValue() }))), (data) => {
        for (const job of parseWatchState(data, 5)) {
          assert.ok(job.id.length > 0);
          assert.ok(Number.isFinite(job.watchedAt));
          assert.ok(job.status === undefined || Number.isInteger(job.status));
        }
      }),
    );
  });

  it('does not store poll errors, which belong to the old session', async () => {
    const { clock, source, watcher } = setup();
    source.outage = httpError(503);
    watcher.watch({ id: 'a', status: JobStatus.STARTED });
    await clock.advance(1000);
    assert.ok(watcher.jobs()[0]?.lastError);
    assert.equal(JSON.stringify(watcher.serialize()).includes('lastError'), false);
    watcher.dispose();
  });
});
