import { strict as assert } from 'node:assert';
import type { AgentJob } from '../../../src/core/client';
import { JobStatus } from '../../../src/core/jobStatus';
import { RECORD_READ_DELAY_MS, ServiceStore, type StoreSource } from '../../../src/core/store/serviceStore';
import { FakeClock, settle } from '../jobWatch/fakes';

const T0 = Date.parse('2026-11-21T12:00:00Z');
const iso = (s: number): string => new Date(T0 + s * 1000).toISOString();
const INTERVAL = 5000;

function job(id: string, status: number, updatedS: number, extra: Partial<AgentJob> = {}): AgentJob {
  return { id, status_code: status, created_at: iso(0), last_updated_at: iso(updatedS), ...extra };
}

/** A service whose statuses and newest jobs the test sets; its record reads wait until released. */
class FakeService implements StoreSource {
  statusOf = new Map<string, { status: number; last_updated_at?: string }>();
  jobsOf = new Map<string, AgentJob[]>();
  bulkRequests = 0;
  recentReads: string[] = [];
  private waiting: (() => void)[] = [];
  holdReads = false;
  statuses(ids: string[]) {
    this.bulkRequests++;
    return Promise.resolve(ids.filter((id) => this.statusOf.has(id)).map((id) => ({ id, ...this.statusOf.get(id)! })));
  }
  status(id: string) {
    return Promise.resolve({ status: this.statusOf.get(id)?.status ?? JobStatus.PENDING });
  }
  async recentJobs(agentId: string) {
    this.recentReads.push(agentId);
    if (this.holdReads) await new Promise<void>((resolve) => this.waiting.push(resolve));
    const jobs = this.jobsOf.get(agentId) ?? [];
    return { count: jobs.length, results: jobs };
  }
  release(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

function setup() {
  const clock = new FakeClock();
  const service = new FakeService();
  const store = new ServiceStore(service, { intervalMs: INTERVAL }, clock);
  return { clock, service, store };
}

describe('Reading a job’s full record', () => {
  it('shares one read among the views that ask for it together, and reads anew when asked later', async () => {
    const { service, store } = setup();
    service.jobsOf.set('a', [job('j', JobStatus.SUCCESS, 5, { status_events: [] })]);
    await Promise.all([store.readRecords('a'), store.readRecords('a')]);
    assert.deepEqual(service.recentReads, ['a']);
    await store.readRecords('a');
    assert.deepEqual(service.recentReads, ['a', 'a']);
    assert.equal(store.job('j')?.status_code, JobStatus.SUCCESS);
    store.dispose();
  });

  it('takes the agent’s job count from the read', async () => {
    const { service, store } = setup();
    store.putAgents([{ id: 'a', name: 'a', engine_class_id: 'e', created_at: iso(0), job_count: 1, most_recent_job: iso(0) } as never]);
    service.jobsOf.set('a', [job('j2', JobStatus.SUCCESS, 5, { created_at: iso(9) }), job('j1', JobStatus.SUCCESS, 5)]);
    await store.readRecords('a');
    assert.equal(store.agent('a')?.job_count, 2);
    store.dispose();
  });

  it('never rejects when the read fails', async () => {
    const { service, store } = setup();
    service.recentJobs = () => Promise.reject(new Error('offline'));
    await store.readRecords('a');
    assert.equal(store.job('j'), undefined);
    store.dispose();
  });
});

describe('Disposing the store', () => {
  it('stops its watcher: no more status requests', async () => {
    const { clock, service, store } = setup();
    store.follower('view').follow([{ id: 'j', agentId: 'a', status: JobStatus.STARTED }]);
    await clock.advance(INTERVAL);
    const before = service.bulkRequests;
    assert.ok(before > 0);
    store.dispose();
    await clock.advance(INTERVAL * 5);
    assert.equal(service.bulkRequests, before);
  });

  it('cancels a record read that was about to start', async () => {
    const { clock, service, store } = setup();
    store.putJobs('a', [job('j', JobStatus.STARTED, 1), job('k', JobStatus.STARTED, 1)]);
    store.patchJobs([{ id: 'j', status_code: JobStatus.SUCCESS, last_updated_at: iso(2) }]);
    await clock.advance(RECORD_READ_DELAY_MS / 2);
    store.patchJobs([{ id: 'k', status_code: JobStatus.SUCCESS, last_updated_at: iso(2) }]);
    store.dispose();
    await clock.advance(RECORD_READ_DELAY_MS * 2);
    assert.deepEqual(service.recentReads, []);
  });

  it('schedules no read and tells nothing for what arrives afterwards, yet keeps what it knew readable', async () => {
    const { clock, service, store } = setup();
    store.putJobs('a', [job('j', JobStatus.STARTED, 1)]);
    const heard: number[] = [];
    store.onDidChange(() => heard.push(1));
    store.onJob('j', () => heard.push(2));
    store.dispose();
    store.dispose();
    store.patchJobs([{ id: 'j', status_code: JobStatus.SUCCESS, last_updated_at: iso(2) }]);
    await clock.advance(RECORD_READ_DELAY_MS * 2);
    assert.deepEqual(service.recentReads, []);
    assert.deepEqual(heard, []);
    assert.equal(store.job('j')?.status_code, JobStatus.SUCCESS);
  });

  it('drops a record read still in flight: the record it brings is not taken', async () => {
    const { service, store } = setup();
    store.putJobs('a', [job('j', JobStatus.SUCCESS, 1)]);
    service.holdReads = true;
    service.jobsOf.set('a', [job('j', JobStatus.SUCCESS, 1, { error_message: 'late' })]);
    const read = store.readRecords('a');
    await settle();
    store.dispose();
    service.release();
    await read;
    assert.equal(store.job('j')?.error_message, undefined);
  });
});

describe('Jobs the watcher knows before the store does', () => {
  it('become known with their agent and status, and every listener hears the first status', async () => {
    const { clock, service, store } = setup();
    const changed: string[] = [];
    store.onDidChange((c) => changed.push(...c.jobs));
    store.watcher.watch({ id: 'j', agentId: 'a', createdAt: iso(-60) });
    service.statusOf.set('j', { status: JobStatus.STARTED, last_updated_at: iso(3) });
    await clock.advance(INTERVAL);
    assert.deepEqual(store.job('j'), { id: 'j', status_code: JobStatus.STARTED, created_at: iso(-60), last_updated_at: iso(3) });
    assert.equal(store.agentIdOf('j'), 'a');
    assert.deepEqual(changed, ['j']);
    await clock.advance(RECORD_READ_DELAY_MS * 2);
    assert.deepEqual(service.recentReads, [], 'a running job has no record to read yet');
    store.dispose();
  });

  it('are dated from when they were watched when the service sends no creation time', async () => {
    const { clock, service, store } = setup();
    const watchedAt = clock.now();
    store.watcher.watch({ id: 'j', agentId: 'a' });
    service.statusOf.set('j', { status: JobStatus.STARTED });
    await clock.advance(INTERVAL);
    assert.equal(store.job('j')?.created_at, new Date(watchedAt).toISOString());
    assert.equal(store.job('j')?.last_updated_at, null);
    store.dispose();
  });

  it('have their full record read when they are already finished', async () => {
    const { clock, service, store } = setup();
    store.watcher.watch({ id: 'j', agentId: 'a' });
    service.statusOf.set('j', { status: JobStatus.SUCCESS, last_updated_at: iso(3) });
    await clock.advance(INTERVAL + RECORD_READ_DELAY_MS);
    assert.deepEqual(service.recentReads, ['a']);
    store.dispose();
  });

  it('stay unknown without an agent, since the store keeps jobs by agent', async () => {
    const { clock, service, store } = setup();
    store.watcher.watch({ id: 'j' });
    service.statusOf.set('j', { status: JobStatus.STARTED, last_updated_at: iso(3) });
    await clock.advance(INTERVAL);
    assert.equal(store.job('j'), undefined);
    store.dispose();
  });

  it('stay unknown while the service has not told their status', async () => {
    const { clock, store } = setup();
    store.watcher.watch({ id: 'j', agentId: 'a' });
    await clock.advance(INTERVAL * 4);
    assert.equal(store.job('j'), undefined);
    store.dispose();
  });

  it('keep their known status when the watcher has none for them (the service no longer knows the job)', async () => {
    const { clock, store } = setup();
    store.putJobs('a', [{ id: 'j', status_code: JobStatus.STARTED, created_at: iso(0), last_updated_at: null }]);
    store.watcher.watch({ id: 'j', agentId: 'a', status: JobStatus.STARTED });
    await clock.advance(INTERVAL * 4);
    assert.equal(store.job('j')?.status_code, JobStatus.STARTED);
    store.dispose();
  });
});
