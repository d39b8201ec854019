import { strict as assert } from 'node:assert';
import type { AgentJob, BaseAgent } from '../../../src/core/client';
import { JobStatus } from '../../../src/core/jobStatus';
import { RECORD_READ_DELAY_MS, ServiceStore, type StoreChange, type StoreSource } from '../../../src/core/store/serviceStore';
import { FakeClock } from '../jobWatch/fakes';

const T0 = Date.parse('2026-11-21T12:00:00Z');
const iso = (s: number): string => new Date(T0 + s * 1000).toISOString();
const INTERVAL = 5000;

function job(id: string, status: number, updatedS: number, extra: Partial<AgentJob> = {}): AgentJob {
  return { id, status_code: status, created_at: iso(0), last_updated_at: iso(updatedS), ...extra };
}

function agent(id: string, extra: Partial<BaseAgent> = {}): BaseAgent {
  return { id, name: `agent ${id}`, engine_class_id: 'e', created_at: iso(0), job_count: 0, most_recent_job: null, ...extra } as BaseAgent;
}

/** A service whose statuses and newest jobs the test sets; a read can be held open until released. */
class FakeService implements StoreSource {
  statusOf = new Map<string, { status: number; last_updated_at?: string }>();
  jobsOf = new Map<string, AgentJob[]>();
  bulkRequests = 0;
  recentReads: string[] = [];
  hold: Promise<void> | undefined;
  statuses(ids: string[]) {
    this.bulkRequests++;
    return Promise.resolve(ids.filter((id) => this.statusOf.has(id)).map((id) => ({ id, ...this.statusOf.get(id)! })));
  }
  status(id: string) {
    return Promise.resolve({ status: this.statusOf.get(id)?.status ?? JobStatus.PENDING });
  }
  async recentJobs(agentId: string) {
    this.recentReads.push(agentId);
    await this.hold;
    const jobs = this.jobsOf.get(agentId) ?? [];
    return { count: jobs.length, results: jobs };
  }
}

function setup() {
  const clock = new FakeClock();
  const service = new FakeService();
  const store = new ServiceStore(service, { intervalMs: INTERVAL }, clock);
  const changes: { agents: string[]; jobs: string[]; started: StoreChange['started'] }[] = [];
  store.onDidChange((c) => changes.push({ agents: [...c.agents], jobs: [...c.jobs], started: c.started }));
  return { clock, service, store, changes };
}

describe('The store telling views what changed', () => {
  it('tells that an agent list arrived', () => {
    const { store, changes } = setup();
    store.putAgents([agent('a')]);
    assert.deepEqual(changes, [{ agents: ['a'], jobs: [], started: [] }]);
    store.dispose();
  });

  it('keeps an agent’s newer last job when an older list of agents arrives, and never its count from it', () => {
    const { store } = setup();
    store.putAgents([agent('a', { job_count: 3, most_recent_job: iso(50) })]);
    store.putAgents([agent('a', { job_count: 2, most_recent_job: iso(10), name: 'renamed' })]);
    assert.equal(store.agent('a')?.most_recent_job, iso(50));
    assert.equal(store.agent('a')?.job_count, 2);
    assert.equal(store.agent('a')?.name, 'renamed');
    store.putAgents([agent('a', { job_count: 2, most_recent_job: iso(60) })]);
    assert.equal(store.agent('a')?.most_recent_job, iso(60));
    store.dispose();
  });

  it('tells which jobs a page brought, and nothing for a page that brings nothing new', () => {
    const { store, changes } = setup();
    store.putJobs('a', [job('j1', JobStatus.STARTED, 1)]);
    store.putJobs('a', [job('j1', JobStatus.STARTED, 1)]);
    assert.deepEqual(changes, [{ agents: [], jobs: ['j1'], started: [] }]);
    assert.equal(store.agentIdOf('j1'), 'a');
    assert.equal(store.agentIdOf('unknown'), undefined);
    store.dispose();
  });

  it('takes an agent’s job count and last job from an unfiltered page of its jobs', () => {
    const { store, changes } = setup();
    store.putAgents([agent('a', { job_count: 1, most_recent_job: iso(0) })]);
    changes.length = 0;
    store.putJobs('a', [job('j2', JobStatus.STARTED, 1, { created_at: iso(40) }), job('j1', JobStatus.SUCCESS, 1, { created_at: iso(0) })], { count: 7, unfiltered: true });
    assert.equal(store.agent('a')?.job_count, 7);
    assert.equal(store.agent('a')?.most_recent_job, iso(40));
    assert.deepEqual(changes, [{ agents: ['a'], jobs: ['j2', 'j1'], started: [] }]);
    store.dispose();
  });

  it('tells nothing of an agent a page teaches nothing new, and never invents an agent it does not know', () => {
    const { store, changes } = setup();
    store.putAgents([agent('a', { job_count: 1, most_recent_job: iso(40) })]);
    changes.length = 0;
    store.putJobs('a', [job('j1', JobStatus.STARTED, 1, { created_at: iso(40) })], { count: 1, unfiltered: true });
    assert.deepEqual(changes, [{ agents: [], jobs: ['j1'], started: [] }]);
    store.putJobs('x', [job('k1', JobStatus.STARTED, 1, { created_at: iso(40) })], { count: 1, unfiltered: true });
    assert.equal(store.agent('x'), undefined);
    store.dispose();
  });

  it('lists the running jobs of one agent only', () => {
    const { store } = setup();
    store.putJobs('a', [job('run', JobStatus.STARTED, 1), job('done', JobStatus.SUCCESS, 1)]);
    store.putJobs('b', [job('other', JobStatus.PENDING, 1)]);
    assert.deepEqual(store.activeJobsOf('a').map((j) => j.id), ['run']);
    assert.deepEqual(store.activeJobsOf('b').map((j) => j.id), ['other']);
    store.dispose();
  });
});

describe('Jobs started here, on their agent', () => {
  it('moves the agent’s last job to the newest started job and keeps the rest of the agent', () => {
    const { store, changes } = setup();
    store.putAgents([agent('a', { job_count: 1, most_recent_job: null })]);
    changes.length = 0;
    store.jobsStarted('a', [job('j2', JobStatus.PENDING, 0, { created_at: iso(30) }), job('j1', JobStatus.PENDING, 0, { created_at: iso(20) }), job('j3', JobStatus.PENDING, 0, { created_at: iso(10) })]);
    assert.equal(store.agent('a')?.most_recent_job, iso(30));
    assert.equal(store.agent('a')?.job_count, 4);
    assert.equal(store.agent('a')?.name, 'agent a');
    assert.deepEqual(changes, [{ agents: ['a'], jobs: ['j2', 'j1', 'j3'], started: [{ agentId: 'a', jobIds: ['j2', 'j1', 'j3'] }] }]);
    store.dispose();
  });

  it('never moves the last job back to an older started job', () => {
    const { store } = setup();
    store.putAgents([agent('a', { job_count: 5, most_recent_job: iso(100) })]);
    store.jobsStarted('a', [job('j1', JobStatus.PENDING, 0, { created_at: iso(10) })]);
    assert.equal(store.agent('a')?.most_recent_job, iso(100));
    store.dispose();
  });

  it('gives no count to an agent whose jobs the service does not count', () => {
    const { store } = setup();
    store.putAgents([agent('a', { job_count: undefined, most_recent_job: iso(0) })]);
    store.jobsStarted('a', [job('j1', JobStatus.PENDING, 0, { created_at: iso(10) })]);
    assert.equal(store.agent('a')?.job_count, undefined);
    store.dispose();
  });

  it('tells of no new start when the same jobs are announced again', () => {
    const { store, changes } = setup();
    store.putAgents([agent('a', { job_count: 1 })]);
    store.jobsStarted('a', [job('j1', JobStatus.PENDING, 0, { created_at: iso(10) })]);
    changes.length = 0;
    store.jobsStarted('a', [job('j1', JobStatus.STARTED, 5, { created_at: iso(10) })]);
    assert.deepEqual(changes, [{ agents: [], jobs: ['j1'], started: [] }]);
    store.dispose();
  });
});

describe('Status updates in the store', () => {
  it('tell every view of a status patch, and each listener of that job', () => {
    const { store, changes } = setup();
    store.putJobs('a', [job('j', JobStatus.STARTED, 1)]);
    changes.length = 0;
    const first: number[] = [];
    const second: number[] = [];
    store.onJob('j', (j) => first.push(j.status_code));
    store.onJob('j', (j) => second.push(j.status_code));
    store.patchJobs([{ id: 'j', status_code: JobStatus.SUCCESS, last_updated_at: iso(2) }]);
    assert.deepEqual(changes, [{ agents: [], jobs: ['j'], started: [] }]);
    assert.deepEqual(first, [JobStatus.SUCCESS]);
    assert.deepEqual(second, [JobStatus.SUCCESS]);
    store.dispose();
  });

  it('tell nothing for a patch older than what is known or of a job the store does not know', () => {
    const { store, changes } = setup();
    store.putJobs('a', [job('j', JobStatus.SUCCESS, 10)]);
    changes.length = 0;
    store.patchJobs([{ id: 'j', status_code: JobStatus.STARTED, last_updated_at: iso(5) }, { id: 'nobody', status_code: JobStatus.SUCCESS }]);
    assert.deepEqual(changes, []);
    store.dispose();
  });

  it('stop reaching a job listener once it is disposed, while the job’s other listeners still hear', () => {
    const { store } = setup();
    store.putJobs('a', [job('j', JobStatus.PENDING, 1)]);
    const kept: number[] = [];
    const gone: number[] = [];
    store.onJob('j', (j) => kept.push(j.status_code));
    const subscription = store.onJob('j', (j) => gone.push(j.status_code));
    subscription.dispose();
    store.patchJobs([{ id: 'j', status_code: JobStatus.STARTED, last_updated_at: iso(2) }]);
    // Disposing twice, after the job's listeners changed, takes nothing from the others.
    subscription.dispose();
    const later: number[] = [];
    store.onJob('j', (j) => later.push(j.status_code));
    subscription.dispose();
    store.patchJobs([{ id: 'j', status_code: JobStatus.SUCCESS, last_updated_at: iso(3) }]);
    assert.deepEqual(gone, []);
    assert.deepEqual(kept, [JobStatus.STARTED, JobStatus.SUCCESS]);
    assert.deepEqual(later, [JobStatus.SUCCESS]);
    store.dispose();
  });

  it('keep reaching a new listener when an old subscription of the same job is disposed again', () => {
    const { store } = setup();
    store.putJobs('a', [job('j', JobStatus.PENDING, 1)]);
    const old = store.onJob('j', () => undefined);
    old.dispose();
    const heard: number[] = [];
    store.onJob('j', (j) => heard.push(j.status_code));
    old.dispose();
    store.patchJobs([{ id: 'j', status_code: JobStatus.STARTED, last_updated_at: iso(2) }]);
    assert.deepEqual(heard, [JobStatus.STARTED]);
    store.dispose();
  });

  it('reach a new listener after every earlier listener of the job was disposed', () => {
    const { store } = setup();
    store.putJobs('a', [job('j', JobStatus.PENDING, 1)]);
    store.onJob('j', () => undefined).dispose();
    const heard: number[] = [];
    store.onJob('j', (j) => heard.push(j.status_code));
    store.patchJobs([{ id: 'j', status_code: JobStatus.STARTED, last_updated_at: iso(2) }]);
    assert.deepEqual(heard, [JobStatus.STARTED]);
    store.dispose();
  });

  it('read no record for a job that is still running', async () => {
    const { clock, service, store } = setup();
    store.putJobs('a', [job('j', JobStatus.PENDING, 1)]);
    store.patchJobs([{ id: 'j', status_code: JobStatus.STARTED, last_updated_at: iso(2) }]);
    await clock.advance(RECORD_READ_DELAY_MS * 2);
    assert.deepEqual(service.recentReads, []);
    store.dispose();
  });

  it('read the records of every agent whose jobs finished together', async () => {
    const { clock, service, store } = setup();
    store.putJobs('a', [job('ja', JobStatus.STARTED, 1)]);
    store.putJobs('b', [job('jb', JobStatus.STARTED, 1)]);
    store.patchJobs([{ id: 'ja', status_code: JobStatus.SUCCESS, last_updated_at: iso(2) }]);
    await clock.advance(RECORD_READ_DELAY_MS / 2);
    store.patchJobs([{ id: 'jb', status_code: JobStatus.FAILURE, last_updated_at: iso(2) }]);
    await clock.advance(RECORD_READ_DELAY_MS);
    assert.deepEqual(service.recentReads.sort(), ['a', 'b']);
    store.dispose();
  });
});
