// Trying a policy edit on copies in a real extension host, against the sandbox's policy engine: the
// trial flips the demo case while a production run keeps the old verdict; Publish makes exactly one
// version of the real policy and removes the copies; Discard removes them; Clean Up finds what a
// crash left behind by its marker; a version saved during the trial stops Publish.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ServiceClient } from '../../src/core/client';
import { outputValue } from '../../src/core/comparison/compare';
import { isComplete } from '../../src/core/comparison/comparisonRecord';
import { testCaseLine } from '../../src/core/comparison/testSet';
import { findLeftovers } from '../../src/core/trial/trialEnd';
import { parsePolicyFile, policyFileText } from '../../src/core/trial/policyFile';
import { trialUserName } from '../../src/core/trial/trialMarker';
import { newTrial, parseTrial, serializeTrial } from '../../src/core/trial/trialRecord';
import { agentsApplying, setUpTrial } from '../../src/core/trial/trialSetup';
import { TRIAL_TARGET_ID } from '../../src/core/trial/trialComparison';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_AGENT_NAME, DEMO_LOOP_DISPOSITION_AFTER, DEMO_LOOP_DISPOSITION_BEFORE, DEMO_LOOP_INPUTS, DEMO_LOOP_POLICY_ID, DEMO_LOOP_POLICY_NAME } from '../../src/sandbox/seed/demoLoop';
import type { AgentNode } from '../../src/extension/agents/agentNodes';
import type { AgentWorkbenchApi } from '../../src/extension/extension';
import type { PublishResult } from '../../src/extension/trials/trialEnding';
import type { StartedTrial } from '../../src/extension/trials/tryThisEdit';
import { editedDemoPolicy, LOOP_CASE } from '../unit/trial/trialHelpers';
import { agentChildren, connect, errorsLogged, is, itemText, startSandbox, waitFor, withSetting, workbench, type TestSandbox } from './support/workbench';

const TRY = 'agentWorkbench.trials.tryThisEdit';
const PUBLISH = 'agentWorkbench.trials.publish';
const DISCARD = 'agentWorkbench.trials.discard';
const CLEAN_UP = 'agentWorkbench.trials.cleanUp';
const EXPORT = 'agentWorkbench.policies.exportToWorkspace';

describe('Trying a policy edit on copies', function () {
  this.timeout(180_000);
  let sandbox: TestSandbox;
  let api: AgentWorkbenchApi;
  let client: ServiceClient;
  let folder: vscode.Uri;
  let testSet: vscode.Uri;
  let restoreInterval: () => Promise<void>;

  before(async () => {
    api = await workbench();
    restoreInterval = await withSetting('jobs.refreshIntervalSeconds', 1);
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(root, 'the test workspace has a folder');
    folder = vscode.Uri.joinPath(root, 'trials-test');
  });

  beforeEach(async () => {
    sandbox = await startSandbox();
    await connect(sandbox);
    // The test's own reads and set-up: the extension's client writes only what the user picked.
    client = sandbox.client();
    await vscode.workspace.fs.createDirectory(folder);
    testSet = vscode.Uri.joinPath(folder, 'loop.testset.jsonl');
    await vscode.workspace.fs.writeFile(testSet, new TextEncoder().encode(`// agent: ${DEMO_LOOP_AGENT_ID} · ${DEMO_LOOP_AGENT_NAME}\n${testCaseLine(LOOP_CASE)}\n`));
  });

  afterEach(async () => {
    for (let i = 0; i < 20 && vscode.window.tabGroups.all.some((g) => g.tabs.length > 0); i++) await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    api.prompts.policySave = undefined;
    api.prompts.modal = undefined;
    await vscode.workspace.fs.delete(folder, { recursive: true });
    await sandbox.stop();
  });

  after(() => restoreInterval());

  /** The demo policy's current version open in an editor, with the named rule made a green flag (not saved). */
  async function editPolicyInEditor(): Promise<vscode.TextDocument> {
    const edit = await editedDemoPolicy(client);
    const policy = await client.policies.get(DEMO_LOOP_POLICY_ID);
    const editor = await api.policyDocuments.open(policy, await client.policies.getVersion(policy.id, edit.baseVersionId));
    const whole = new vscode.Range(0, 0, editor.document.lineCount, 0);
    assert.ok(await editor.edit((b) => b.replace(whole, `${JSON.stringify(edit.content, null, 2)}\n`)));
    assert.ok(editor.document.isDirty, 'the edit is not saved');
    return editor.document;
  }

  /** Try This Edit… on the open edit, confirmed, until its comparison has every result. */
  async function tryIt(document: vscode.TextDocument): Promise<StartedTrial> {
    const started = await vscode.commands.executeCommand<StartedTrial>(TRY, document.uri, { testSet, confirmed: true });
    assert.ok(started, 'the trial started');
    const session = await waitFor(() => api.comparisons.session(started.comparison), 'the trial’s comparison view');
    await waitFor(() => session.state.kind === 'stopped' && isComplete(session.record), 'the trial’s comparison to finish', 90_000);
    return started;
  }

  const readTrial = async (uri: vscode.Uri) => parseTrial(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));

  /** Ids of the trial's copies the service still has. */
  async function copiesLeft(uri: vscode.Uri): Promise<string[]> {
    const left: string[] = [];
    for (const e of (await readTrial(uri)).entities) {
      const there = e.kind === 'agent' ? await client.agents.get(e.id!).then(() => true, () => false) : await client.policies.get(e.id!).then(() => true, () => false);
      if (there) left.push(e.id!);
    }
    return left;
  }

  /** A production run of the real agent on the demo call: its disposition. */
  async function runReal(): Promise<string | null> {
    const [jobId] = await client.agents.runMany(DEMO_LOOP_AGENT_ID, [{ ...DEMO_LOOP_INPUTS }]);
    return waitFor(async () => {
      const [result] = await client.jobs.results([jobId!]);
      return result && typeof result.status === 'number' && result.status >= 3 && result.result ? outputValue({ jobId: jobId!, outputs: result.result }, 'disposition') : undefined;
    }, 'the production job', 60_000);
  }

  it('runs the edit on copies: the case flips in the trial while a production run keeps the old verdict', async () => {
    const versionBefore = (await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id;
    const started = await tryIt(await editPolicyInEditor());
    const record = api.comparisons.session(started.comparison)!.record;
    assert.equal(outputValue(record.cases[0]!.runs.now, 'disposition'), DEMO_LOOP_DISPOSITION_BEFORE, 'the current version now');
    assert.equal(outputValue(record.cases[0]!.runs[TRIAL_TARGET_ID], 'disposition'), DEMO_LOOP_DISPOSITION_AFTER, 'the trial');
    assert.equal(await runReal(), DEMO_LOOP_DISPOSITION_BEFORE, 'production still judges by the policy as it was');
    assert.equal((await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id, versionBefore, 'the real policy has no new version');

    // The copy is in the Agents view, marked "trial"; the filter hides it.
    const trial = await readTrial(started.trial);
    const copyName = trial.entities.find((e) => e.kind === 'agent')!.name;
    assert.match(copyName, /^Support Call QA · trial \d{4}-\d\d-\d\d \d\d:\d\d · .+$/);
    const rows = async () => (await agentChildren()).filter((n): n is AgentNode => is(n, 'agent')).map((n) => ({ label: itemText(n).label, description: itemText(n).description }));
    api.agents.reload();
    const shown = await waitFor(async () => (await rows()).find((r) => r.label === copyName), 'the trial agent in the Agents view');
    assert.match(shown.description, /^trial · /);
    await api.agents.setFilter({ hideTrials: true });
    try {
      const hidden = await rows();
      assert.ok(!hidden.some((r) => r.label === copyName) && hidden.some((r) => r.label === DEMO_LOOP_AGENT_NAME), 'only the trial agent is hidden');
    } finally {
      await api.agents.setFilter({});
    }
    await vscode.commands.executeCommand(DISCARD, started.comparison, { confirmed: true });
  });

  it('offers Create Test Set from Jobs… when there is no test set, instead of an error', async () => {
    await vscode.workspace.fs.delete(testSet);
    // A test set another suite's editor wrote back after its folder went is not this test's: the workspace has none.
    for (const stray of await vscode.workspace.findFiles('**/*.{testset.jsonl,testset.csv}')) await vscode.workspace.fs.delete(stray);
    assert.deepEqual(await vscode.workspace.findFiles('**/*.{testset.jsonl,testset.csv}'), [], 'the workspace has no test set');
    const document = await editPolicyInEditor();
    const offers: string[] = [];
    api.prompts.offer = (text, actions) => (offers.push(`${text} [${actions.join('] [')}]`), undefined);
    const errors = await errorsLogged(() => vscode.commands.executeCommand(TRY, document.uri));
    api.prompts.offer = undefined;
    assert.equal(offers.length, 1);
    assert.match(offers[0]!, /^Try This Edit needs a test set, and the workspace has none .*\[Create Test Set from Jobs…\]$/);
    assert.deepEqual(errors, [], 'no error, no stack trace in the log');
  });

  it('tests an unsaved edit on copies even from Test This Policy Change…, and says production is not touched', async () => {
    const document = await editPolicyInEditor();
    const asked: { message: string; detail: string }[] = [];
    api.prompts.start = (question) => (asked.push(question), false);
    try {
      await vscode.commands.executeCommand('agentWorkbench.comparisons.testThisChange', document.uri, { testSet });
    } finally {
      api.prompts.start = undefined;
    }
    assert.equal(asked.length, 1);
    assert.match(asked[0]!.message, /It runs on copies: production is not touched until you publish\./);
    assert.deepEqual(await vscode.workspace.findFiles('trials-test/*.comparison.json'), [], 'a declined start leaves no comparison');
  });

  it('publishes exactly one version of the real policy, removes the copies, and leaves the editor saved', async () => {
    const document = await editPolicyInEditor();
    const started = await tryIt(document);
    const versionsBefore = (await client.policies.listVersions(DEMO_LOOP_POLICY_ID)).count;
    api.prompts.policySave = { conflict: () => Promise.resolve(undefined), versionName: () => Promise.resolve('promises are fine') };
    // Publish asks first, naming the policy as the service does: that yes is the only ground of writing it.
    const asked: string[] = [];
    api.prompts.modal = (question) => (asked.push(question.message), question.actions.includes('Publish') ? 'Publish' : undefined);
    const result = await vscode.commands.executeCommand<PublishResult>(PUBLISH, started.comparison);
    assert.deepEqual(asked, [`Publish the edit you tried as a new version of “${DEMO_LOOP_POLICY_NAME}”?`]);
    assert.equal(result?.kind, 'published');
    assert.equal((await client.policies.listVersions(DEMO_LOOP_POLICY_ID)).count, versionsBefore + 1, 'one new version');
    const policy = await client.policies.get(DEMO_LOOP_POLICY_ID);
    assert.equal(policy.current_version_id, result.kind === 'published' ? result.versionId : undefined);
    assert.equal((await client.policies.getVersion(policy.id, policy.current_version_id)).version_name, 'promises are fine');
    assert.deepEqual(await copiesLeft(started.trial), [], 'the trial’s agent and policy are gone');
    assert.equal((await readTrial(started.trial)).state, 'published');
    assert.deepEqual(await findLeftovers(client), []);
    await waitFor(() => !document.isDirty, 'the edited editor to be marked saved');
    assert.equal(await runReal(), DEMO_LOOP_DISPOSITION_AFTER, 'production now judges by the published edit');
  });

  /** Create Version… on the loop agent: its draft editor, unsaved and unchanged. */
  async function openLoopDraft(): Promise<vscode.TextEditor> {
    const agent = await waitFor(async () => (await agentChildren()).find((n): n is AgentNode => is(n, 'agent') && n.agent.id === DEMO_LOOP_AGENT_ID), 'the loop agent');
    await vscode.commands.executeCommand('agentWorkbench.agents.createVersion', agent);
    return waitFor(() => {
      const editor = vscode.window.activeTextEditor;
      return editor?.document.uri.path.startsWith(`/drafts/agents/${DEMO_LOOP_AGENT_ID}/`) ? editor : undefined;
    }, 'the version draft');
  }

  it('tries an unsaved agent version draft on a copy, then publishes it as exactly one new version of the agent and removes the copy', async () => {
    const lenient = await client.policies.create({ name: 'Call rules, lenient', description: 'made by the user', content: (await editedDemoPolicy(client)).content });
    const agentBefore = await client.agents.get(DEMO_LOOP_AGENT_ID);
    const versionsBefore = (await client.agents.listVersions(DEMO_LOOP_AGENT_ID)).length;
    const editor = await openLoopDraft();

    // Unchanged, the draft has nothing to try: a sentence, and no trial.
    const failures: string[] = [];
    const error = api.log.error.bind(api.log);
    api.log.error = (message: string, cause?: unknown) => (failures.push(cause instanceof Error ? cause.message : message), error(message, cause));
    try {
      assert.equal(await vscode.commands.executeCommand('agentWorkbench.trials.tryThisDraft', editor.document.uri, { testSet, confirmed: true }), undefined);
    } finally {
      delete (api.log as Partial<typeof api.log>).error;
    }
    assert.equal(failures.length, 1);
    assert.match(failures[0]!, /^Nothing to try: this draft runs like the version .* it was opened from/);
    assert.deepEqual(await vscode.workspace.findFiles('trials-test/*.trial.json'), []);

    // The draft applies the user's lenient policy: the loop's call turns Compliant on the copy.
    const draft = JSON.parse(editor.document.getText()) as { engine_config: Record<string, string> };
    draft.engine_config.policy_id = lenient.id;
    assert.ok(await editor.edit((b) => b.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), `${JSON.stringify(draft, null, 2)}\n`)));
    assert.ok(editor.document.isDirty, 'the draft is not saved');
    // Try This Edit… is the one entry point: on a version draft it tries the draft.
    const started = await vscode.commands.executeCommand<StartedTrial>(TRY, editor.document.uri, { testSet, confirmed: true });
    assert.ok(started, 'the trial started');
    const session = await waitFor(() => api.comparisons.session(started.comparison), 'the trial’s comparison view');
    await waitFor(() => session.state.kind === 'stopped' && isComplete(session.record), 'the trial’s comparison to finish', 90_000);
    assert.match(session.record.title, /^Support Call QA: trial of a draft version$/);
    assert.equal(outputValue(session.record.cases[0]!.runs.now, 'disposition'), DEMO_LOOP_DISPOSITION_BEFORE, 'the current version now');
    assert.equal(outputValue(session.record.cases[0]!.runs[TRIAL_TARGET_ID], 'disposition'), DEMO_LOOP_DISPOSITION_AFTER, 'the draft on the copy');
    const trial = await readTrial(started.trial);
    assert.equal(trial.subject, 'agentVersion');
    assert.deepEqual(trial.entities.map((e) => e.kind), ['agent']);
    assert.equal((await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id, agentBefore.current_version_id, 'the real agent keeps its version during the trial');
    assert.equal(await runReal(), DEMO_LOOP_DISPOSITION_BEFORE, 'production still runs the current version');

    const result = await vscode.commands.executeCommand<PublishResult>(PUBLISH, started.comparison, { confirmed: true });
    assert.equal(result?.kind, 'published');
    const versionId = result.kind === 'published' ? result.versionId : '';
    assert.equal((await client.agents.listVersions(DEMO_LOOP_AGENT_ID)).length, versionsBefore + 1, 'one new version');
    assert.equal((await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id, versionId);
    assert.equal(((await client.agents.getVersion(DEMO_LOOP_AGENT_ID, versionId)).engine_config as Record<string, string>).policy_id, lenient.id);
    assert.deepEqual(await copiesLeft(started.trial), [], 'the copy is gone');
    assert.equal((await readTrial(started.trial)).state, 'published');
    assert.deepEqual(await findLeftovers(client), []);
    assert.ok(await client.policies.get(lenient.id), 'the policy the draft applies stays');
    assert.equal(await runReal(), DEMO_LOOP_DISPOSITION_AFTER, 'production runs the published draft');
    // The draft editor holds what was published: marked saved, so a later Ctrl+S cannot make it twice.
    await waitFor(() => !editor.document.isDirty, 'the draft editor marked saved');
    const draftUri = editor.document.uri.toString();
    await waitFor(() => !vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === draftUri)), 'the draft’s tab replaced by the new version');
    assert.equal((await client.agents.listVersions(DEMO_LOOP_AGENT_ID)).length, versionsBefore + 1, 'still one new version');
    // The new version is shown in the Agents view.
    await waitFor(() => (api.agents.treeView.selection[0] as { kind?: string; version?: { id: string } } | undefined)?.version?.id === versionId, 'the new version revealed');
  });

  it('discards a draft’s trial: the copy goes and the agent keeps its version', async () => {
    const lenient = await client.policies.create({ name: 'Call rules, lenient', description: 'made by the user', content: (await editedDemoPolicy(client)).content });
    const before = (await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id;
    const editor = await openLoopDraft();
    const draft = JSON.parse(editor.document.getText()) as { engine_config: Record<string, string> };
    draft.engine_config.policy_id = lenient.id;
    assert.ok(await editor.edit((b) => b.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), `${JSON.stringify(draft, null, 2)}\n`)));
    const started = await vscode.commands.executeCommand<StartedTrial>('agentWorkbench.trials.tryThisDraft', editor.document.uri, { testSet, confirmed: true });
    assert.ok(started);
    assert.equal(await vscode.commands.executeCommand(DISCARD, started.comparison, { confirmed: true }), 1, 'one copy removed');
    assert.deepEqual(await copiesLeft(started.trial), []);
    assert.equal((await readTrial(started.trial)).state, 'discarded');
    assert.equal((await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id, before);
    assert.ok(editor.document.isDirty, 'the draft is still there to change or save');
  });

  it('discards: the copies are removed and the real policy keeps its version', async () => {
    const before = (await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id;
    const started = await tryIt(await editPolicyInEditor());
    assert.equal((await copiesLeft(started.trial)).length, 2, 'a trial policy and a trial agent');
    await vscode.commands.executeCommand(DISCARD, started.comparison, { confirmed: true });
    assert.deepEqual(await copiesLeft(started.trial), []);
    assert.equal((await readTrial(started.trial)).state, 'discarded');
    assert.equal((await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id, before);
  });

  it('cleans up what a crashed window left behind: the copies found by their marker, and its trial file', async () => {
    const edit = await editedDemoPolicy(client);
    const user = trialUserName(await client.users.current());
    const uri = vscode.Uri.joinPath(folder, 'crashed.trial.json');
    const trial = newTrial({ trialId: 'crashed-0001', user, policyId: DEMO_LOOP_POLICY_ID, policyName: edit.name, baseVersionId: edit.baseVersionId, content: edit.content });
    const save = (): Promise<void> => Promise.resolve(vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(serializeTrial(trial))));
    await setUpTrial(client, trial, await agentsApplying(client, DEMO_LOOP_POLICY_ID), save);
    // The window dies here: nothing in memory knows the trial any more, only the service and the file.
    assert.equal((await findLeftovers(client, { user })).length, 2);
    const removed = await vscode.commands.executeCommand<number>(CLEAN_UP, { confirmed: true });
    assert.ok((removed ?? 0) >= 2, `removed ${removed}`);
    assert.deepEqual(await findLeftovers(client), [], 'no trial copy is left in the organization');
    assert.equal((await readTrial(uri)).state, 'discarded');
  });

  it('Clean Up and Discard of a crafted trial file naming real agents and a real policy delete none of them', async () => {
    const user = trialUserName(await client.users.current());
    const byName = async (name: string): Promise<string> => {
      for await (const a of client.agents.items({ search: name, include_job_stats: false })) if (a.name === name) return a.id;
      throw new Error(name);
    };
    const contract = await byName('Contract Type Classifier');
    const invoice = await byName('Invoice Classifier');
    let playbook = '';
    for await (const p of client.policies.items({ search: 'Social Media Escalation Playbook' })) playbook = p.id;
    const jobsOf = async (id: string): Promise<number> => (await client.jobs.list(id, { page_size: 1 })).count;
    const before = { contract: await jobsOf(contract), invoice: await jobsOf(invoice) };
    const write = async (name: string, fileUser: string, entities: object[]): Promise<vscode.Uri> => {
      const record = { ...newTrial({ trialId: `crafted-${name}-0001`, user: fileUser, policyId: DEMO_LOOP_POLICY_ID, policyName: 'x', baseVersionId: null, content: {} }), entities, state: 'ready' };
      const uri = vscode.Uri.joinPath(folder, `${name}.trial.json`);
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(serializeTrial(parseTrial(JSON.stringify(record)))));
      return uri;
    };
    await write('cases', user, [{ kind: 'agent', name: 'a', id: contract }, { kind: 'agent', name: 'Chat Escalation Detector' }, { kind: 'policy', name: 'p', id: playbook }]);
    const second = await write('other', 'someone else', [{ kind: 'agent', name: 'Invoice Classifier', id: invoice }]);
    assert.equal(await vscode.commands.executeCommand<number>(CLEAN_UP, { confirmed: true }), 0);
    assert.equal(await vscode.commands.executeCommand<number>(DISCARD, second, { confirmed: true }), 0);
    assert.equal(await jobsOf(contract), before.contract, 'Contract Type Classifier and its jobs are still there');
    assert.equal(await jobsOf(invoice), before.invoice, 'Invoice Classifier and its jobs are still there');
    assert.ok(await client.agents.get(await byName('Chat Escalation Detector')));
    assert.ok(await client.policies.get(playbook));
  });

  it('exports a policy as a workspace file that Try This Edit reads', async () => {
    api.policies.reload();
    const node = await waitFor(async () => ((await api.policies.provider.getChildren()) ?? []).find((n) => is(n, 'policy') && n.policy.id === DEMO_LOOP_POLICY_ID), 'the demo policy in the Policies view');
    const uri = await vscode.commands.executeCommand<vscode.Uri>(EXPORT, node);
    assert.ok(uri && uri.path.endsWith('.policy.json'), `written: ${uri?.path}`);
    const file = parsePolicyFile(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    const edit = await editedDemoPolicy(client);
    assert.deepEqual({ policyId: file.policyId, base: file.baseVersionId }, { policyId: DEMO_LOOP_POLICY_ID, base: edit.baseVersionId });
    // Edited and written to disk (as a reviewer's other tool, or a git pull, would), and the editor the
    // export opened follows the file. (Typing into that editor right after the export raced the file
    // watcher's first event on a loaded machine: the save was then refused as a conflict.)
    const edited = policyFileText({ id: file.policyId, name: file.name }, file.baseVersionId, edit.content);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(edited));
    const document = await vscode.workspace.openTextDocument(uri);
    await waitFor(() => document.getText() === edited && !document.isDirty, 'the exported file’s editor to show the edit');
    try {
      const started = await vscode.commands.executeCommand<StartedTrial>(TRY, uri, { testSet, confirmed: true });
      assert.ok(started);
      const session = await waitFor(() => api.comparisons.session(started.comparison), 'the trial’s comparison view');
      await waitFor(() => session.state.kind === 'stopped' && isComplete(session.record), 'the trial’s comparison to finish', 90_000);
      assert.equal(outputValue(session.record.cases[0]!.runs[TRIAL_TARGET_ID], 'disposition'), DEMO_LOOP_DISPOSITION_AFTER);
      await vscode.commands.executeCommand(DISCARD, started.comparison, { confirmed: true });
    } finally {
      await vscode.workspace.fs.delete(uri);
    }
  });

  it('stops Publish when the policy changed since the trial began, and publishes nothing', async () => {
    const started = await tryIt(await editPolicyInEditor());
    const other = await client.policies.createVersion(DEMO_LOOP_POLICY_ID, { content: (await editedDemoPolicy(client)).content, version_name: 'saved meanwhile' });
    const asked: string[] = [];
    api.prompts.policySave = {
      conflict: () => Promise.resolve(undefined),
      versionName: (s) => Promise.resolve(s),
      trialConflict: (_policy, newer) => (asked.push(newer.name), Promise.resolve(undefined)),
    };
    const result = await vscode.commands.executeCommand<PublishResult>(PUBLISH, started.comparison);
    assert.deepEqual(asked, ['saved meanwhile'], 'the user is told which version came in between');
    assert.notEqual(result?.kind, 'published');
    assert.equal((await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id, other.id, 'nothing was published over it');
    assert.equal((await copiesLeft(started.trial)).length, 2, 'the trial is still there, to discard or try again');
    await vscode.commands.executeCommand(DISCARD, started.comparison, { confirmed: true });
  });
});
