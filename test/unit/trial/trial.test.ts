import * as assert from 'node:assert/strict';
import type { ServiceClient } from '../../../src/core/client';
import { outputValue } from '../../../src/core/comparison/compare';
import { discardTrial, findLeftovers, publishTrial, removeLeftovers, removeTrialEntities, TrialConflict } from '../../../src/core/trial/trialEnd';
import { disagreements, runToEnd, trialComparison, TRIAL_TARGET_ID } from '../../../src/core/trial/trialComparison';
import { newTrial, parseTrial, serializeTrial, type TrialRecord } from '../../../src/core/trial/trialRecord';
import { agentsApplying, setUpTrial } from '../../../src/core/trial/trialSetup';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_DISPOSITION_AFTER, DEMO_LOOP_DISPOSITION_BEFORE, DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { confirmedGrounds } from '../../../src/core/writeGate/grounds';
import { clientOf, seedClientOf, editedDemoPolicy, LOOP_CASE, runRealLoop } from './trialHelpers';
import { signedInTrialUser } from '../../../src/core/trial/trialOwnership';

/** A save that keeps nothing (what is saved is not under test here). */
const noSave = (): Promise<void> => Promise.resolve();

describe('trial of a policy edit (against the in-process sandbox)', function () {
  this.timeout(60_000);
  let t: TestSandbox;
  let client: ServiceClient;
  /** The signed-in user's trial name: trials are theirs. */
  let ME: string;
  let n = 0;
  beforeEach(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
    ME = await signedInTrialUser(client);
  });
  afterEach(async () => {
    await client.close();
    await t.close();
  });

  /** A trial of the demo edit, set up; `saves` counts the writes of its file (each a copy, as a file would hold). */
  async function startDemoTrial(save?: () => Promise<void>): Promise<{ trial: TrialRecord; files: string[] }> {
    const edit = await editedDemoPolicy(client);
    const trial = newTrial({ trialId: `trial-${++n}-0000`, user: ME, policyId: DEMO_LOOP_POLICY_ID, policyName: edit.name, baseVersionId: edit.baseVersionId, content: edit.content });
    const files: string[] = [];
    const agents = await agentsApplying(client, DEMO_LOOP_POLICY_ID);
    await setUpTrial(client, trial, agents, save ?? (() => Promise.resolve(void files.push(serializeTrial(trial)))));
    return { trial, files };
  }

  const runReal = (): Promise<string | null> => runRealLoop(client);
  /** The user's confirmation of running the real agent (the baseline of a trial's comparison). */
  const confirmedReal = () => confirmedGrounds(client.gate, [{ kind: 'agent', id: DEMO_LOOP_AGENT_ID }], 'a test');
  /** The user's confirmation of publishing to production. */
  const publishConfirmed = () => client.gate!.userPicked({ kind: 'policy', id: DEMO_LOOP_POLICY_ID }, 'a test');
  /** The trial's comparison of the loop case, run to its end (what a publish needs first). */
  const runTrial = async (trial: TrialRecord): Promise<void> => {
    const entity = trial.entities.find((e) => e.kind === 'agent')!;
    await runToEnd(trialComparison(trial, entity, [LOOP_CASE], 'loop.testset.jsonl'), client, noSave, { pollMs: 50, grounds: confirmedReal() });
  };

  const stillThere = async (trial: TrialRecord): Promise<string[]> => {
    const ids: string[] = [];
    for (const e of trial.entities) {
      const found = e.kind === 'agent' ? await client.agents.get(e.id!).then(() => true, () => false) : await client.policies.get(e.id!).then(() => true, () => false);
      if (found) ids.push(e.id!);
    }
    return ids;
  };

  it('runs the edit on a copy: the trial flips the case while the real agent still gives the old verdict', async () => {
    const { trial } = await startDemoTrial();
    assert.equal(trial.state, 'ready');
    const agentEntity = trial.entities.find((e) => e.kind === 'agent' && e.sourceAgentId === DEMO_LOOP_AGENT_ID)!;
    assert.match(agentEntity.name, new RegExp(`^Support Call QA · trial \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d · ${ME}$`));
    const record = trialComparison(trial, agentEntity, [LOOP_CASE], 'loop.testset.jsonl');
    await runToEnd(record, client, noSave, { pollMs: 50, grounds: confirmedReal() });
    assert.equal(outputValue(record.cases[0]!.runs.now, 'disposition'), DEMO_LOOP_DISPOSITION_BEFORE);
    assert.equal(outputValue(record.cases[0]!.runs[TRIAL_TARGET_ID], 'disposition'), DEMO_LOOP_DISPOSITION_AFTER);
    assert.deepEqual(disagreements(record), []);
    assert.equal(await runReal(), DEMO_LOOP_DISPOSITION_BEFORE, 'production still judges by the old policy');
  });

  it('writes every entity in the trial file before asking the service to create it', async () => {
    const files: TrialRecord[] = [];
    const edit = await editedDemoPolicy(client);
    const trial = newTrial({ trialId: 'recorded-0001', user: ME, policyId: DEMO_LOOP_POLICY_ID, policyName: edit.name, baseVersionId: edit.baseVersionId, content: edit.content });
    await setUpTrial(client, trial, await agentsApplying(client, DEMO_LOOP_POLICY_ID), () => Promise.resolve(void files.push(parseTrial(serializeTrial(trial)))));
    const firstWith = (kind: string): TrialRecord['entities'][number] | undefined => files.map((f) => f.entities.find((e) => e.kind === kind)).find((e) => e !== undefined);
    assert.equal(firstWith('policy')?.id, undefined, 'the policy is in the file before it exists');
    assert.equal(firstWith('agent')?.id, undefined, 'the agent is in the file before it exists');
    assert.ok(trial.entities.every((e) => e.id), 'every entity got its id');
  });

  it('publishes exactly one version of the real policy, and removes the trial’s agents and policy', async () => {
    const { trial } = await startDemoTrial();
    await runTrial(trial);
    const versionsBefore = (await client.policies.listVersions(DEMO_LOOP_POLICY_ID)).count;
    const versionId = await publishTrial(client, trial, noSave, { ground: publishConfirmed() });
    assert.equal((await client.policies.listVersions(DEMO_LOOP_POLICY_ID)).count, versionsBefore + 1);
    assert.equal((await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id, versionId);
    assert.deepEqual(await stillThere(trial), []);
    assert.equal(await runReal(), DEMO_LOOP_DISPOSITION_AFTER, 'the real agent now gives the new verdict');
  });

  it('discards: the trial’s entities are gone and the real policy keeps its version', async () => {
    const { trial } = await startDemoTrial();
    const before = (await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id;
    await discardTrial(client, trial, noSave);
    assert.deepEqual(await stillThere(trial), []);
    assert.equal((await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id, before);
    assert.equal(trial.state, 'discarded');
  });

  it('refuses to publish over a version saved since the trial began, and publishes nothing', async () => {
    const { trial } = await startDemoTrial();
    const other = await seedClientOf(t).policies.createVersion(DEMO_LOOP_POLICY_ID, { content: (await editedDemoPolicy(client)).content });
    await assert.rejects(publishTrial(client, trial, noSave, { ground: publishConfirmed() }), TrialConflict);
    assert.equal((await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id, other.id);
  });

  it('finds what a crash left behind by its marker, and removes only the user’s own', async () => {
    let saves = 0;
    // The process dies after the trial agent was made, named and marked (one step: duplicate, then
    // PATCH) and before its id reached the file: both are found by their markers.
    const crash = (): Promise<void> => (++saves === 4 ? Promise.reject(new Error('killed')) : Promise.resolve());
    await assert.rejects(startDemoTrial(crash), /killed/);
    const mine = await findLeftovers(client, { user: ME });
    assert.deepEqual(mine.map((l) => l.kind).sort(), ['agent', 'policy'], 'the trial policy and agent are found by their markers');
    assert.deepEqual(await findLeftovers(client, { user: 'Someone else' }), []);
    await removeLeftovers(client, mine);
    assert.deepEqual(await findLeftovers(client, {}), []);
  });

  it('cleans up an interrupted trial from its file, finding an agent whose id was never recorded by its name', async () => {
    const files: string[] = [];
    const edit = await editedDemoPolicy(client);
    const trialRef = newTrial({ trialId: 'interrupted-0001', user: ME, policyId: DEMO_LOOP_POLICY_ID, policyName: edit.name, baseVersionId: edit.baseVersionId, content: edit.content });
    // The process dies right after the service made the trial agent, before its id reached the file.
    const save = (): Promise<void> => {
      if (files.length === 3) return Promise.reject(new Error('killed'));
      files.push(serializeTrial(trialRef));
      return Promise.resolve();
    };
    await assert.rejects(setUpTrial(client, trialRef, await agentsApplying(client, DEMO_LOOP_POLICY_ID), save), /killed/);
    const fromFile = parseTrial(files.at(-1)!);
    const unrecorded = fromFile.entities.filter((e) => e.kind === 'agent' && !e.id);
    assert.equal(unrecorded.length, 1, 'the agent was asked for but its id was lost');
    // No process recorded the agent's id: it goes because its name is the trial's generated one, it is
    // newer than the trial and it has no job (the unmarked-copy rule of trialRemoval.ts).
    const outcome = await removeTrialEntities(client, fromFile, noSave);
    assert.deepEqual(outcome, { removed: 2, leftAlone: [] });
    const names = fromFile.entities.map((e) => e.name);
    const agentsLeft = [];
    for await (const a of client.agents.items({ include_job_stats: false })) if (names.includes(a.name)) agentsLeft.push(a.name);
    assert.deepEqual(agentsLeft, []);
  });
});
