import * as assert from 'node:assert/strict';
import type { ServiceClient } from '../../../src/core/client';
import { outputValue } from '../../../src/core/comparison/compare';
import { draftFromVersion, type AgentVersionDraft } from '../../../src/core/documents/agentVersionDraft';
import { Confirmations, JobBudget, callTool, toolNamed } from '../../../src/core/tools';
import { disagreements, runToEnd, trialComparison, TRIAL_TARGET_ID } from '../../../src/core/trial/trialComparison';
import { discardTrial, findLeftovers, publishTrial, TrialConflict } from '../../../src/core/trial/trialEnd';
import { readMarker } from '../../../src/core/trial/trialMarker';
import { isDraftTrial, newDraftTrial, parseTrial, serializeTrial, trialSubjectName, type DraftTrialRecord } from '../../../src/core/trial/trialRecord';
import { planTrialRemoval } from '../../../src/core/trial/trialRemoval';
import { setUpDraftTrial } from '../../../src/core/trial/trialSetup';
import { draftTrialQuestion } from '../../../src/core/trial/trialFiles';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_DISPOSITION_AFTER, DEMO_LOOP_DISPOSITION_BEFORE, DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { confirmedGrounds } from '../../../src/core/writeGate/grounds';
import { clientOf, seedClientOf, editedDemoPolicy, LOOP_CASE, runRealLoop } from './trialHelpers';
import { signedInTrialUser } from '../../../src/core/trial/trialOwnership';

const noSave = (): Promise<void> => Promise.resolve();

describe('trial of an agent version draft (against the in-process sandbox)', function () {
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

  /**
   * A draft of the loop agent's next version that applies another policy (a copy of the demo policy with
   * the loop's rule no longer a red flag): the draft flips the loop's case. The other policy is real, made
   * by the user; the trial only reads it.
   */
  async function loopDraft(): Promise<{ draft: AgentVersionDraft; policyId: string; baseVersionId: string }> {
    const edit = await editedDemoPolicy(client);
    const policy = await seedClientOf(t).policies.create({ name: 'Call rules, lenient', description: 'made by the user', content: edit.content });
    const agent = await client.agents.get(DEMO_LOOP_AGENT_ID);
    const current = await client.agents.getVersion(DEMO_LOOP_AGENT_ID, agent.current_version_id!);
    const draft = draftFromVersion(current);
    draft.engine_config = { ...draft.engine_config, policy_id: policy.id };
    return { draft, policyId: policy.id, baseVersionId: agent.current_version_id! };
  }

  async function startDraftTrial(save?: () => Promise<void>): Promise<{ trial: DraftTrialRecord; policyId: string; files: string[] }> {
    const { draft, policyId, baseVersionId } = await loopDraft();
    const agent = await client.agents.get(DEMO_LOOP_AGENT_ID);
    const trial = newDraftTrial({ trialId: `draft-${++n}-0000`, user: ME, agentId: agent.id, agentName: agent.name, baseVersionId, draft });
    const files: string[] = [];
    await setUpDraftTrial(client, trial, agent, save ?? (() => Promise.resolve(void files.push(serializeTrial(trial)))));
    return { trial, policyId, files };
  }

  const runReal = (): Promise<string | null> => runRealLoop(client);
  /** The user's confirmation of running the real agent (the baseline of a trial's comparison). */
  const confirmedReal = () => confirmedGrounds(client.gate, [{ kind: 'agent', id: DEMO_LOOP_AGENT_ID }], 'a test');
  /** The user's confirmation of publishing to production. */
  const publishConfirmed = () => client.gate!.userPicked({ kind: 'agent', id: DEMO_LOOP_AGENT_ID }, 'a test');
  /** The trial's comparison of the loop case, run to its end (what a publish needs first). */
  const runTrial = async (trial: DraftTrialRecord): Promise<void> => {
    const entity = trial.entities.find((e) => e.kind === 'agent')!;
    await runToEnd(trialComparison(trial, entity, [LOOP_CASE], 'loop.testset.jsonl'), client, noSave, { pollMs: 50, grounds: confirmedReal() });
  };

  const exists = (id: string): Promise<boolean> => client.agents.get(id).then(() => true, () => false);

  it('runs the draft on a marked copy of the agent: the case flips on the copy while the real agent keeps its verdict', async () => {
    const { trial, policyId, files } = await startDraftTrial();
    assert.equal(trial.state, 'ready');
    assert.deepEqual(trial.entities.map((e) => e.kind), ['agent'], 'a draft trial makes one agent copy and no policy');
    const entity = trial.entities[0]!;
    assert.match(entity.name, new RegExp(`^Support Call QA · trial \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d · ${ME}$`));
    const copy = await client.agents.get(entity.id!);
    assert.deepEqual(readMarker(copy.description), { trialId: trial.trialId, user: ME });
    const version = await client.agents.getVersion(entity.id!, entity.trialVersionId!);
    assert.equal((version.engine_config as Record<string, string>).policy_id, policyId, 'the copy runs the draft');
    assert.equal(copy.current_version_id, entity.trialVersionId);
    assert.equal(parseTrial(files[0]!).entities[0]?.id, undefined, 'the copy is in the file before it exists');

    const record = trialComparison(trial, entity, [LOOP_CASE], 'loop.testset.jsonl');
    assert.match(record.title, /^Support Call QA: trial of a draft version$/);
    await runToEnd(record, client, noSave, { pollMs: 50, grounds: confirmedReal() });
    assert.equal(outputValue(record.cases[0]!.runs.now, 'disposition'), DEMO_LOOP_DISPOSITION_BEFORE);
    assert.equal(outputValue(record.cases[0]!.runs[TRIAL_TARGET_ID], 'disposition'), DEMO_LOOP_DISPOSITION_AFTER);
    assert.deepEqual(disagreements(record), []);
    assert.equal(await runReal(), DEMO_LOOP_DISPOSITION_BEFORE, 'production still runs its current version');
  });

  it('publishes the draft as exactly one new version of the real agent, and removes the copy', async () => {
    const { trial, policyId } = await startDraftTrial();
    await runTrial(trial);
    const before = (await client.agents.listVersions(DEMO_LOOP_AGENT_ID)).length;
    const versionId = await publishTrial(client, trial, noSave, { ground: publishConfirmed() });
    assert.equal((await client.agents.listVersions(DEMO_LOOP_AGENT_ID)).length, before + 1);
    const agent = await client.agents.get(DEMO_LOOP_AGENT_ID);
    assert.equal(agent.current_version_id, versionId);
    const published = await client.agents.getVersion(DEMO_LOOP_AGENT_ID, versionId);
    assert.equal((published.engine_config as Record<string, string>).policy_id, policyId);
    assert.equal(published.version_name, (trial.content as AgentVersionDraft).version_name);
    assert.equal(await exists(trial.entities[0]!.id!), false, 'the copy is gone');
    assert.ok(await client.policies.get(policyId), 'the policy the draft applies is the user’s and stays');
    assert.equal(trial.state, 'published');
    assert.equal(await publishTrial(client, trial, noSave, { ground: publishConfirmed() }), versionId, 'publishing again makes nothing more');
    assert.equal((await client.agents.listVersions(DEMO_LOOP_AGENT_ID)).length, before + 1);
    assert.equal(await runReal(), DEMO_LOOP_DISPOSITION_AFTER, 'the real agent now runs the draft');
  });

  it('discards: the copy is gone and the real agent keeps its current version', async () => {
    const { trial } = await startDraftTrial();
    const before = (await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id;
    const outcome = await discardTrial(client, trial, noSave);
    assert.deepEqual(outcome, { removed: 1, leftAlone: [] });
    assert.equal(await exists(trial.entities[0]!.id!), false);
    assert.equal((await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id, before);
    assert.ok(await exists(DEMO_LOOP_AGENT_ID));
    assert.deepEqual(await findLeftovers(client, { user: ME }), []);
  });

  it('refuses to publish over a version made since the trial began, and makes no version', async () => {
    const { trial } = await startDraftTrial();
    const current = await client.agents.getVersion(DEMO_LOOP_AGENT_ID, (await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id!);
    const other = await seedClientOf(t).agents.createVersion(DEMO_LOOP_AGENT_ID, { ...draftFromVersion(current), version_name: 'someone else’s' });
    const count = (await client.agents.listVersions(DEMO_LOOP_AGENT_ID)).length;
    await assert.rejects(publishTrial(client, trial, noSave, { ground: publishConfirmed() }), (error: unknown) => error instanceof TrialConflict && /Support Call QA changed since the trial began.*draft/.test(error.message));
    assert.equal((await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id, other.id);
    assert.equal((await client.agents.listVersions(DEMO_LOOP_AGENT_ID)).length, count);
    assert.ok(await exists(trial.entities[0]!.id!), 'a refused publish removes nothing: the trial can still be discarded');
  });

  it('leaves the real agent alone when a draft trial file names it as its copy', async () => {
    const { trial } = await startDraftTrial();
    const crafted = parseTrial(serializeTrial({ ...trial, entities: [...trial.entities, { kind: 'agent', name: 'Support Call QA', id: DEMO_LOOP_AGENT_ID, sourceAgentId: DEMO_LOOP_AGENT_ID }] }));
    const plan = await planTrialRemoval(client, crafted);
    assert.deepEqual(plan.remove.map((c) => c.id), [trial.entities[0]!.id]);
    assert.deepEqual(plan.leftAlone.map((l) => l.id), [DEMO_LOOP_AGENT_ID]);
    await discardTrial(client, crafted, noSave);
    assert.ok(await exists(DEMO_LOOP_AGENT_ID), 'the real agent is still there');
    assert.ok(await client.policies.get(DEMO_LOOP_POLICY_ID));
  });
});

describe('the draft trial file', () => {
  const draft: AgentVersionDraft = { version_name: 'v3', input_definitions: [{ key: 'transcript', data_type: 'text/plain' }], engine_config: { model: 'o3-mini', policy_id: 'p-1' } };
  const record = newDraftTrial({ trialId: 'draft-0000-0001', user: 'Ana', agentId: 'a-1', agentName: 'Support Call QA', baseVersionId: 'v-2', draft, now: new Date('2026-11-27T10:00:00Z') });

  it('reads back what it wrote, as a draft trial named by its agent', () => {
    const back = parseTrial(serializeTrial(record));
    assert.deepEqual(back, record);
    assert.ok(isDraftTrial(back));
    assert.equal(trialSubjectName(back), 'Support Call QA');
  });

  it('checks the draft with the draft schema, naming the field', () => {
    const bad = { ...record, content: { ...draft, engine_config: { model: 3 } } };
    assert.throws(() => parseTrial(JSON.stringify(bad)), /This is not a trial file: content\.engine_config\.model/);
    const noAgent = { ...record, agentId: '' };
    assert.throws(() => parseTrial(JSON.stringify(noAgent)), /agentId/);
  });

  it('is not read as a policy trial once its subject is taken away', () => {
    const asPolicy = { ...record, subject: undefined };
    assert.throws(() => parseTrial(JSON.stringify(asPolicy)), /policyId/);
  });

  it('is summarized by read_result_file, and refused by publish_policy_edit with a sentence', async () => {
    const fs = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'draft-trial-'));
    try {
      await fs.writeFile(path.join(root, 'loop.trial.json'), serializeTrial(record));
      const ctx = { root, client: {} as ServiceClient, budget: new JobBudget(() => ({ perMinute: 10, perSession: 10, raise: { perMinute: '-', perSession: '-' } })), signal: new AbortController().signal, user: 'Ana' };
      const read = await callTool(toolNamed('read_result_file')!, { path: 'loop.trial.json' }, ctx);
      assert.equal(read.isError, false);
      assert.match(read.text, /^Trial of a draft version of the agent Support Call QA \(a-1\) by Ana: started and not finished: still running, or interrupted while its copies were made/);
      assert.equal((read.data as { subject?: string }).subject, 'agent_version_draft');
      const publish = await new Confirmations().call(toolNamed('publish_policy_edit')!, { trial_file: 'loop.trial.json' }, ctx);
      assert.equal(publish.isError, true);
      assert.match(publish.text, /a trial of a draft version of the agent Support Call QA, not of a policy edit: publish it with publish_agent_draft\. Nothing was changed/);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});

describe('the question before a draft trial', () => {
  it('says what runs on the copy, what it costs, and that the agent keeps its version until published', () => {
    const now = draftTrialQuestion({ agentName: 'Support Call QA', versionName: 'v3', testSet: 'qa.testset.jsonl', cases: 1, estimate: { jobs: 2 }, baseline: 'now' });
    assert.equal(now.message, 'Try this draft (“v3”) of “Support Call QA” on qa.testset.jsonl? It runs on a copy: the agent keeps its current version until you publish.');
    assert.match(now.detail, /the draft and the current version of Support Call QA each run the 1 case:/);
    assert.equal(now.button, 'Start 2 Jobs');
    const before = draftTrialQuestion({ agentName: 'A', testSet: 't.csv', cases: 3, estimate: { jobs: 3 }, baseline: 'before' });
    assert.match(before.message, /^Try this draft of “A” on t\.csv\?/);
    assert.match(before.detail, /the draft runs the 3 cases and is compared with the results before \(read, not run\)/);
    assert.equal(draftTrialQuestion({ agentName: 'A', testSet: 't.csv', cases: 1, estimate: { jobs: 1 }, baseline: 'before' }).button, 'Start 1 Job');
  });
});
