// Saving a policy as a new version, as a user meets it: the old version stays itself, questions in the
// right order, a cancelled save says nothing, an unchanged text creates nothing, marks follow the text.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { NewerVersion, SaveOutcome } from '../../src/extension/documents/newVersionSave';
import type { SavePrompts } from '../../src/extension/policies/policyDocuments';
import type { PolicyNode } from '../../src/extension/policies/policyNodes';
import { agentChildren, connect, is, startSandbox, waitFor, workbench, type TestSandbox } from './support/workbench';
import { cancelledSaveMessage } from '../../src/extension/documents/editableFileSystem';
import { policyVersionEditUri } from '../../src/extension/documents/documentUris';

const SAVE = 'agentWorkbench.documents.saveAsNewVersion';

/** Answers the save questions like a user would, and records what was asked. */
async function answer(prompts: Partial<SavePrompts>): Promise<{ asked: string[]; newer: NewerVersion[]; restore: () => void }> {
  const api = await workbench();
  const original = api.prompts.policySave;
  const asked: string[] = [];
  const newer: NewerVersion[] = [];
  api.prompts.policySave = {
    conflict: async (p, n) => (asked.push('conflict'), newer.push(n), prompts.conflict ? prompts.conflict(p, n) : 'anyway'),
    versionName: async (s) => (asked.push('versionName'), prompts.versionName ? prompts.versionName(s) : s),
  };
  return { asked, newer, restore: () => (api.prompts.policySave = original, undefined) };
}

async function policies(): Promise<PolicyNode[]> {
  const api = await workbench();
  api.policies.reload();
  return ((await api.policies.provider.getChildren()) ?? []).filter((n): n is PolicyNode => is(n, 'policy'));
}

/** Opens a version of the i-th policy (its current one unless told) in an editor. */
async function open(index: number, versionId?: string): Promise<{ editor: vscode.TextEditor; policyId: string; versionId: string }> {
  const api = await workbench();
  const client = api.connection.requireClient();
  const policy = await client.policies.get((await policies())[index]!.policy.id);
  const version = await client.policies.getVersion(policy.id, versionId ?? policy.current_version_id!);
  const editor = await api.policyDocuments.open(policy, version);
  return { editor, policyId: policy.id, versionId: version.id };
}

async function setText(editor: vscode.TextEditor, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(editor.document.uri, new vscode.Range(0, 0, editor.document.lineCount, 0), text);
  assert.ok(await vscode.workspace.applyEdit(edit));
}

async function withInstructions(editor: vscode.TextEditor, instructions: string): Promise<string> {
  const text = JSON.stringify({ ...(JSON.parse(editor.document.getText()) as object), instructions }, null, 2);
  await setText(editor, text);
  return text;
}

async function versionCount(policyId: string): Promise<number> {
  return (await (await workbench()).connection.requireClient().policies.listVersions(policyId, { page_size: 1 })).count;
}

async function save(editor: vscode.TextEditor): Promise<SaveOutcome | undefined> {
  return vscode.commands.executeCommand<SaveOutcome | undefined>(SAVE, editor.document.uri);
}

function ours(uri: vscode.Uri): readonly vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Agent Workbench');
}

describe('Saving policies', function () {
  this.timeout(90_000);
  let sandbox: TestSandbox;

  before(async () => {
    sandbox = await startSandbox();
    await connect(sandbox);
  });

  afterEach(async () => {
    await sandbox.faults.clear();
    // Closing a dirty editor would ask to save it: revert every one first.
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await sandbox.stop();
  });

  it('keeps showing a version its own content after it was saved as a new version, in a split copy and opened again', async () => {
    const api = await workbench();
    const { editor, policyId, versionId } = await open(0);
    const original = editor.document.getText();
    const uri = editor.document.uri;
    await vscode.commands.executeCommand('workbench.action.splitEditor');
    await withInstructions(editor, 'A new rule for version two.');
    const prompts = await answer({});
    try {
      assert.equal(await editor.document.save(), true);
    } finally {
      prompts.restore();
    }
    const service = JSON.stringify((await api.connection.requireClient().policies.getVersion(policyId, versionId)).content, null, 2);
    const old = () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    await waitFor(() => old()?.getText() === original, 'the split copy of the old version to show its own text again');
    assert.equal(JSON.stringify(JSON.parse(old()!.getText()), null, 2), service);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const again = await open(0, versionId);
    assert.equal(again.editor.document.getText(), original, 'opened again from the tree, the old version shows its own text');
    assert.equal(again.editor.document.isDirty, false);
  });

  it('opens the new version in the pane it was saved from, and keeps the focus there', async () => {
    const { editor } = await open(0);
    const uri = editor.document.uri;
    await vscode.commands.executeCommand('workbench.action.splitEditor');
    const right = await waitFor(() => vscode.window.tabGroups.activeTabGroup.viewColumn === vscode.ViewColumn.Two && vscode.window.activeTextEditor, 'the split pane focused');
    await withInstructions(right, 'Saved from the right pane.');
    const prompts = await answer({});
    try {
      assert.equal((await save(right))?.kind, 'saved');
    } finally {
      prompts.restore();
    }
    const active = await waitFor(() => vscode.window.activeTextEditor?.document.uri.toString() !== uri.toString() && vscode.window.activeTextEditor, 'the new version shown');
    assert.equal(active.viewColumn, vscode.ViewColumn.Two, 'the new version opened in the right pane, which kept the focus');
    const left = vscode.window.tabGroups.all.find((g) => g.viewColumn === vscode.ViewColumn.One);
    assert.ok(left?.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString()), 'the left pane still shows the version it had');
  });

  it('asks about a newer version after the version name, just before the write', async () => {
    const { editor, policyId, versionId } = await open(1);
    await withInstructions(editor, 'Mine, written while someone else saved.');
    const prompts = await answer({
      versionName: async () => {
        // Someone saves while the name box is open.
        await sandbox.client().policies.createVersion(policyId, { content: { instructions: 'theirs' }, version_name: 'their change', base_version_id: versionId });
        return 'mine';
      },
      conflict: () => Promise.resolve(undefined),
    });
    try {
      assert.equal(await editor.document.save(), false);
    } finally {
      prompts.restore();
    }
    assert.deepEqual(prompts.asked, ['versionName', 'conflict']);
    assert.equal(prompts.newer[0]?.name, 'their change');
    assert.ok(prompts.newer[0]?.author, 'the newer version is named with its author');
    assert.equal(editor.document.isDirty, true, 'the edit is kept');
  });

  it('says “you” when the newer version is one the user saved', async () => {
    const api = await workbench();
    const client = api.connection.requireClient();
    const first = await open(2);
    const older = (await client.policies.listVersions(first.policyId, { ordering: '-created_at' })).results.find((v) => v.id !== first.versionId);
    assert.ok(older, 'the policy has an older version');
    await withInstructions(first.editor, 'Edited in the first tab.');
    const second = await open(2, older.id);
    await withInstructions(second.editor, 'Saved from the second tab.');
    const prompts = await answer({ conflict: () => Promise.resolve('anyway' as const) });
    try {
      // Saving the older version creates the newest one; then the first tab is saved, and is behind it.
      assert.equal(await second.editor.document.save(), true);
      prompts.newer.length = 0;
      api.prompts.policySave = { ...api.prompts.policySave!, conflict: (_p, n) => (prompts.newer.push(n), Promise.resolve(undefined)) };
      assert.equal(await first.editor.document.save(), false);
    } finally {
      prompts.restore();
    }
    assert.equal(prompts.newer[0]?.byYou, true);
  });

  it('says nothing when the version name is dismissed: nothing is created, the text stays dirty', async () => {
    const { editor, policyId } = await open(0);
    const text = await withInstructions(editor, 'Not yet.');
    const before = await versionCount(policyId);
    const prompts = await answer({ versionName: () => Promise.resolve(undefined) });
    try {
      const outcome = await save(editor);
      assert.deepEqual(outcome, { kind: 'cancelled', reason: 'no version name was given' });
      // File › Save meets the same refusal through the file system: VS Code shows this sentence of ours.
      assert.equal(cancelledSaveMessage(outcome.kind === 'cancelled' ? outcome.reason : undefined), 'Not saved: no version name was given — your edit is kept; save again to create the version');
    } finally {
      prompts.restore();
    }
    assert.equal(editor.document.isDirty, true);
    assert.equal(editor.document.getText(), text);
    assert.equal(await versionCount(policyId), before);
  });

  it('asks, naming the policy as the service does, before the first save of an editor this window did not open from the Policies view', async () => {
    const api = await workbench();
    const policy = (await policies())[1]!.policy;
    // Opened from its address alone (as a tab restored after a reload, or a link), under a name that is not the policy's.
    const uri = policyVersionEditUri(policy.id, policy.current_version_id!, 'Harmless notes', 'draft');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
    await waitFor(() => editor.document.getText().trim().startsWith('{'), 'the version’s content');
    await withInstructions(editor, 'Written in an editor restored from its address.');
    const before = await versionCount(policy.id);
    const questions: string[] = [];
    const prompts = await answer({});
    try {
      api.prompts.modal = (question) => (questions.push(question.message), undefined);
      assert.deepEqual(await save(editor), { kind: 'cancelled' });
      assert.equal(await versionCount(policy.id), before, 'a no writes nothing');
      api.prompts.modal = (question) => (questions.push(question.message), question.actions[0]);
      assert.equal((await save(editor))?.kind, 'saved');
    } finally {
      api.prompts.modal = undefined;
      prompts.restore();
    }
    assert.deepEqual(questions, Array.from({ length: 2 }, () => `Save as a new version of the policy “${policy.name}”?`));
    assert.equal(await versionCount(policy.id), before + 1);
  });

  it('creates nothing for a text with the same content as its version, and says so', async () => {
    const { editor, policyId } = await open(0);
    const before = await versionCount(policyId);
    const original = editor.document.getText();
    await setText(editor, JSON.stringify(JSON.parse(original), null, 4));
    assert.equal(editor.document.isDirty, true);
    const prompts = await answer({});
    try {
      assert.equal(await editor.document.save(), true, 'a save from the File menu');
      await waitFor(() => editor.document.getText() === original, 'the editor to show the version as the service has it');
      await setText(editor, JSON.stringify(JSON.parse(editor.document.getText()), null, 3));
      const outcome = await save(editor);
      assert.equal(outcome?.kind, 'unchanged', `Ctrl+S: ${JSON.stringify(outcome)}`);
      assert.match((outcome as { message: string }).message, /Nothing changed/);
    } finally {
      prompts.restore();
    }
    assert.deepEqual(prompts.asked, [], 'no question asked');
    assert.equal(await versionCount(policyId), before, 'no version created');
  });

  it('says which policy was not saved and why, and offers to save again', async () => {
    const { editor } = await open(1);
    await withInstructions(editor, 'During an outage.');
    await sandbox.faults.set([{ kind: 'status', status: 503, path: '/v1/policies/*/versions/', method: 'POST' }]);
    const prompts = await answer({});
    let outcome: SaveOutcome | undefined;
    try {
      outcome = await save(editor);
    } finally {
      prompts.restore();
    }
    assert.equal(outcome?.kind, 'notSaved');
    const message = (outcome as { message: string }).message;
    const title = editor.document.uri.path.split('/').pop()!.replace(/\.json$/, '');
    assert.ok(message.startsWith(`“${title}” was not saved:`), message);
    assert.doesNotMatch(message, /Unable to write|agent-workbench:|Save As/);
    assert.equal(editor.document.isDirty, true);
  });

  it('updates the problem marks as the text changes: a fix or a revert clears them without a save', async () => {
    const { editor } = await open(2);
    const bad = JSON.stringify({ dispositions: { classifications: [{ description: 'no name' }] } }, null, 2);
    await setText(editor, bad);
    await waitFor(() => ours(editor.document.uri).length === 1, 'the problem marked while typing');
    await setText(editor, JSON.stringify({ instructions: 'fixed' }, null, 2));
    await waitFor(() => ours(editor.document.uri).length === 0, 'the mark gone once the text is fixed');
    await setText(editor, bad);
    await waitFor(() => ours(editor.document.uri).length === 1, 'the problem marked again');
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await waitFor(() => ours(editor.document.uri).length === 0, 'the mark gone after a revert');
  });

  it('never auto-saves a policy: its editor has auto save off, whatever the user setting', async () => {
    const { editor } = await open(0);
    assert.equal(editor.document.languageId, 'agent-workbench-json');
    assert.equal(vscode.workspace.getConfiguration('files', editor.document).get('autoSave'), 'off');
  });

  it('keeps its language when switched to JSON, so auto save stays off for it', async () => {
    const { editor } = await open(0);
    const uri = editor.document.uri.toString();
    await vscode.languages.setTextDocumentLanguage(editor.document, 'json');
    const back = await waitFor(() => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri && d.languageId === 'agent-workbench-json'), 'the policy back in its language');
    assert.equal(vscode.workspace.getConfiguration('files', back).get('autoSave'), 'off');
  });
});

describe('Saving version drafts', function () {
  this.timeout(90_000);
  let sandbox: TestSandbox;

  before(async () => {
    sandbox = await startSandbox();
    await connect(sandbox);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await sandbox.stop();
  });

  it('goes through the same flow: an unchanged draft creates nothing, marks follow the text, and the tab then shows the created version', async () => {
    const api = await workbench();
    api.agents.reload();
    const agent = (await agentChildren()).find((n) => is(n, 'agent'));
    assert.ok(is(agent, 'agent'));
    const count = async () => (await api.connection.requireClient().agents.listVersions(agent.agent.id)).length;
    const before = await count();
    await vscode.commands.executeCommand('agentWorkbench.agents.createVersion', agent);
    const editor = await waitFor(() => vscode.window.activeTextEditor?.document.uri.path.startsWith('/drafts/') && vscode.window.activeTextEditor, 'the draft');
    assert.equal(editor.document.languageId, 'agent-workbench-json');
    const draft = JSON.parse(editor.document.getText()) as { version_name: string };
    await setText(editor, JSON.stringify(draft, null, 4));
    assert.equal((await save(editor))?.kind, 'unchanged');
    assert.equal(await count(), before);

    await setText(editor, JSON.stringify({ ...draft, version_name: '' }, null, 2));
    await waitFor(() => ours(editor.document.uri).length > 0, 'the empty name marked while typing');
    await setText(editor, JSON.stringify({ ...draft, version_name: 'made from a draft' }, null, 2));
    await waitFor(() => ours(editor.document.uri).length === 0, 'the mark gone once fixed');
    const outcome = await save(editor);
    assert.equal(outcome?.kind, 'saved');
    assert.match((outcome as { message: string }).message, /Created version “made from a draft”/);
    assert.equal(await count(), before + 1);
    await waitFor(() => vscode.window.activeTextEditor?.document.uri.scheme === 'agent-workbench-view', 'the created version in the tab');
  });
});
