import { strict as assert } from 'node:assert';
import * as fc from 'fast-check';
import type { AgentJob, BaseAgent } from '../../../src/core/client';
import { JobStatus } from '../../../src/core/jobStatus';
import { PagedList } from '../../../src/core/pagedList';
import { mergeJob } from '../../../src/core/store/jobMerge';
import { RECORD_READ_DELAY_MS, ServiceStore, type StoreSource } from '../../../src/core/store/serviceStore';
import { FakeClock, settle } from '../jobWatch/fakes';

const T0 = Date.parse('2026-11-21T12:00:00Z');
const iso = (s: number): string => new Date(T0 + s * 1000).toISOString();

function job(id: string, status: number, updatedS: number, extra: Partial<AgentJob> = {}): AgentJob {
  return { id, status_code: status, created_at: iso(0), last_updated_at: iso(updatedS), ...extra };
}

function agent(id: string, extra: Partial<BaseAgent> = {}): BaseAgent {
  return { id, name: `agent ${id}`, engine_class_id: 'e', created_at: iso(0), job_count: 0, most_recent_job: null, ...extra } as BaseAgent;
}

/** A service the test controls: statuses by id, and each agent's jobs newest first. */
class FakeService implements StoreSource {
  statusOf = new Map<string, number>();
  jobsOf = new Map<string, AgentJob[]>();
  bulkRequests = 0;
  recentReads: string[] = [];
  statuses(ids: string[]) {
    this.bulkRequests++;
    return Promise.resolve(ids.filter((id) => this.statusOf.has(id)).map((id) => ({ id, status: this.statusOf.get(id)!, last_updated_at: iso(100) })));
  }
  status(id: string) {
    return Promise.resolve({ status: this.statusOf.get(id) ?? JobStatus.PENDING });
  }
  recentJobs(agentId: string) {
    this.recentReads.push(agentId);
    const jobs = this.jobsOf.get(agentId) ?? [];
    return Promise.resolve({ count: jobs.length, results: jobs.slice(0, 50) });
  }
}

describe('The store of what the extension knows', () => {
  it('keeps the newest status whatever order the copies arrive in', () => {
    const verdict: Partial<AgentJob> & { ui_fields: unknown } = { ui_fields: { verdict: 'Compliant' } };
    const done = job('j', JobStatus.SUCCESS, 10, verdict);
    const stalePage = job('j', JobStatus.STARTED, 5, { job_inputs: [{ key: 'transcript', value: 'hi' }] });
    const merged = mergeJob(done, stalePage);
    assert.equal(merged.status_code, JobStatus.SUCCESS);
    assert.equal(merged.job_inputs?.[0]?.value, 'hi');
    assert.equal((merged as { ui_fields?: { verdict?: string } }).ui_fields?.verdict, 'Compliant');
    assert.equal(mergeJob(stalePage, done).status_code, JobStatus.SUCCESS);
  });

  it('keeps a key named __proto__ as data', () => {
    const incoming = JSON.parse('{"id":"j","status_code":1,"created_at":"2026-11-21T12:00:00Z","__proto__":{"polluted":true}}') as unknown as AgentJob;
    const merged = mergeJob(job('j', 1, 0), incoming);
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
    assert.ok(Object.hasOwn(merged, '__proto__'));
  });

  it('counts a job started here on its agent and tells every subscriber once', () => {
    const store = new ServiceStore(new FakeService(), { intervalMs: 5000 }, new FakeClock());
    store.putAgents([agent('a', { job_count: 3, most_recent_job: iso(0) })]);
    const changes: string[][] = [];
    store.onDidChange((c) => changes.push([...c.agents, ...c.started.flatMap((s) => s.jobIds)]));
    store.jobsStarted('a', [job('j1', JobStatus.PENDING, 50, { created_at: iso(50) })]);
    assert.equal(store.agent('a')?.job_count, 4);
    assert.equal(store.agent('a')?.most_recent_job, iso(50));
    assert.deepEqual(changes, [['a', 'j1']]);
    // The same job again (a list page that shows it) is not counted twice.
    store.jobsStarted('a', [job('j1', JobStatus.PENDING, 50, { created_at: iso(50) })]);
    assert.equal(store.agent('a')?.job_count, 4);
    store.dispose();
  });

  it('brings a finished job its full record (events, verdict) from the agent’s newest jobs, in one read per agent', async () => {
    const clock = new FakeClock();
    const service = new FakeService();
    const store = new ServiceStore(service, { intervalMs: 5000 }, clock);
    store.jobsStarted('a', [job('j1', JobStatus.PENDING, 0), job('j2', JobStatus.PENDING, 0)]);
    const follower = store.follower('test');
    follower.follow([{ id: 'j1', agentId: 'a', status: JobStatus.PENDING }, { id: 'j2', agentId: 'a', status: JobStatus.PENDING }]);
    service.statusOf.set('j1', JobStatus.SUCCESS).set('j2', JobStatus.FAILURE);
    const extra: Partial<AgentJob> & { ui_fields: unknown } = { ui_fields: { verdict: 'Compliant' } };
    const full = (id: string, status: number) => job(id, status, 100, { ...extra, status_events: [{ timestamp: iso(1), status_code: 0 }, { timestamp: iso(100), status_code: status }] });
    service.jobsOf.set('a', [full('j2', JobStatus.FAILURE), full('j1', JobStatus.SUCCESS)]);
    const heard: number[] = [];
    store.onJob('j1', (j) => heard.push(j.status_code));
    await clock.advance(5000);
    assert.equal(store.job('j1')?.status_code, JobStatus.SUCCESS);
    await clock.advance(RECORD_READ_DELAY_MS);
    await settle();
    assert.deepEqual(service.recentReads, ['a']);
    assert.equal(store.job('j1')?.status_events?.length, 2);
    assert.equal(heard[0], JobStatus.SUCCESS);
    follower.dispose();
    store.dispose();
  });

  it('ignores a cancel answer older than the status already known', () => {
    const store = new ServiceStore(new FakeService(), { intervalMs: 5000 }, new FakeClock());
    store.putJobs('a', [job('j', JobStatus.SUCCESS, 20)]);
    store.patchJobs([{ id: 'j', status_code: JobStatus.STARTED, last_updated_at: iso(10) }]);
    assert.equal(store.job('j')?.status_code, JobStatus.SUCCESS);
    store.dispose();
  });

  it('converges to what the service holds, and never lists an id twice, however pages shift and repeat (property)', async () => {
    const statuses = [JobStatus.PENDING, JobStatus.STARTED, JobStatus.SUCCESS, JobStatus.FAILURE];
    const step = fc.oneof(
      fc.record({ kind: fc.constant('page' as const), shift: fc.integer({ min: 0, max: 3 }), repeat: fc.boolean() }),
      fc.record({ kind: fc.constant('status' as const), index: fc.nat(), status: fc.constantFrom(...statuses), at: fc.integer({ min: 1, max: 50 }) }),
      fc.record({ kind: fc.constant('startedElsewhere' as const) }),
      fc.record({ kind: fc.constant('startedHere' as const) }),
      fc.record({ kind: fc.constant('reload' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        // The service: jobs newest first; each has a status and the time it was set.
        let serviceJobs: AgentJob[] = Array.from({ length: 6 }, (_, i) => job(`j${i}`, JobStatus.SUCCESS, 0, { created_at: iso(-i) }));
        let clockS = 0;
        let next = 100;
        const store = new ServiceStore(new FakeService(), { intervalMs: 5000 }, new FakeClock());
        store.putAgents([agent('a', { job_count: serviceJobs.length })]);
        // A projection like the Jobs list: ids only, paged, the store holding the data.
        let extra = 0;
        let repeat = false;
        const list = new PagedList<{ id: string }>((page) => {
          const size = 2;
          const from = (page - 1) * size - extra;
          const slice = serviceJobs.slice(Math.max(0, from), Math.max(0, from) + size + (repeat ? 1 : 0));
          store.putJobs('a', slice, { count: serviceJobs.length, unfiltered: true });
          return Promise.resolve({ count: serviceJobs.length, results: slice.map((j) => ({ id: j.id })), nextPage: from + size < serviceJobs.length ? page + 1 : null });
        });
        store.onDidChange((c) => c.started.forEach((s) => s.jobIds.forEach((id) => list.prepend({ id }))));
        await list.ensureLoaded();
        for (const s of steps) {
          clockS++;
          if (s.kind === 'page') {
            extra = s.shift;
            repeat = s.repeat;
            await list.loadMore();
          } else if (s.kind === 'status') {
            const target = serviceJobs[s.index % serviceJobs.length]!;
            const updated = { ...target, status_code: s.status, last_updated_at: iso(clockS) };
            serviceJobs = serviceJobs.map((j) => (j.id === target.id ? updated : j));
            store.patchJobs([{ id: target.id, status_code: s.status, last_updated_at: updated.last_updated_at }]);
          } else if (s.kind === 'startedElsewhere' || s.kind === 'startedHere') {
            const fresh = job(`n${next++}`, JobStatus.PENDING, clockS, { created_at: iso(clockS) });
            serviceJobs = [fresh, ...serviceJobs];
            if (s.kind === 'startedHere') store.jobsStarted('a', [fresh]);
          } else {
            extra = 0;
            repeat = false;
            list.reset();
            await list.ensureLoaded();
          }
          const ids = list.loadedItems.map((i) => i.id);
          assert.equal(new Set(ids).size, ids.length, `an id listed twice: ${ids.join(',')}`);
        }
        // Reading everything once more converges: every job shown has the service's status, the agent its count.
        extra = 0;
        repeat = false;
        list.reset();
        await list.ensureLoaded();
        while (list.state.kind === 'loaded' && list.state.hasMore) await list.loadMore();
        for (const { id } of list.loadedItems) assert.equal(store.job(id)?.status_code, serviceJobs.find((j) => j.id === id)?.status_code);
        assert.equal(store.agent('a')?.job_count, serviceJobs.length);
        store.dispose();
      }),
      { numRuns: 150 },
    );
  });
});

describe('The store’s job labels', () => {
  const OPENING = 'Agent: Thanks for calling Acme Support, this call may be recorded for quality and training.';
  const started = (n: number, line: string): AgentJob =>
    job(`c${n}`, JobStatus.PENDING, 0, { job_inputs: [{ key: 'transcript', value: `${OPENING}\nCustomer: ${line}\nAgent: I am sorry to hear that.` }] });

  it('tell jobs just started apart at once (a run file’s batch): what they open with is learnt from them too', () => {
    const store = new ServiceStore(new FakeService(), { intervalMs: 5000 }, new FakeClock());
    const jobs = [started(1, 'The service was down again.'), started(2, 'My router keeps restarting.'), started(3, 'Which plan has phone support?')];
    store.jobsStarted('a', jobs);
    const labels = jobs.map((j) => store.labels.rowText('a', store.job(j.id)!, undefined).label);
    assert.deepEqual(labels, ['“The service was down again. Agent: I …”', '“My router keeps restarting. Agent: I …”', '“Which plan has phone support? Agent: …”']);
    store.dispose();
  });

  it('name a watched job by its row’s label in the status bar, not by its agent and version, once its inputs are known', () => {
    const store = new ServiceStore(new FakeService(), { intervalMs: 5000 }, new FakeClock());
    store.jobsStarted('a', [started(1, 'The service was down again.'), started(2, 'My router keeps restarting.'), started(3, 'Which plan has phone support?')]);
    const watched = (id: string) => ({ id, label: 'Support Call QA · v4 – recording disclosure', agentId: 'a', status: JobStatus.PENDING, watchedAt: T0 });
    assert.equal(store.labelOfWatched(watched('c2')), store.labels.rowText('a', store.job('c2')!, undefined).label);
    assert.equal(store.labelOfWatched(watched('c2')), '“My router keeps restarting. Agent: I …”');
    assert.equal(store.labelOfWatched(watched('pasted')), 'Support Call QA · v4 – recording disclosure', 'a job whose inputs are unknown keeps the label it was watched with');
    store.dispose();
  });

  it('name a watched job after a reload by the label it was shown with, before its record is read again', () => {
    const before = new ServiceStore(new FakeService(), { intervalMs: 5000 }, new FakeClock());
    before.jobsStarted('a', [started(1, 'The service was down again.'), started(2, 'My router keeps restarting.'), started(3, 'Which plan has phone support?')]);
    const watched = { id: 'c2', label: 'Support Call QA · v4', agentId: 'a', status: JobStatus.SUCCESS, watchedAt: T0 };
    const shown = before.labelOfWatched(watched);
    const after = new ServiceStore(new FakeService(), { intervalMs: 5000 }, new FakeClock());
    after.labels.restore(JSON.parse(JSON.stringify(before.labels.serialize())));
    assert.equal(after.labelOfWatched(watched), shown);
    before.dispose();
    after.dispose();
  });
});

