// New Agent, the policy's name, description and deletion (with the 409 of a policy in use), and who is
// signed in — against a real sandbox, in a real extension host.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentNode } from '../../src/extension/agents/agentNodes';
import type { PolicyNode } from '../../src/extension/policies/policyNodes';
import type { DeleteOutcome } from '../../src/extension/policies/policyManagement';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_POLICY_NAME } from '../../src/sandbox/seed/demoLoop';
import { agentChildren, closeAllEditors, connect, is, startSandbox, type TestSandbox, waitFor, workbench } from './support/workbench';

async function policyNamed(name: string): Promise<PolicyNode | undefined> {
  const api = await workbench();
  return ((await api.policies.provider.getChildren()) ?? []).find((n): n is PolicyNode => is(n, 'policy') && n.policy.name === name);
}

describe('New Agent and policy management', function () {
  this.timeout(60_000);
  let sandbox: TestSandbox;

  before(async () => {
    sandbox = await startSandbox();
    await connect(sandbox);
    await vscode.commands.executeCommand('agentWorkbench.agents.clearFilter');
  });

  after(async () => {
    await closeAllEditors();
    await sandbox.stop();
  });

  it('says who is signed in, read once for the connection', async () => {
    const api = await workbench();
    const user = await waitFor(() => api.user.label, 'the signed-in user');
    assert.match(user, /@/);
  });

  it('drafts a new agent from the chosen engine and model, and creates it once on save', async () => {
    const api = await workbench();
    const uri = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.agents.create', { name: 'Escalation Triage', engine: 'llm_conversation_reviewer', model: 'o3-mini' });
    const editor = await waitFor(() => vscode.window.activeTextEditor?.document.uri.toString() === uri.toString() && vscode.window.activeTextEditor, 'the draft');
    const draft = JSON.parse(editor.document.getText()) as { engine_class_id: string; engine_config: Record<string, string>; input_definitions: { key: string }[] };
    assert.equal(draft.engine_class_id, 'llm_conversation_reviewer');
    assert.equal(draft.engine_config.model, 'o3-mini');
    assert.ok(draft.input_definitions.some((d) => d.key === 'transcript'), 'the engine’s inputs');
    await editor.edit((edit) => edit.insert(new vscode.Position(1, 0), '  "description": "Routes escalations",\n'));
    assert.ok(await editor.document.save(), 'the draft saves');
    const agent = await waitFor(async () => (await agentChildren()).find((n): n is AgentNode => is(n, 'agent') && n.agent.name === 'Escalation Triage'), 'the new agent in the Agents view');
    assert.equal(agent.agent.engine_class_id, 'llm_conversation_reviewer');
    await waitFor(() => (api.agents.treeView.selection[0] as AgentNode | undefined)?.agent?.id === agent.agent.id, 'the new agent revealed and selected');
    const versions = await api.connection.requireClient().agents.listVersions(agent.agent.id);
    assert.equal((versions[0]?.engine_config as Record<string, unknown> | undefined)?.model, 'o3-mini');
    // The tab now holds a draft of the agent's next version, as the service stored it.
    const next = await waitFor(() => vscode.window.visibleTextEditors.find((e) => e.document.uri.path.startsWith(`/drafts/agents/${agent.agent.id}/`)), 'the version draft of the new agent');
    const stored = JSON.parse(next.document.getText()) as { version_name: string; description: string; engine_config: Record<string, string> };
    assert.equal(stored.version_name, 'version 2');
    assert.equal(stored.engine_config.model, 'o3-mini');
    await waitFor(() => !vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString())), 'the new-agent tab replaced');
    // Revealing the new agent may have moved focus to the Agents view: the change goes through the document itself.
    const again = new vscode.WorkspaceEdit();
    again.replace(next.document.uri, new vscode.Range(0, 0, next.document.lineCount, 0), JSON.stringify({ ...stored, description: 'Second version' }, null, 2));
    assert.ok(await vscode.workspace.applyEdit(again), 'the draft is changed again');
    assert.equal(await next.document.save(), true, 'saving it again creates a version');
    await waitFor(async () => (await api.connection.requireClient().agents.listVersions(agent.agent.id)).length === 2, 'the second version');
    const same = (await api.connection.requireClient().agents.list({ search: 'Escalation Triage' })).results;
    assert.equal(same.length, 1, 'still one agent');
  });

  it('completes a draft’s policy_id with the organization’s policies and its model with the model list', async () => {
    const uri = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.agents.create', { name: 'Completion check', engine: 'llm_conversation_reviewer', model: '' });
    const editor = await waitFor(() => vscode.window.activeTextEditor?.document.uri.toString() === uri.toString() && vscode.window.activeTextEditor, 'the draft');
    const draft = JSON.parse(editor.document.getText()) as Record<string, unknown>;
    const text = JSON.stringify({ ...draft, engine_config: { policy_id: '', model: '' } }, null, 2);
    await editor.edit((edit) => edit.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), text));
    const labels = async (key: string): Promise<string[]> => {
      const at = editor.document.positionAt(text.indexOf(`"${key}": ""`) + key.length + 5);
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', editor.document.uri, at);
      return list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
    };
    await waitFor(async () => (await labels('policy_id')).includes(DEMO_LOOP_POLICY_NAME), 'the policies offered by name');
    await waitFor(async () => (await labels('model')).some((label) => label.includes('o3-mini')), 'the models offered');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('does not delete a policy that agents use, and names them; reveals one in the Agents view', async () => {
    const api = await workbench();
    const policy = await policyNamed(DEMO_LOOP_POLICY_NAME);
    assert.ok(policy);
    const outcome = await vscode.commands.executeCommand<DeleteOutcome>('agentWorkbench.policies.delete', policy, true);
    assert.equal(outcome.deleted, false);
    assert.ok(!outcome.deleted && outcome.dependents.some((d) => d.base_agent_id === DEMO_LOOP_AGENT_ID), 'Support Call QA uses it');
    assert.ok(await policyNamed(DEMO_LOOP_POLICY_NAME), 'still listed');
    const dependent = !outcome.deleted ? outcome.dependents.find((d) => d.base_agent_id === DEMO_LOOP_AGENT_ID) : undefined;
    await vscode.commands.executeCommand('agentWorkbench.agents.revealVersion', { agentId: DEMO_LOOP_AGENT_ID, versionId: dependent?.version_id ?? undefined });
    await waitFor(() => (api.agents.treeView.selection[0] as { kind?: string } | undefined)?.kind === 'agentVersion', 'the version revealed');
  });

  it('reveals a version right after the Agents view was read again, and the list still holds every agent', async () => {
    const api = await workbench();
    const agent = await api.connection.requireClient().agents.get(DEMO_LOOP_AGENT_ID);
    const total = (await api.connection.requireClient().agents.list({ include_job_stats: false })).count;
    api.agents.reload();
    await vscode.commands.executeCommand('agentWorkbench.agents.revealVersion', { agentId: DEMO_LOOP_AGENT_ID, versionId: agent.current_version_id });
    await waitFor(() => (api.agents.treeView.selection[0] as { version?: { id: string } } | undefined)?.version?.id === agent.current_version_id, 'the version revealed');
    const rows = (await agentChildren()).filter((n) => is(n, 'agent'));
    assert.equal(rows.length, Math.min(total, 50), 'the first page of agents, not the revealed one alone');
  });

  it('renames a policy, edits its description, and deletes one nobody uses', async () => {
    const api = await workbench();
    await vscode.commands.executeCommand('agentWorkbench.policies.create', { name: 'Temporary rules', description: 'to be removed', template: 'conversation-review' });
    const created = await waitFor(() => policyNamed('Temporary rules'), 'the new policy');
    await vscode.commands.executeCommand('agentWorkbench.policies.rename', created, 'Retired rules');
    assert.equal(created.policy.name, 'Retired rules');
    await vscode.commands.executeCommand('agentWorkbench.policies.editDescription', created, 'No longer used');
    assert.equal((await api.connection.requireClient().policies.get(created.policy.id)).description, 'No longer used');
    const outcome = await vscode.commands.executeCommand<DeleteOutcome>('agentWorkbench.policies.delete', created, true);
    assert.deepEqual(outcome, { deleted: true });
    assert.equal(await policyNamed('Retired rules'), undefined);
    await assert.rejects(api.connection.requireClient().policies.get(created.policy.id), /404|not found/i);
  });
});
