import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { BaseAgent, Policy, ServiceClient } from '../../../src/core/client';
import { discardTrial, findLeftovers, removeLeftovers } from '../../../src/core/trial/trialEnd';
import { newTrial, parseTrial, serializeTrial, type TrialEntity, type TrialRecord } from '../../../src/core/trial/trialRecord';
import { describeCopy, planTrialRemoval } from '../../../src/core/trial/trialRemoval';
import { agentsApplying, setUpTrial } from '../../../src/core/trial/trialSetup';
import { DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf, seedClientOf, editedDemoPolicy } from './trialHelpers';
import { NotYourTrial, signedInTrialUser } from '../../../src/core/trial/trialOwnership';

const noSave = (): Promise<void> => Promise.resolve();

/** What the organization holds, by id, with each agent's job count: the figures an attack must not move. */
async function census(client: ServiceClient): Promise<{ agents: Map<string, number>; policies: Set<string> }> {
  const agents = new Map<string, number>();
  for await (const agent of client.agents.items({ include_job_stats: false })) agents.set(agent.id, (await client.jobs.list(agent.id, { page_size: 1 })).count);
  const policies = new Set<string>();
  for await (const policy of client.policies.items({})) policies.add(policy.id);
  return { agents, policies };
}

async function realAgent(client: ServiceClient, name: string): Promise<BaseAgent> {
  for await (const agent of client.agents.items({ search: name, include_job_stats: false })) if (agent.name === name) return agent;
  throw new Error(`no agent ${name}`);
}

async function realPolicy(client: ServiceClient, name: string): Promise<Policy> {
  for await (const policy of client.policies.items({ search: name })) if (policy.name === name) return policy;
  throw new Error(`no policy ${name}`);
}

/** A trial file as an attacker would commit it: ready, with the entities given. */
function craftedTrial(user: string, entities: TrialEntity[], trialId = 'crafted-0000-0001'): TrialRecord {
  const record = newTrial({ trialId, user, policyId: DEMO_LOOP_POLICY_ID, policyName: 'Customer Call Quality Standard', baseVersionId: null, content: {} });
  record.entities = entities;
  record.state = 'ready';
  // Read back as a file would be: nothing the schema would refuse.
  return parseTrial(serializeTrial(record));
}

describe('ending a trial deletes only what the service marks as that trial’s copy', function () {
  this.timeout(120_000);
  let t: TestSandbox;
  let client: ServiceClient;
  /** The signed-in user's trial name: trials are theirs. */
  let ME: string;
  beforeEach(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
    ME = await signedInTrialUser(client);
  });
  afterEach(async () => {
    await client.close();
    await t.close();
  });

  it('a crafted file naming real agents and a real policy by id and by name deletes none of them, and says what it left alone', async () => {
    const contract = await realAgent(client, 'Contract Type Classifier');
    const playbook = await realPolicy(client, 'Social Media Escalation Playbook');
    const before = await census(client);
    const record = craftedTrial('Dana Whitfield', [
      { kind: 'agent', name: 'anything', id: contract.id },
      { kind: 'agent', name: 'Chat Escalation Detector' },
      { kind: 'policy', name: 'anything', id: playbook.id },
    ]);
    const outcome = await discardTrial(client, record, noSave);
    assert.equal(outcome.removed, 0);
    assert.deepEqual(outcome.leftAlone.map((l) => [l.kind, l.name]).sort(), [['agent', 'Chat Escalation Detector'], ['agent', 'Contract Type Classifier'], ['policy', 'Social Media Escalation Playbook']]);
    assert.ok(outcome.leftAlone.every((l) => /not marked as a trial copy/.test(l.why)));
    assert.deepEqual(await census(client), before, 'every real agent, its jobs and every real policy are still there');
  });

  it('a crafted file naming a real agent’s id is discarded without deleting the agent or its jobs; one of another user is not the user’s trial at all', async () => {
    const invoice = await realAgent(client, 'Invoice Classifier');
    const before = await census(client);
    const outcome = await discardTrial(client, craftedTrial(ME, [{ kind: 'agent', name: invoice.name, id: invoice.id }]), noSave);
    assert.deepEqual([outcome.removed, outcome.leftAlone.map((l) => l.id)], [0, [invoice.id]]);
    await assert.rejects(discardTrial(client, craftedTrial('someone', [{ kind: 'agent', name: invoice.name, id: invoice.id }]), noSave), NotYourTrial);
    assert.deepEqual(await census(client), before);
  });

  it('a file naming another trial’s marked copy leaves it alone: the marker must name this trial and its user', async () => {
    const edit = await editedDemoPolicy(client);
    const real = newTrial({ trialId: 'real-trial-0001', user: ME, policyId: DEMO_LOOP_POLICY_ID, policyName: edit.name, baseVersionId: edit.baseVersionId, content: edit.content });
    await setUpTrial(client, real, await agentsApplying(client, DEMO_LOOP_POLICY_ID), noSave);
    const copies = real.entities.map((e) => ({ ...e }));
    await assert.rejects(discardTrial(client, craftedTrial('Bob', copies, real.trialId), noSave), (error: unknown) => error instanceof NotYourTrial && /Bob's, not yours/.test(error.message));
    const otherTrial = await discardTrial(client, craftedTrial(ME, copies, 'another-trial-01'), noSave);
    assert.equal(otherTrial.removed, 0);
    assert.ok(otherTrial.leftAlone.every((l) => /another trial's copy/.test(l.why)));
    assert.deepEqual((await discardTrial(client, real, noSave)).removed, 2, 'the trial itself still removes its own copies');
  });

  it('an unmarked copy made by this process is removed; the same copy named only by a file, with a job, is left for the user', async () => {
    const edit = await editedDemoPolicy(client);
    const record = newTrial({ trialId: 'gap-trial-0001', user: ME, policyId: DEMO_LOOP_POLICY_ID, policyName: edit.name, baseVersionId: edit.baseVersionId, content: edit.content });
    const made = new Set<string>();
    let saves = 0;
    // Killed after the duplicate's id reached the file, before its marker was written.
    const crash = (): Promise<void> => (++saves === 4 ? Promise.reject(new Error('killed')) : Promise.resolve());
    await assert.rejects(setUpTrial(client, record, await agentsApplying(client, DEMO_LOOP_POLICY_ID), crash, made), /killed/);
    const agent = record.entities.find((e) => e.kind === 'agent')!;
    assert.ok(agent.id && made.has(agent.id));
    // The marker goes with the rename right after the duplicate: a copy whose rename failed is unmarked.
    await seedClientOf(t).agents.patch(agent.id, { description: '' });
    await seedClientOf(t).agents.run(agent.id, { inputs: { transcript: 'hello', language: 'en' } });
    const fromFile = parseTrial(serializeTrial(record));
    // Another process (a window that did not make the copy) has only the file.
    const another = clientOf(t);
    const plan = await planTrialRemoval(another, fromFile);
    await another.close();
    assert.deepEqual(plan.leftAlone.map((l) => l.id), [agent.id], 'a file alone cannot have an unmarked agent with a job deleted');
    const outcome = await discardTrial(client, parseTrial(serializeTrial(record)), noSave, made);
    assert.deepEqual([outcome.removed, outcome.leftAlone], [2, []]);
  });

  it('an unmarked agent whose name is not the trial’s generated name is never a copy, even when new and empty', async () => {
    const made = await seedClientOf(t).agents.create({ name: `Support Call QA · trial 2020-01-01 00:00 · ${ME}`, engine_class_id: 'llm_conversation_reviewer' });
    const record = craftedTrial(ME, [{ kind: 'agent', name: made.name }]);
    const outcome = await discardTrial(client, record, noSave);
    assert.equal(outcome.removed, 0, 'its stamp is not this trial’s start');
    assert.ok(await client.agents.get(made.id));
  });

  it('a leftover whose marker is gone by the time it is removed is left alone', async () => {
    const edit = await editedDemoPolicy(client);
    const record = newTrial({ trialId: 'leftover-0001', user: ME, policyId: DEMO_LOOP_POLICY_ID, policyName: edit.name, baseVersionId: edit.baseVersionId, content: edit.content });
    await setUpTrial(client, record, await agentsApplying(client, DEMO_LOOP_POLICY_ID), noSave);
    const found = await findLeftovers(client, { user: ME });
    const agent = found.find((l) => l.kind === 'agent')!;
    await seedClientOf(t).agents.update(agent.id, { description: 'taken into production by hand' });
    const outcome = await removeLeftovers(client, found);
    // The trial policy stays too: the agent left alone still applies it, so the service refuses to delete it.
    assert.equal(outcome.removed, 0);
    assert.deepEqual(outcome.leftAlone.map((l) => [l.id, /not marked|still used/.test(l.why)]), [[agent.id, true], [found.find((l) => l.kind === 'policy')!.id, true]]);
    assert.ok(await client.agents.get(agent.id));
  });

  it('the confirmation names each copy with its id, when it was made and its jobs', () => {
    assert.equal(describeCopy({ kind: 'agent', id: 'a1', name: 'X · trial', createdAt: '2026-11-27T06:00:12Z', jobs: 3, ground: 'marked' }), 'Agent “X · trial” (a1, created 2026-11-27 06:00 UTC, 3 jobs)');
    assert.equal(describeCopy({ kind: 'policy', id: 'p1', name: 'P', createdAt: null, ground: 'marked' }), 'Policy “P” (p1)');
  });

  it('random trial files never delete an unmarked entity, and always delete the marked copies of their trial', async () => {
    const edit = await editedDemoPolicy(client);
    const real = newTrial({ trialId: 'property-0001', user: ME, policyId: DEMO_LOOP_POLICY_ID, policyName: edit.name, baseVersionId: edit.baseVersionId, content: edit.content });
    await setUpTrial(client, real, await agentsApplying(client, DEMO_LOOP_POLICY_ID), noSave);
    const realAgents: BaseAgent[] = [];
    for await (const a of client.agents.items({ include_job_stats: false })) if (!a.description?.includes('agent-workbench-trial:')) realAgents.push(a);
    const realPolicies: Policy[] = [];
    for await (const p of client.policies.items({})) if (!p.description?.includes('agent-workbench-trial:')) realPolicies.push(p);
    const decoys: TrialEntity[] = [
      ...realAgents.flatMap((a): TrialEntity[] => [{ kind: 'agent', name: a.name, id: a.id }, { kind: 'agent', name: a.name }]),
      ...realPolicies.flatMap((p): TrialEntity[] => [{ kind: 'policy', name: p.name, id: p.id }, { kind: 'policy', name: p.name }]),
    ];
    const copies = real.entities.map((e) => ({ ...e }));
    const before = await census(client);
    await fc.assert(
      fc.asyncProperty(fc.subarray(decoys), fc.subarray(copies.map((_, i) => i)), fc.constantFrom(ME, 'Bob'), fc.boolean(), async (chosen, copyIndexes, user, withoutIds) => {
        const named = copyIndexes.map((i) => ({ ...copies[i]!, ...(withoutIds ? { id: undefined } : {}) }));
        const crafted = craftedTrial(user, [...chosen, ...named], real.trialId);
        if (user !== ME) {
          await assert.rejects(planTrialRemoval(client, crafted), NotYourTrial);
          return;
        }
        const plan = await planTrialRemoval(client, crafted);
        const unmarked = new Set([...before.agents.keys(), ...before.policies].filter((id) => !copies.some((c) => c.id === id)));
        assert.ok(plan.remove.every((c) => !unmarked.has(c.id)), 'nothing unmarked is planned for removal');
        const expected = user === ME ? named.map((c) => copies.find((x) => x.name === c.name)!.id).sort() : [];
        assert.deepEqual(plan.remove.map((c) => c.id).sort(), expected);
      }),
      { numRuns: 40 },
    );
    // Planning only reads: after 40 plans over real names and ids, the organization is as it was.
    assert.deepEqual(await census(client), before);
  });
});
