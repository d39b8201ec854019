import * as assert from 'node:assert/strict';
import type { ServiceClient } from '../../../src/core/client';
import { isWriteRefused, MADE_HERE, NEW_THING, trialCopy, type WriteGround } from '../../../src/core/writeGate/writeGate';
import { WRITE_OPERATIONS } from '../../../src/core/writeGate/writeOperations';
import { trialMarker } from '../../../src/core/trial/trialMarker';
import { signedInTrialUser } from '../../../src/core/trial/trialOwnership';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf, seedClientOf } from '../trial/trialHelpers';

const refused = (pattern: RegExp) => (error: unknown) => isWriteRefused(error) && pattern.test(error.message);

describe('the write gate (every write states why its target may be written)', function () {
  this.timeout(30_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let seed: ServiceClient;
  let versions: () => Promise<number>;
  let requests: string[];

  beforeEach(async () => {
    t = await startTestSandbox();
    requests = [];
    client = clientOf(t);
    seed = seedClientOf(t);
    // What reached the service: every write the gate let through.
    const gated = new (client.constructor as typeof ServiceClient)({ baseUrl: t.baseUrl, token: t.token, organizationId: t.orgId, writeGate: {}, onRequest: (e) => e.method !== 'GET' && requests.push(`${e.method} ${e.operation}`) });
    await client.close();
    client = gated;
    versions = async () => (await seed.agents.listVersions(DEMO_LOOP_AGENT_ID)).length;
  });
  afterEach(async () => {
    await client.close();
    await seed.close();
    await t.close();
  });

  it('refuses a write with no ground, in a sentence, and sends nothing', async () => {
    const before = await versions();
    await assert.rejects(client.agents.createVersion(DEMO_LOOP_AGENT_ID, { input_definitions: [], engine_config: {} }), refused(/^Not written: agent .* is only named by a file, a tool's input or an answer/));
    await assert.rejects(client.agents.run(DEMO_LOOP_AGENT_ID, { inputs: { transcript: 'x' } }), refused(/nothing says the user picked it/));
    await assert.rejects(client.policies.delete(DEMO_LOOP_POLICY_ID), refused(/policy/));
    assert.deepEqual(requests, []);
    assert.equal(await versions(), before);
  });

  it('logs each refusal', async () => {
    const lines: string[] = [];
    const logged = new (client.constructor as typeof ServiceClient)({ baseUrl: t.baseUrl, token: t.token, organizationId: t.orgId, writeGate: { log: (line) => lines.push(line) } });
    await assert.rejects(logged.agents.delete(DEMO_LOOP_AGENT_ID), refused(/Not written/));
    await logged.close();
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^write refused \(deleteAgent on agent .*\): /);
  });

  it('takes a pick the gate issued for that target, and only that target', async () => {
    const picked = client.gate!.userPicked({ kind: 'agent', id: DEMO_LOOP_AGENT_ID }, 'the Agents view');
    const other = (await seed.agents.list({ page_size: 5 })).results.find((a) => a.id !== DEMO_LOOP_AGENT_ID)!;
    await assert.rejects(client.agents.update(other.id, { name: 'renamed' }, { ground: picked }), refused(/the user did not pick it here/));
    const policyPick = client.gate!.userPicked({ kind: 'agent', id: DEMO_LOOP_POLICY_ID }, 'the wrong kind');
    await assert.rejects(client.policies.update(DEMO_LOOP_POLICY_ID, { name: 'x' }, { ground: policyPick }), refused(/the user did not pick it here/));
    const jobId = await client.agents.run(DEMO_LOOP_AGENT_ID, { inputs: { transcript: 'hello', language: 'en' } }, { ground: picked });
    assert.match(jobId, /\S/);
    assert.deepEqual(requests, ['POST runAgent']);
  });

  it('refuses a pick it did not issue (a ground copied from a file or a tool input)', async () => {
    const forged = { why: 'picked', how: 'the Agents view', target: { kind: 'agent', id: DEMO_LOOP_AGENT_ID } } as WriteGround;
    const fromAnotherGate = clientOf(t);
    const foreign = fromAnotherGate.gate!.userPicked({ kind: 'agent', id: DEMO_LOOP_AGENT_ID }, 'another window');
    await fromAnotherGate.close();
    await assert.rejects(client.agents.createVersion(DEMO_LOOP_AGENT_ID, { input_definitions: [], engine_config: {} }, { ground: forged }), refused(/did not pick/));
    await assert.rejects(client.agents.createVersion(DEMO_LOOP_AGENT_ID, { input_definitions: [], engine_config: {} }, { ground: foreign }), refused(/did not pick/));
    assert.deepEqual(requests, []);
  });

  it('takes "made here" only for what this client made, from the service’s answer', async () => {
    await assert.rejects(client.agents.delete(DEMO_LOOP_AGENT_ID, { ground: MADE_HERE }), refused(/this window did not make it/));
    const made = await client.agents.create({ name: 'Made here', engine_class_id: 'llm_conversation_reviewer' }, { ground: NEW_THING });
    assert.equal(client.gate!.madeHere({ kind: 'agent', id: made.id }), true);
    await client.agents.patch(made.id, { name: 'Made here, renamed' }, { ground: MADE_HERE });
    const byOther = await seed.agents.create({ name: 'Made elsewhere', engine_class_id: 'llm_conversation_reviewer' });
    await assert.rejects(client.agents.delete(byOther.id, { ground: MADE_HERE }), refused(/did not make it/));
    await client.agents.delete(made.id, { ground: MADE_HERE });
  });

  it('takes "new" only for writes that make something new', async () => {
    await assert.rejects(client.agents.createVersion(DEMO_LOOP_AGENT_ID, { input_definitions: [], engine_config: {} }, { ground: NEW_THING }), refused(/nothing says the user picked it/));
    await assert.rejects(client.policies.create({ name: 'P', content: {} }), refused(/makes something new and must say so/));
  });

  it('takes a trial copy only when the service marks it, now, as this trial’s and the signed-in user’s', async () => {
    const me = await signedInTrialUser(client);
    const mine = { trialId: 'trial-0000-0001', user: me };
    const copy = await seed.agents.create({ name: 'copy', engine_class_id: 'llm_conversation_reviewer', description: trialMarker(mine) });
    await client.agents.patch(copy.id, { name: 'copy, renamed' }, { ground: trialCopy(mine) });
    await assert.rejects(client.agents.patch(copy.id, { name: 'x' }, { ground: trialCopy({ trialId: 'trial-0000-0002', user: me }) }), refused(/does not mark it as a copy of trial trial-0000-0002/));
    const bobs = await seed.agents.create({ name: 'bob’s copy', engine_class_id: 'llm_conversation_reviewer', description: trialMarker({ trialId: 'trial-0000-0003', user: 'bob' }) });
    await assert.rejects(client.agents.delete(bobs.id, { ground: trialCopy({ trialId: 'trial-0000-0003', user: 'bob' }) }), refused(/bob's trial copy, not yours/));
    // The marker is read right before the write: one removed meanwhile no longer counts.
    await seed.agents.patch(copy.id, { description: 'taken into production by hand' });
    await assert.rejects(client.agents.delete(copy.id, { ground: trialCopy(mine) }), refused(/does not mark it/));
    await assert.rejects(client.agents.createVersion(DEMO_LOOP_AGENT_ID, { input_definitions: [], engine_config: {} }, { ground: trialCopy(mine) }), refused(/does not mark it/));
  });

  it('names what every write operation of the client writes, and refuses one it does not know', async () => {
    for (const [operation, writes] of Object.entries(WRITE_OPERATIONS)) assert.ok(['agent', 'policy', 'job', 'dataset', 'table', 'new', 'nothing'].includes(writes), operation);
    await assert.rejects(client.gate!.admit({ operation: 'someNewWrite', target: { kind: 'agent', id: 'a' }, ground: MADE_HERE }), refused(/not a write this product knows/));
  });
});
