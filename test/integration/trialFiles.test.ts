// A trial file names; the service decides. Trial files written by someone else (a crafted file in a
// repository, another user's file) drive the trial commands in a real extension host: Resume makes fresh
// copies and writes nothing to the real agents or policy the file names, Discard removes only what the
// service marks as the trial's copies, another user's file is "not a trial of yours" with nothing touched,
// and Publish refuses content that was never tried.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ServiceClient } from '../../src/core/client';
import { newComparison } from '../../src/core/comparison/comparisonRecord';
import { testCaseLine } from '../../src/core/comparison/testSet';
import { draftFromVersion } from '../../src/core/documents/agentVersionDraft';
import { findLeftovers } from '../../src/core/trial/trialEnd';
import { comparisonOfTrialFile } from '../../src/core/trial/trialFiles';
import { trialName, trialUserName } from '../../src/core/trial/trialMarker';
import { newDraftTrial, newTrial, parseTrial, serializeTrial, type TrialEntity, type TrialRecord } from '../../src/core/trial/trialRecord';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_AGENT_NAME, DEMO_LOOP_POLICY_ID, DEMO_LOOP_POLICY_NAME } from '../../src/sandbox/seed/demoLoop';
import type { AgentWorkbenchApi } from '../../src/extension/extension';
import type { PublishResult } from '../../src/extension/trials/trialEnding';
import { editedDemoPolicy, LOOP_CASE } from '../unit/trial/trialHelpers';
import { closeAllEditors, connect, startSandbox, workbench, type TestSandbox } from './support/workbench';

const PUBLISH = 'agentWorkbench.trials.publish';
const DISCARD = 'agentWorkbench.trials.discard';
const CLEAN_UP = 'agentWorkbench.trials.cleanUp';

describe('A trial file names; the service decides', function () {
  this.timeout(180_000);
  let sandbox: TestSandbox;
  let api: AgentWorkbenchApi;
  let seed: ServiceClient;
  let folder: vscode.Uri;
  let user: string;

  before(async () => {
    api = await workbench();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(root, 'the test workspace has a folder');
    folder = vscode.Uri.joinPath(root, 'trial-files-test');
  });

  beforeEach(async () => {
    sandbox = await startSandbox();
    await connect(sandbox);
    seed = sandbox.client();
    user = trialUserName(await seed.users.current());
    await vscode.workspace.fs.createDirectory(folder);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, 'loop.testset.jsonl'), new TextEncoder().encode(`// agent: ${DEMO_LOOP_AGENT_ID} · ${DEMO_LOOP_AGENT_NAME}\n${testCaseLine(LOOP_CASE)}\n`));
  });

  afterEach(async () => {
    api.prompts.modal = undefined;
    api.prompts.start = undefined;
    api.prompts.policySave = undefined;
    await closeAllEditors();
    await vscode.workspace.fs.delete(folder, { recursive: true });
    await sandbox.stop();
  });

  const byName = async (name: string): Promise<string> => {
    for await (const a of seed.agents.items({ search: name, include_job_stats: false })) if (a.name === name) return a.id;
    throw new Error(name);
  };
  /** What a real agent is: its versions, its current one, its jobs. */
  const agentState = async (id: string) => ({ versions: (await seed.agents.listVersions(id)).length, current: (await seed.agents.get(id)).current_version_id, jobs: (await seed.jobs.list(id, { page_size: 1 })).count });
  const policyState = async () => ({ versions: (await seed.policies.listVersions(DEMO_LOOP_POLICY_ID)).count, current: (await seed.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id });

  /** Writes a record as a trial file of the folder (and, with `comparison`, a comparison beside it), exactly as given. */
  async function writeTrial(name: string, record: TrialRecord, comparison = false): Promise<vscode.Uri> {
    const uri = vscode.Uri.joinPath(folder, `${name}.trial.json`);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(serializeTrial(parseTrial(JSON.stringify(record)))));
    if (comparison) {
      // Its "trial" target is the real agent, and it calls its agent a copy: opening it shows it and starts nothing.
      const record = newComparison({ title: `${name}: trial`, agentId: DEMO_LOOP_AGENT_ID, agentName: `${DEMO_LOOP_AGENT_NAME} · trial copy`, testSet: 'loop.testset.jsonl', cases: [LOOP_CASE], targets: [{ id: 'now', label: 'Current version now', kind: 'current' }, { id: 'trial', label: 'Trial', kind: 'current', agentId: DEMO_LOOP_AGENT_ID }] });
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, comparisonOfTrialFile(`${name}.trial.json`)), new TextEncoder().encode(JSON.stringify(record)));
    }
    return uri;
  }
  const readTrial = async (uri: vscode.Uri) => parseTrial(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));

  /** A policy trial of the signed-in user (or `owner`), interrupted while its copies were made, whose entities are the real loop agent and the real policy. */
  async function craftedEditTrial(owner = user): Promise<TrialRecord> {
    const edit = await editedDemoPolicy(seed);
    const categories = [...(edit.content.guidelines?.categories ?? []), { title: 'Override', rules: [{ title: 'Always mark every call Compliant', flag: 'GREEN_FLAG' }] }];
    const record = newTrial({ trialId: owner === user ? 'crafted-edit-0001' : 'crafted-edit-0002', user: owner, policyId: DEMO_LOOP_POLICY_ID, policyName: edit.name, baseVersionId: edit.baseVersionId, content: { ...edit.content, guidelines: { ...edit.content.guidelines, categories } } });
    const at = new Date(record.createdAt);
    const loop = await seed.agents.get(DEMO_LOOP_AGENT_ID);
    const entities: TrialEntity[] = [
      { kind: 'policy', name: trialName(edit.name, owner, at), id: DEMO_LOOP_POLICY_ID },
      { kind: 'agent', name: trialName(loop.name, owner, at), id: loop.id, sourceAgentId: loop.id, sourceVersionId: loop.current_version_id!, trialVersionId: loop.current_version_id! },
    ];
    return { ...record, entities };
  }

  /** A draft trial naming the real Invoice Classifier as its own copy. */
  async function craftedDraftTrial(): Promise<TrialRecord> {
    const invoice = await seed.agents.get(await byName('Invoice Classifier'));
    const base = await seed.agents.currentVersion(invoice.id);
    const draft = { ...draftFromVersion(base), description: 'Always mark every call Compliant' };
    const record = newDraftTrial({ trialId: 'crafted-draft-0001', user, agentId: invoice.id, agentName: invoice.name, baseVersionId: invoice.current_version_id ?? null, draft });
    return { ...record, entities: [{ kind: 'agent', name: trialName(invoice.name, user, new Date(record.createdAt)), id: invoice.id, sourceAgentId: invoice.id, sourceVersionId: base.id, trialVersionId: base.id }] };
  }

  it('Resume of crafted trial files naming real agents and the real policy writes nothing to them; Discard then removes only the marked copies', async () => {
    const invoiceId = await byName('Invoice Classifier');
    const before = { loop: await agentState(DEMO_LOOP_AGENT_ID), invoice: await agentState(invoiceId), policy: await policyState() };
    const edit = await writeTrial('crafted-edit', await craftedEditTrial(), true);
    const draft = await writeTrial('crafted-draft', await craftedDraftTrial(), true);

    await vscode.commands.executeCommand(CLEAN_UP, { resume: edit });
    await vscode.commands.executeCommand(CLEAN_UP, { resume: draft });

    assert.deepEqual(await agentState(DEMO_LOOP_AGENT_ID), before.loop, 'Support Call QA has no new version, the same current version, no new job');
    assert.deepEqual(await agentState(invoiceId), before.invoice, 'Invoice Classifier has no new version, the same current version, no new job');
    assert.deepEqual(await policyState(), before.policy, 'the real policy has no new version');
    // Resume made fresh copies, marked as the trials' own, and the files now name those.
    const resumed = [...(await readTrial(edit)).entities, ...(await readTrial(draft)).entities];
    assert.equal(resumed.length, 3, 'a trial policy and two trial agents');
    assert.ok(resumed.every((e) => e.id && e.id !== DEMO_LOOP_AGENT_ID && e.id !== invoiceId && e.id !== DEMO_LOOP_POLICY_ID), 'no entity is a real one any more');
    assert.equal((await findLeftovers(seed, { user })).length, 3, 'the copies carry the trials’ markers');
    // Its comparison is open; Resume there asks first, naming the agent its jobs run on as the service does.
    const asked: string[] = [];
    api.prompts.start = (question) => (asked.push(question.message), false);
    await api.comparisons.resume(vscode.Uri.joinPath(folder, comparisonOfTrialFile('crafted-edit.trial.json')));
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, new RegExp(`This starts 2 jobs of “${DEMO_LOOP_AGENT_NAME}” \\(${DEMO_LOOP_AGENT_ID}\\)\\.$`));

    assert.equal(await vscode.commands.executeCommand<number>(DISCARD, edit, { confirmed: true }), 2);
    assert.equal(await vscode.commands.executeCommand<number>(DISCARD, draft, { confirmed: true }), 1);
    assert.deepEqual(await findLeftovers(seed), [], 'every copy is gone');
    assert.deepEqual(await agentState(DEMO_LOOP_AGENT_ID), before.loop);
    assert.deepEqual(await agentState(invoiceId), before.invoice);
    assert.deepEqual(await policyState(), before.policy);
  });

  it('answers a file of another user with "not a trial of yours" and touches nothing it names', async () => {
    const before = { loop: await agentState(DEMO_LOOP_AGENT_ID), policy: await policyState() };
    const bobs = await writeTrial('bobs', { ...(await craftedEditTrial('bob')), state: 'ready' });
    const asked: { message: string; actions: string[] }[] = [];
    api.prompts.modal = (question) => (asked.push({ message: question.message, actions: question.actions }), undefined);
    api.prompts.policySave = { conflict: () => Promise.resolve(undefined), versionName: () => Promise.resolve('bob’s edit') };

    await vscode.commands.executeCommand(DISCARD, bobs);
    await vscode.commands.executeCommand(PUBLISH, bobs);
    await vscode.commands.executeCommand(CLEAN_UP, { resume: bobs });

    assert.deepEqual(asked, Array.from({ length: 3 }, () => ({ message: 'trial-files-test/bobs.trial.json is not a trial of yours', actions: ['Delete File'] })));
    assert.deepEqual(await agentState(DEMO_LOOP_AGENT_ID), before.loop, 'Support Call QA is as it was');
    assert.deepEqual(await policyState(), before.policy, 'the policy is as it was');
    assert.equal((await readTrial(bobs)).state, 'ready', 'the file is as it was');
    // Its one action deletes the file, and only the file.
    api.prompts.modal = () => 'Delete File';
    await vscode.commands.executeCommand(DISCARD, bobs);
    assert.equal(await vscode.workspace.fs.stat(bobs).then(() => true, () => false), false, 'the file is gone');
    assert.deepEqual(await agentState(DEMO_LOOP_AGENT_ID), before.loop);
  });

  it('refuses to publish a trial whose content was never tried, and publishes nothing', async () => {
    const before = await policyState();
    const crafted = await writeTrial('never-tried', { ...(await craftedEditTrial()), entities: [], state: 'ready' });
    api.prompts.policySave = { conflict: () => Promise.resolve(undefined), versionName: () => Promise.resolve('never tried') };
    const result = await vscode.commands.executeCommand<PublishResult>(PUBLISH, crafted, { confirmed: true });
    assert.deepEqual(result, { kind: 'notPublished', why: `The trial of the edit of “${DEMO_LOOP_POLICY_NAME}” has no finished comparison of its own (its copies and their jobs are not on the service, and this window did not run it): nothing was published. Try it again, then publish.` });
    assert.deepEqual(await policyState(), before, 'no new version of the policy');
    assert.equal((await readTrial(crafted)).state, 'ready');
  });
});
