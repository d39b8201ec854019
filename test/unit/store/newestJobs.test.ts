import { strict as assert } from 'node:assert';
import type { AgentJob } from '../../../src/core/client';
import { JobStatus } from '../../../src/core/jobStatus';
import { NEWEST_PAGE_SIZE } from '../../../src/core/store/newestJobs';
import { ServiceStore, type StoreSource } from '../../../src/core/store/serviceStore';
import { FakeClock, settle } from '../jobWatch/fakes';

const T0 = Date.parse('2026-11-21T12:00:00Z');
const iso = (s: number): string => new Date(T0 + s * 1000).toISOString();
const job = (id: string, createdS: number): AgentJob => ({ id, status_code: JobStatus.SUCCESS, created_at: iso(createdS), last_updated_at: iso(createdS + 5) });

/** Each agent's jobs, newest first; every read of the newest page is counted with its page size. */
class FakeService implements StoreSource {
  jobsOf = new Map<string, AgentJob[]>();
  reads: { agentId: string; pageSize: number | undefined }[] = [];
  statuses() {
    return Promise.resolve([]);
  }
  status() {
    return Promise.resolve({ status: JobStatus.PENDING });
  }
  recentJobs(agentId: string, _signal: AbortSignal, pageSize?: number) {
    this.reads.push({ agentId, pageSize });
    const jobs = this.jobsOf.get(agentId) ?? [];
    return Promise.resolve({ count: jobs.length, results: jobs.slice(0, pageSize ?? 50) });
  }
}

const INTERVAL = 5000;

function setUp() {
  const clock = new FakeClock();
  const service = new FakeService();
  const store = new ServiceStore(service, { intervalMs: 30_000, listIntervalMs: INTERVAL }, clock);
  service.jobsOf.set('a', [job('j2', 20), job('j1', 10)]);
  store.putJobs('a', service.jobsOf.get('a')!, { count: 2, unfiltered: true });
  const started: string[][] = [];
  store.onDidChange((change) => started.push(...change.started.map((s) => [s.agentId, ...s.jobIds])));
  return { clock, service, store, started };
}

describe('Jobs lists that are shown', () => {
  it('show a job another client started within one refresh interval, from one small read of the newest page', async () => {
    const { clock, service, store, started } = setUp();
    store.showJobLists(['a']);
    service.jobsOf.set('a', [job('j3', 30), job('j2', 20), job('j1', 10)]);
    await clock.advance(INTERVAL);
    await settle();
    assert.deepEqual(service.reads, [{ agentId: 'a', pageSize: NEWEST_PAGE_SIZE }]);
    assert.deepEqual(started, [['a', 'j3']]);
    assert.ok(store.job('j3'));
    await clock.advance(INTERVAL);
    await settle();
    assert.equal(service.reads.length, 2, 'one read per interval');
    assert.deepEqual(started, [['a', 'j3']], 'a job is announced once');
    store.dispose();
  });

  it('read nothing while no list is shown (view hidden, window unfocused, lists collapsed)', async () => {
    const { clock, service, store } = setUp();
    await clock.advance(INTERVAL * 3);
    store.showJobLists(['a']);
    store.showJobLists([]);
    await clock.advance(INTERVAL * 3);
    await settle();
    assert.deepEqual(service.reads, []);
    store.dispose();
  });

  it('read each shown list once per interval, one after another, and at once when a list is expanded again', async () => {
    const { clock, service, store, started } = setUp();
    service.jobsOf.set('b', [job('k1', 5)]);
    store.putJobs('b', service.jobsOf.get('b')!, { count: 1, unfiltered: true });
    store.showJobLists(['a', 'b', 'a']);
    await clock.advance(INTERVAL);
    await settle();
    assert.deepEqual(service.reads.map((r) => r.agentId), ['a', 'b']);
    service.jobsOf.set('b', [job('k2', 40), job('k1', 5)]);
    await store.readRecords('b', NEWEST_PAGE_SIZE);
    assert.deepEqual(started, [['b', 'k2']]);
    store.dispose();
  });

  it('do not announce old jobs of an agent whose list was never read', async () => {
    const clock = new FakeClock();
    const service = new FakeService();
    const store = new ServiceStore(service, { intervalMs: 5000 }, clock);
    service.jobsOf.set('c', [job('m1', 1)]);
    const started: unknown[] = [];
    store.onDidChange((change) => started.push(...change.started));
    await store.readRecords('c');
    assert.deepEqual(started, []);
    store.dispose();
  });
});
