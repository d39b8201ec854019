import * as assert from 'node:assert/strict';
import { ServiceError, type ServiceClient } from '../../../src/core/client';
import { checkNoConflict, discardPlanned, executeTrialRemoval, findLeftovers, publishTrial, removeLeftovers, TrialConflict } from '../../../src/core/trial/trialEnd';
import { trialMarker } from '../../../src/core/trial/trialMarker';
import { newTrial, type TrialEntity, type PolicyTrialRecord } from '../../../src/core/trial/trialRecord';
import type { RemovalPlan } from '../../../src/core/trial/trialRemoval';
import { NotTried, NotYourTrial } from '../../../src/core/trial/trialOwnership';

const TRIAL = { trialId: 'trial-0000-0001', user: 'Dana' };

interface Item {
  id: string;
  name: string;
  description?: string | null;
}

/** A service with these agents and policies; it records versions made and deletes. */
const NOT_TRIED = Symbol('not tried');

function fakeService(agents: Item[], policies: Item[], currentVersionId: string | null = 'v1', tried: unknown = { rules: [] }) {
  const calls: string[] = [];
  async function* list(items: Item[]) {
    for (const item of items) yield await Promise.resolve(item);
  }
  const client = {
    agents: {
      items: () => list(agents),
      get: (id: string) => Promise.resolve(agents.find((a) => a.id === id)),
      delete: (id: string) => {
        calls.push(`delete ${id}`);
        return Promise.resolve();
      },
    },
    policies: {
      items: () => list(policies),
      get: (id: string) => Promise.resolve(policies.find((p) => p.id === id) ?? { id, name: 'real', current_version_id: currentVersionId }),
      delete: (id: string) => {
        calls.push(`delete ${id}`);
        return Promise.resolve();
      },
      createVersion: (id: string, body: unknown) => {
        calls.push(`version ${id} ${JSON.stringify(body)}`);
        return Promise.resolve({ id: 'v-new' });
      },
    },
    jobs: { list: () => Promise.resolve({ count: 0, results: [] }) },
    users: { current: () => Promise.resolve({ id: 7, display_name: 'Dana' }) },
    // This process ran the trial to its end with `tried` (undefined: it did not).
    gate: { tried: () => (tried === NOT_TRIED ? undefined : tried), madeHere: () => false },
  } as unknown as ServiceClient;
  return { client, calls };
}

function trial(extra: Partial<PolicyTrialRecord> = {}): PolicyTrialRecord {
  return { ...newTrial({ ...TRIAL, policyId: 'p-real', policyName: 'Real policy', baseVersionId: 'v1', content: { rules: [] } }), entities: [], ...extra };
}

const noSave = (): Promise<void> => Promise.resolve();

describe('Finding what crashed trials left behind', () => {
  const mark = (trialId: string, user: string) => trialMarker({ trialId, user });
  const agents = [
    { id: 'a1', name: 'mine', description: mark('trial-0000-0001', 'Dana') },
    { id: 'a2', name: 'live', description: mark('trial-0000-0002', 'Dana') },
    { id: 'a3', name: 'eve’s', description: mark('trial-0000-0003', 'Eve') },
    { id: 'a4', name: 'real', description: 'a real agent' },
  ];
  const policies = [{ id: 'p1', name: 'mine', description: mark('trial-0000-0001', 'Dana') }];

  it('finds every marked agent and policy of the organization, with its trial and user', async () => {
    const found = await findLeftovers(fakeService(agents, policies).client);
    assert.deepEqual(found.map((l) => `${l.kind}:${l.id}:${l.trialId}:${l.user}`), ['agent:a1:trial-0000-0001:Dana', 'agent:a2:trial-0000-0002:Dana', 'agent:a3:trial-0000-0003:Eve', 'policy:p1:trial-0000-0001:Dana']);
  });

  it('finds only one user’s, and never those of trials still going on', async () => {
    const found = await findLeftovers(fakeService(agents, policies).client, { user: 'Dana', keepTrialIds: ['trial-0000-0002'] });
    assert.deepEqual(found.map((l) => l.id), ['a1', 'p1']);
  });

  it('removes the leftovers the service still marks, agents first', async () => {
    const { client, calls } = fakeService(agents, policies);
    const leftovers = await findLeftovers(client, { user: 'Dana' });
    const outcome = await removeLeftovers(client, [...leftovers].reverse());
    assert.deepEqual(calls, ['delete a2', 'delete a1', 'delete p1']);
    assert.deepEqual(outcome, { removed: 3, leftAlone: [] });
  });
});

describe('Ending a trial', () => {
  it('publishes a trial once: a second publish answers the same version and makes none', async () => {
    const { client, calls } = fakeService([], []);
    const record = trial();
    assert.equal(await publishTrial(client, record, noSave, { ground: undefined }), 'v-new');
    assert.equal(record.state, 'published');
    assert.equal(await publishTrial(client, record, noSave, { ground: undefined }), 'v-new');
    assert.deepEqual(calls.filter((c) => c.startsWith('version')), ['version p-real {"content":{"rules":[]},"base_version_id":"v1"}']);
  });

  it('publishes what this process tried, not what the file says it tried', async () => {
    const { client, calls } = fakeService([], [], 'v1', { rules: ['tried'] });
    await publishTrial(client, trial({ content: { rules: ['never tried'] } }), noSave, { ground: undefined });
    assert.deepEqual(calls, ['version p-real {"content":{"rules":["tried"]},"base_version_id":"v1"}']);
  });

  it('refuses to publish a trial with no finished comparison of its own, and makes no version', async () => {
    const { client, calls } = fakeService([], [], 'v1', NOT_TRIED);
    await assert.rejects(publishTrial(client, trial(), noSave, { ground: undefined }), (error: unknown) => error instanceof NotTried && /no finished comparison of its own/.test(error.message));
    assert.deepEqual(calls, []);
  });

  it("refuses to publish another user's trial file, and makes no version", async () => {
    const { client, calls } = fakeService([], []);
    await assert.rejects(publishTrial(client, trial({ user: 'Bob' }), noSave, { ground: undefined }), (error: unknown) => error instanceof NotYourTrial && /Bob's, not yours/.test(error.message));
    assert.deepEqual(calls, []);
  });

  it('publishes a trial that has a version id but was never recorded as published', async () => {
    const { client, calls } = fakeService([], []);
    assert.equal(await publishTrial(client, trial({ state: 'ready', publishedVersionId: 'v-stale' }), noSave, { ground: undefined }), 'v-new');
    assert.equal(calls.filter((c) => c.startsWith('version')).length, 1);
  });

  it('records every settled entity as removed when nothing was refused', async () => {
    const { client } = fakeService([], []);
    const goes: TrialEntity = { kind: 'agent', name: 'goes', id: 'a1' };
    await executeTrialRemoval(client, { remove: [{ kind: 'agent', id: 'a1', name: 'goes', createdAt: null, ground: 'marked', trial: TRIAL }], leftAlone: [], settled: [goes] }, noSave);
    assert.equal(goes.removed, true);
  });

  it('publishes without a base version when the trial began from none', async () => {
    const { client, calls } = fakeService([], [], null);
    await publishTrial(client, trial({ baseVersionId: null }), noSave, { ground: undefined });
    assert.deepEqual(calls, ['version p-real {"content":{"rules":[]}}']);
  });

  it('refuses to publish when the real policy has moved on', async () => {
    const { client, calls } = fakeService([], [], 'v2');
    await assert.rejects(checkNoConflict(client, trial()), (error: unknown) => error instanceof TrialConflict && error.currentVersionId === 'v2' && error.subjectName === 'Real policy');
    await assert.rejects(publishTrial(client, trial(), noSave, { ground: undefined }), TrialConflict);
    assert.deepEqual(calls, []);
  });

  it('records as removed only the settled entities the service did not refuse, saves, and is discarded', async () => {
    const { client } = fakeService([], []);
    const kept: TrialEntity = { kind: 'policy', name: 'refused', id: 'p9' };
    const goes: TrialEntity = { kind: 'agent', name: 'goes', id: 'a1' };
    const record = trial({ entities: [goes, kept] });
    const refusing = { ...client, policies: { ...client.policies, delete: () => Promise.reject(new ServiceError({ kind: 'http', status: 409, message: 'in use', operation: 'op', method: 'DELETE', path: '/p' })) } } as unknown as ServiceClient;
    const plan: RemovalPlan = { remove: [{ kind: 'agent', id: 'a1', name: 'goes', createdAt: null, ground: 'marked', trial: TRIAL }, { kind: 'policy', id: 'p9', name: 'refused', createdAt: null, ground: 'marked', trial: TRIAL }], leftAlone: [{ kind: 'agent', name: 'other', why: 'not marked' }], settled: [goes, kept] };
    let saves = 0;
    const outcome = await executeTrialRemoval(refusing, plan, () => Promise.resolve(void saves++));
    assert.equal(goes.removed, true);
    assert.equal(kept.removed, undefined, 'a refused policy is still there');
    assert.equal(outcome.removed, 1);
    assert.deepEqual(outcome.leftAlone.map((l) => l.name), ['other', 'refused']);
    assert.equal(saves, 1);
    const discarded = await discardPlanned(client, record, { remove: [], leftAlone: [], settled: [] }, noSave);
    assert.equal(record.state, 'discarded');
    assert.deepEqual(discarded, { removed: 0, leftAlone: [] });
  });
});
