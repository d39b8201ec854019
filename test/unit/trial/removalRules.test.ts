import * as assert from 'node:assert/strict';
import { ServiceError, type ServiceClient } from '../../../src/core/client';
import { trialMarker, trialName } from '../../../src/core/trial/trialMarker';
import { checkCandidate, describeCopy, describeLeftAlone, planLeftoverRemoval, planTrialRemoval, removeVerified, type VerifiedCopy } from '../../../src/core/trial/trialRemoval';
import { newTrial, type TrialRecord } from '../../../src/core/trial/trialRecord';

const BEGAN = new Date('2026-11-24T14:05:00Z');
const TRIAL = { trialId: 'trial-0000-0001', user: 'Dana' };
const MARK = trialMarker(TRIAL);
const COPY_NAME = trialName('Call QA', 'Dana', BEGAN);

interface Item {
  id: string;
  name: string;
  description?: string | null;
  created_at?: string;
  jobs?: number;
  versions?: (string | null)[];
}

const httpError = (status: number): ServiceError => new ServiceError({ kind: 'http', status, message: `status ${status}`, operation: 'op', method: 'GET', path: '/x' });

/** A service holding these agents and policies; it records deletes and can refuse them. */
function fakeService(agents: Item[], policies: Item[] = [], refuse: Record<string, number> = {}) {
  const deleted: string[] = [];
  const get = (items: Item[], id: string): Promise<Item> => {
    const item = items.find((i) => i.id === id);
    return item ? Promise.resolve(item) : Promise.reject(httpError(404));
  };
  async function* list(items: Item[]) {
    for (const item of items) yield await Promise.resolve(item);
  }
  const remove = (id: string): Promise<void> => {
    if (refuse[id]) return Promise.reject(httpError(refuse[id]));
    deleted.push(id);
    return Promise.resolve();
  };
  const client = {
    agents: {
      get: (id: string) => get(agents, id),
      items: () => list(agents),
      listVersions: (id: string) => Promise.resolve((agents.find((a) => a.id === id)?.versions ?? [null]).map((description, i) => ({ id: `${id}-v${i}`, description }))),
      delete: remove,
    },
    policies: { get: (id: string) => get(policies, id), items: () => list(policies), delete: remove },
    jobs: {
      list: (id: string) => {
        const agent = agents.find((a) => a.id === id);
        if (agent?.jobs === undefined) return Promise.reject(agent ? httpError(500) : httpError(404));
        return Promise.resolve({ count: agent.jobs, results: [] });
      },
    },
    users: { current: () => Promise.resolve({ id: 7, display_name: 'Dana' }) },
  } as unknown as ServiceClient;
  return { client, deleted };
}

function record(entities: TrialRecord['entities']): TrialRecord {
  const trial = newTrial({ ...TRIAL, policyId: 'p-real', policyName: 'Call QA policy', baseVersionId: null, content: {} });
  trial.createdAt = BEGAN.toISOString();
  trial.entities = entities;
  return trial;
}

const options = (extra = {}) => ({ record: { createdAt: BEGAN.toISOString(), user: 'Dana' }, expectedName: COPY_NAME, ...extra });
const unmarkedCopy = (extra: Partial<Item> = {}): Item => ({ id: 'a1', name: COPY_NAME, description: null, created_at: '2026-11-24T14:06:00Z', jobs: 0, versions: [null], ...extra });

describe('Which candidates a trial may delete', () => {
  it('deletes a copy marked with this trial and user, and no other marked one', async () => {
    const { client } = fakeService([
      { id: 'mine', name: 'x', description: `copy ${MARK}`, jobs: 3 },
      { id: 'other-user', name: 'x', description: trialMarker({ trialId: TRIAL.trialId, user: 'Eve' }), jobs: 0 },
      { id: 'other-trial', name: 'x', description: trialMarker({ trialId: 'trial-0000-0002', user: 'Dana' }), jobs: 0 },
    ]);
    const mine = (await checkCandidate(client, 'agent', 'mine', TRIAL)) as VerifiedCopy;
    assert.equal(mine.ground, 'marked');
    assert.equal(mine.jobs, 3);
    for (const id of ['other-user', 'other-trial']) {
      const answer = await checkCandidate(client, 'agent', id, TRIAL);
      assert.ok(typeof answer === 'object' && 'why' in answer, id);
      assert.match(answer.why, /marked as another trial's copy/);
    }
  });

  it('answers gone for a candidate the service no longer has, and passes on any other failure', async () => {
    const { client } = fakeService([]);
    assert.equal(await checkCandidate(client, 'agent', 'nobody', TRIAL), 'gone');
    const failing = { ...client, agents: { ...client.agents, get: () => Promise.reject(httpError(500)) } } as unknown as ServiceClient;
    await assert.rejects(checkCandidate(failing, 'agent', 'a1', TRIAL), /status 500/);
  });

  it('deletes an unmarked agent this process made, but never an unmarked policy', async () => {
    const { client } = fakeService([{ id: 'a1', name: 'anything', jobs: 5 }], [{ id: 'a1', name: 'anything' }]);
    assert.equal(((await checkCandidate(client, 'agent', 'a1', TRIAL, { madeHere: new Set(['a1']) })) as VerifiedCopy).ground, 'madeHere');
    assert.ok('why' in (await checkCandidate(client, 'policy', 'a1', TRIAL, { madeHere: new Set(['a1']) }) as object));
    const marked = fakeService([], [{ id: 'p1', name: 'p', description: MARK, created_at: '2026-11-24T14:06:00Z' }]).client;
    const policy = (await checkCandidate(marked, 'policy', 'p1', TRIAL)) as VerifiedCopy;
    assert.equal(policy.jobs, undefined, 'a policy has no jobs to count');
    assert.equal(policy.createdAt, '2026-11-24T14:06:00Z');
    assert.ok('why' in (await checkCandidate(client, 'agent', 'a1', TRIAL, { madeHere: new Set(['other']) }) as object));
  });

  it('deletes an unmarked agent with exactly the generated name, made after the trial began, with no job and one version', async () => {
    const { client } = fakeService([unmarkedCopy()]);
    assert.equal(((await checkCandidate(client, 'agent', 'a1', TRIAL, options())) as VerifiedCopy).ground, 'unmarkedCopy');
  });

  it('allows ten minutes of clock difference before the trial began, and no more', async () => {
    const early = (at: string) => fakeService([unmarkedCopy({ created_at: at })]).client;
    assert.equal(((await checkCandidate(early('2026-11-24T13:55:00Z'), 'agent', 'a1', TRIAL, options())) as VerifiedCopy).ground, 'unmarkedCopy');
    assert.ok('why' in (await checkCandidate(early('2026-11-24T13:54:59Z'), 'agent', 'a1', TRIAL, options()) as object));
    assert.ok('why' in (await checkCandidate(early('not a time'), 'agent', 'a1', TRIAL, options()) as object));
  });

  it('leaves an unmarked agent alone when anything of the rule fails', async () => {
    const cases: [string, Item, object][] = [
      ['a job', unmarkedCopy({ jobs: 1 }), options()],
      ['jobs not countable', unmarkedCopy({ jobs: undefined }), options()],
      ['two unmarked versions', unmarkedCopy({ versions: [null, 'edited'] }), options()],
      ['another name', unmarkedCopy({ name: trialName('Other', 'Dana', BEGAN) }), options()],
      ['the name without the expected one', unmarkedCopy(), { record: options().record }],
      ['the name without a record', unmarkedCopy(), { expectedName: COPY_NAME }],
      ['the bare suffix as the name', unmarkedCopy({ name: trialName('', 'Dana', BEGAN) }), options({ expectedName: trialName('', 'Dana', BEGAN) })],
      ['a record with an unreadable start', unmarkedCopy(), options({ record: { createdAt: 'garbage', user: 'Dana' } })],
      ['another user’s stamp', unmarkedCopy({ name: trialName('Call QA', 'Eve', BEGAN) }), options({ expectedName: trialName('Call QA', 'Eve', BEGAN) })],
    ];
    for (const [why, item, opts] of cases) {
      const answer = await checkCandidate(fakeService([item]).client, 'agent', 'a1', TRIAL, opts);
      assert.ok(typeof answer === 'object' && 'why' in answer, why);
      assert.equal(answer.why, 'not marked as a trial copy: left alone', why);
    }
  });

  it('counts the versions that carry this trial’s marker as the trial’s, whatever else they say', async () => {
    const { client } = fakeService([unmarkedCopy({ versions: [null, `v2 ${MARK}`, MARK] })]);
    assert.equal(((await checkCandidate(client, 'agent', 'a1', TRIAL, options())) as VerifiedCopy).ground, 'unmarkedCopy');
  });

  it('counts the jobs of an agent the service no longer has as none', async () => {
    const { client } = fakeService([{ id: 'a1', name: 'x', description: MARK }]);
    const jobsGone = { ...client, jobs: { list: () => Promise.reject(httpError(404)) } } as unknown as ServiceClient;
    assert.equal(((await checkCandidate(jobsGone, 'agent', 'a1', TRIAL)) as VerifiedCopy).jobs, 0);
    assert.equal(((await checkCandidate(client, 'agent', 'a1', TRIAL)) as VerifiedCopy).jobs, undefined);
  });
});

describe('Planning a trial’s removal', () => {
  it('reads each entity by id or, without one, every item of exactly its name; agents before policies', async () => {
    const { client } = fakeService(
      [{ id: 'a1', name: 'copy', description: MARK, jobs: 0 }, { id: 'a2', name: 'copy', description: MARK, jobs: 0 }, { id: 'a3', name: 'copy (2)', description: MARK, jobs: 0 }],
      [{ id: 'p1', name: 'policy copy', description: MARK }],
    );
    const plan = await planTrialRemoval(client, record([{ kind: 'policy', name: 'policy copy', id: 'p1' }, { kind: 'agent', name: 'copy' }]));
    assert.deepEqual(plan.remove.map((c) => c.id), ['a1', 'a2', 'p1']);
    assert.deepEqual(plan.settled.map((e) => e.name), ['copy', 'policy copy']);
  });

  it('skips entities already removed, and does not settle one with something left alone', async () => {
    const { client } = fakeService([{ id: 'a1', name: 'real', description: null, jobs: 9 }, { id: 'a2', name: 'gone already' }]);
    const plan = await planTrialRemoval(client, record([{ kind: 'agent', name: 'real', id: 'a1' }, { kind: 'agent', name: 'gone already', id: 'a2', removed: true }, { kind: 'agent', name: 'vanished', id: 'a9' }]));
    assert.deepEqual(plan.remove, []);
    assert.deepEqual(plan.leftAlone.map((l) => l.id), ['a1']);
    assert.deepEqual(plan.settled.map((e) => e.name), ['vanished']);
  });

  it('plans each leftover once, agents first, after reading it again', async () => {
    const { client } = fakeService([{ id: 'a1', name: 'x', description: MARK, jobs: 0 }], [{ id: 'p1', name: 'y', description: MARK }, { id: 'p2', name: 'z', description: null }]);
    const leftovers = [{ kind: 'policy' as const, id: 'p1', ...TRIAL }, { kind: 'agent' as const, id: 'a1', ...TRIAL }, { kind: 'agent' as const, id: 'a1', ...TRIAL }, { kind: 'policy' as const, id: 'p2', ...TRIAL }];
    const plan = await planLeftoverRemoval(client, leftovers);
    assert.deepEqual(plan.remove.map((c) => c.id), ['a1', 'p1']);
    assert.deepEqual(plan.leftAlone.map((l) => l.id), ['p2']);
  });
});

describe('Deleting verified copies', () => {
  const copy = (kind: 'agent' | 'policy', id: string): VerifiedCopy => ({ kind, id, name: id, createdAt: null, ground: 'marked' });

  it('deletes agents before policies, counting a copy already gone as removed', async () => {
    const { client, deleted } = fakeService([], [], { gone: 404 });
    const done = await removeVerified(client, [copy('policy', 'p1'), copy('agent', 'a1'), copy('agent', 'gone')]);
    assert.deepEqual(deleted, ['a1', 'p1']);
    assert.deepEqual(done, { removed: 3, refused: [] });
  });

  it('answers a policy an agent still applies as refused, and goes on', async () => {
    const { client, deleted } = fakeService([], [], { p1: 409 });
    const done = await removeVerified(client, [copy('policy', 'p1'), copy('policy', 'p2')]);
    assert.deepEqual(deleted, ['p2']);
    assert.deepEqual(done, { removed: 1, refused: [{ kind: 'policy', id: 'p1', name: 'p1', why: 'still used by an agent that is not removed: left alone' }] });
  });

  it('stops at any other failure, and at a conflict on an agent', async () => {
    await assert.rejects(removeVerified(fakeService([], [], { a1: 409 }).client, [copy('agent', 'a1')]), /status 409/);
    await assert.rejects(removeVerified(fakeService([], [], { p1: 500 }).client, [copy('policy', 'p1')]), /status 500/);
  });
});

describe('The lines of a removal confirmation', () => {
  it('name a copy with its id, when it was made and its jobs', () => {
    const agent: VerifiedCopy = { kind: 'agent', id: 'a1', name: 'Copy', createdAt: '2026-11-24T14:06:59.123Z', jobs: 1, ground: 'marked' };
    assert.equal(describeCopy(agent), 'Agent “Copy” (a1, created 2026-11-24 14:06 UTC, 1 job)');
    assert.equal(describeCopy({ ...agent, jobs: 2, createdAt: null }), 'Agent “Copy” (a1, 2 jobs)');
    assert.equal(describeCopy({ ...agent, jobs: undefined }), 'Agent “Copy” (a1, created 2026-11-24 14:06 UTC, jobs not counted)');
    assert.equal(describeCopy({ kind: 'policy', id: 'p1', name: 'P', createdAt: null, ground: 'marked' }), 'Policy “P” (p1)');
  });

  it('name what is left alone and why, with its id when known', () => {
    assert.equal(describeLeftAlone({ kind: 'agent', id: 'a1', name: 'Real', why: 'not marked' }), 'Agent “Real” (a1): not marked');
    assert.equal(describeLeftAlone({ kind: 'policy', name: 'P', why: 'gone' }), 'Policy “P”: gone');
  });
});
