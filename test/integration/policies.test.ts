// Policies as documents against a real sandbox: open, validate, save as a new version, conflicts, failures, compare, restore.
import { samePolicyContent } from '../../src/core/documents/sameJson';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PolicyNode, PolicyVersionNode } from '../../src/extension/policies/policyNodes';
import type { SavePrompts } from '../../src/extension/policies/policyDocuments';
import { closeAllEditors, connect, is, itemText, startSandbox, type TestSandbox, waitFor, workbench } from './support/workbench';

async function policyNodes(): Promise<PolicyNode[]> {
  const api = await workbench();
  return ((await api.policies.provider.getChildren()) ?? []).filter((n): n is PolicyNode => is(n, 'policy'));
}

async function versionNodes(policy: PolicyNode): Promise<PolicyVersionNode[]> {
  const api = await workbench();
  return ((await api.policies.provider.getChildren(policy)) ?? []).filter((n): n is PolicyVersionNode => is(n, 'policyVersion'));
}

/** Answers the save questions like a user would, and records what was asked. */
async function answer(prompts: Partial<SavePrompts>): Promise<{ asked: string[]; restore: () => void }> {
  const api = await workbench();
  const original = api.prompts.policySave;
  const asked: string[] = [];
  api.prompts.policySave = {
    conflict: async (p, newer) => (asked.push('conflict'), prompts.conflict ? prompts.conflict(p, newer) : 'anyway'),
    versionName: async (s) => (asked.push(`versionName:${s}`), prompts.versionName ? prompts.versionName(s) : s),
  };
  return { asked, restore: () => (api.prompts.policySave = original, undefined) };
}

async function openCurrent(name: string): Promise<{ policy: PolicyNode; editor: vscode.TextEditor }> {
  const policy = (await policyNodes()).find((p) => p.policy.name === name);
  assert.ok(policy, `no policy ${name}`);
  const current = (await versionNodes(policy)).find((v) => v.isCurrent);
  assert.ok(current, 'the policy has a current version');
  await vscode.commands.executeCommand('agentWorkbench.policies.openVersion', current);
  const editor = await waitFor(() => vscode.window.activeTextEditor?.document.uri.path.includes(current.version.id) && vscode.window.activeTextEditor, 'the policy editor');
  return { policy, editor };
}

async function replaceText(editor: vscode.TextEditor, text: string): Promise<void> {
  const doc = editor.document;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
  assert.ok(await vscode.workspace.applyEdit(edit));
}

describe('Policies', function () {
  this.timeout(60_000);
  let sandbox: TestSandbox;
  let dataDir: string;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-policies-'));
    sandbox = await startSandbox(['--data', dataDir]);
    await connect(sandbox);
  });

  after(async () => {
    await closeAllEditors();
    await sandbox.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists policies with their versions, newest first, the current one marked', async () => {
    const policies = await policyNodes();
    assert.ok(policies.length >= 3);
    const first = policies[0]!;
    assert.equal(itemText(first).icon, 'law');
    assert.match(itemText(first).description, /changed /);
    const versions = await versionNodes(first);
    assert.ok(versions.length >= 2);
    const times = versions.map((v) => Date.parse(v.version.created_at ?? ''));
    assert.deepEqual(times, [...times].sort((a, b) => b - a));
    assert.equal(versions.filter((v) => v.isCurrent).length, 1);
  });

  it('searches policies through the service', async () => {
    const api = await workbench();
    const name = (await policyNodes())[0]!.policy.name;
    await vscode.commands.executeCommand('agentWorkbench.policies.search', name.slice(0, 6));
    const found = await policyNodes();
    assert.ok(found.length >= 1 && found.every((p) => p.policy.name.toLowerCase().includes(name.slice(0, 6).toLowerCase()) || (p.policy.description ?? '').toLowerCase().includes(name.slice(0, 6).toLowerCase())));
    assert.match(api.policies.treeView.description ?? '', /“/);
    await vscode.commands.executeCommand('agentWorkbench.policies.clearSearch');
  });

  it('opens a version as pretty JSON with a readable title, checked against the policy schema', async () => {
    const { policy, editor } = await openCurrent((await policyNodes())[0]!.policy.name);
    assert.equal(editor.document.languageId, 'agent-workbench-json', 'JSON with auto save off');
    assert.match(path.posix.basename(editor.document.uri.path), new RegExp(`^${policy.policy.name.slice(0, 10).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.* · .+\\.json$`));
    const content = JSON.parse(editor.document.getText()) as Record<string, unknown>;
    assert.ok(content.guidelines || content.dispositions || content.summary_template || content.instructions);
    await replaceText(editor, JSON.stringify({ guidelines: { categories: [{ title: 'X', rules: [{ title: 'Y', flag: 'BLUE_FLAG' }] }] } }, null, 2));
    const diagnostics = await waitFor(() => vscode.languages.getDiagnostics(editor.document.uri).filter((d) => d.source !== 'Agent Workbench').length > 0 && vscode.languages.getDiagnostics(editor.document.uri), 'schema squiggles from the JSON language service', 20_000);
    assert.ok(diagnostics.some((d) => /GREEN_FLAG|RED_FLAG/.test(d.message)), diagnostics.map((d) => d.message).join(' | '));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('saves an edit as a new current version based on the opened one, leaving the old version unchanged', async () => {
    const api = await workbench();
    const client = api.connection.requireClient();
    const { policy, editor } = await openCurrent((await policyNodes())[0]!.policy.name);
    const base = api.policyDocuments.baseOf(editor.document.uri)!;
    const before = await client.policies.getVersion(base.policyId, base.versionId);
    const content = JSON.parse(editor.document.getText()) as { instructions?: string };
    content.instructions = `${content.instructions ?? ''}\nAlways quote the customer.`;
    await replaceText(editor, JSON.stringify(content, null, 2));
    const prompts = await answer({ versionName: () => Promise.resolve('quote the customer') });
    try {
      assert.equal(await editor.document.save(), true);
    } finally {
      prompts.restore();
    }
    assert.ok(prompts.asked.some((q) => /^versionName:version \d+$/.test(q)), `the service's default name was offered: ${prompts.asked.join(', ')}`);
    assert.equal(editor.document.isDirty, false);
    const after = await client.policies.get(base.policyId);
    assert.notEqual(after.current_version_id, base.versionId);
    const created = await client.policies.getVersion(base.policyId, after.current_version_id!);
    assert.equal(created.version_name, 'quote the customer');
    assert.equal(created.base_version_id, base.versionId);
    // The service makes the ids of categories, rules and sub-rules anew on every create.
    assert.ok(samePolicyContent(created.content, content), 'the new version has the edited content');
    assert.deepEqual((await client.policies.getVersion(base.policyId, base.versionId)).content, before.content, 'the old version is unchanged');
    await waitFor(() => vscode.window.activeTextEditor?.document.uri.path.includes(created.id), 'the tab to show the new version');
    const current = await waitFor(async () => (await versionNodes(policy)).find((v) => v.isCurrent && v.version.id === created.id), 'the tree to mark the new version current');
    assert.equal(itemText(current).icon, 'star-full');
  });

  it('refuses invalid content with the problems underlined, and keeps the text dirty', async () => {
    const api = await workbench();
    const { editor } = await openCurrent((await policyNodes())[1]!.policy.name);
    const versionsBefore = (await api.connection.requireClient().policies.listVersions(api.policyDocuments.baseOf(editor.document.uri)!.policyId)).count;
    const bad = JSON.stringify({ dispositions: { classifications: [{ description: 'no name' }] } }, null, 2);
    await replaceText(editor, bad);
    assert.equal(await editor.document.save(), false);
    assert.equal(editor.document.isDirty, true);
    assert.equal(editor.document.getText(), bad);
    const ours = api.policyDocuments.diagnostics.get(editor.document.uri);
    assert.equal(ours.length, 1);
    assert.match(ours[0]!.message, /dispositions\.classifications\[0\]\.name: required/);
    assert.equal((await api.connection.requireClient().policies.listVersions(api.policyDocuments.baseOf(editor.document.uri)!.policyId)).count, versionsBefore, 'nothing was sent');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('keeps the text dirty when the service is down, and saves once it is back', async function () {
    this.timeout(120_000);
    const api = await workbench();
    const { editor } = await openCurrent((await policyNodes())[1]!.policy.name);
    const content = JSON.parse(editor.document.getText()) as { instructions?: string };
    content.instructions = 'Saved after an outage.';
    const text = JSON.stringify(content, null, 2);
    await replaceText(editor, text);
    const port = new URL(sandbox.baseUrl).port;
    await sandbox.stop();
    const prompts = await answer({});
    try {
      assert.equal(await editor.document.save(), false, 'the save fails while the service is down');
      assert.equal(editor.document.isDirty, true);
      assert.equal(editor.document.getText(), text);
      sandbox = await startSandbox(['--data', dataDir, '--port', port]);
      assert.equal(await editor.document.save(), true, 'the same save works once the service is back');
    } finally {
      prompts.restore();
    }
    const policyId = api.policyDocuments.baseOf(editor.document.uri)!.policyId;
    const policy = await api.connection.requireClient().policies.get(policyId);
    const saved = await api.connection.requireClient().policies.getVersion(policyId, policy.current_version_id!);
    assert.equal((saved.content as { instructions?: string }).instructions, 'Saved after an outage.');
  });

  it('asks before saving when someone else saved a newer version meanwhile', async () => {
    const api = await workbench();
    const client = sandbox.client();
    const { editor } = await openCurrent((await policyNodes())[2]!.policy.name);
    const base = api.policyDocuments.baseOf(editor.document.uri)!;
    await client.policies.createVersion(base.policyId, { content: { instructions: 'someone else' }, version_name: 'their change', base_version_id: base.versionId });
    await replaceText(editor, JSON.stringify({ instructions: 'my change' }, null, 2));

    const cancel = await answer({ conflict: () => Promise.resolve(undefined) });
    try {
      assert.equal(await editor.document.save(), false);
    } finally {
      cancel.restore();
    }
    assert.deepEqual(cancel.asked.map((q) => q.split(':')[0]), ['versionName', 'conflict'], 'the newer version is looked for after the last question');
    assert.equal(editor.document.isDirty, true, 'cancelling keeps the edit');

    const anyway = await answer({ conflict: () => Promise.resolve('anyway' as const) });
    try {
      assert.equal(await editor.document.save(), true);
    } finally {
      anyway.restore();
    }
    const policy = await client.policies.get(base.policyId);
    const mine = await client.policies.getVersion(base.policyId, policy.current_version_id!);
    assert.deepEqual(mine.content, { instructions: 'my change' });
    assert.equal(mine.base_version_id, base.versionId);
    await waitFor(() => vscode.window.activeTextEditor?.document.uri.path.includes(mine.id), 'the tab to show the saved version');
  });

  it('compares two versions in a diff editor', async () => {
    const policy = (await policyNodes())[0]!;
    const [newest, older] = await versionNodes(policy);
    assert.ok(newest && older);
    await vscode.commands.executeCommand('agentWorkbench.policies.compareWith', newest, older.version.id);
    const tab = await waitFor(() => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.label.includes(newest.name)), 'a diff tab of the two versions');
    assert.match(tab.label, new RegExp(`${older.name} ↔ ${newest.name}`.replace(/[()]/g, '.')));
    await vscode.window.tabGroups.close(tab);
  });

  it('restores an older version as a new current version with its content', async () => {
    const api = await workbench();
    const policy = (await policyNodes())[0]!;
    const versions = await versionNodes(policy);
    const old = versions.at(-1)!;
    await vscode.commands.executeCommand('agentWorkbench.policies.restoreVersion', old, 'restored for the test');
    const client = api.connection.requireClient();
    const after = await client.policies.get(policy.policy.id);
    const restored = await client.policies.getVersion(policy.policy.id, after.current_version_id!);
    assert.equal(restored.version_name, 'restored for the test');
    assert.ok(samePolicyContent(restored.content, (await client.policies.getVersion(policy.policy.id, old.version.id)).content), 'the old content, with ids made anew');
  });

  it('restores through the same save flow: restoring the content the current version already has creates nothing', async () => {
    const api = await workbench();
    const policy = (await policyNodes())[0]!;
    const client = api.connection.requireClient();
    const current = (await client.policies.get(policy.policy.id)).current_version_id!;
    const node = (await versionNodes(policy)).find((v) => v.version.id === current)!;
    const before = (await client.policies.listVersions(policy.policy.id, { page_size: 1 })).count;
    await vscode.commands.executeCommand('agentWorkbench.policies.restoreVersion', node, 'same again');
    assert.equal((await client.policies.listVersions(policy.policy.id, { page_size: 1 })).count, before, 'no version was created');
    assert.equal((await client.policies.get(policy.policy.id)).current_version_id, current);
  });

  it('creates a new policy from a template and opens its first version', async () => {
    await vscode.commands.executeCommand('agentWorkbench.policies.create', { name: 'Chargeback review', description: 'Card disputes', template: 'conversation-review' });
    const editor = await waitFor(() => vscode.window.activeTextEditor?.document.uri.path.includes('Chargeback review') && vscode.window.activeTextEditor, 'the new policy open');
    const content = JSON.parse(editor.document.getText()) as { dispositions?: { classifications: unknown[] } };
    assert.equal(content.dispositions?.classifications.length, 3);
    assert.ok((await policyNodes()).some((p) => p.policy.name === 'Chargeback review'));
  });
});
