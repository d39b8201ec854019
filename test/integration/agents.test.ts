// The Agents view against a real sandbox, in a real extension host: lists, paging, filters, errors and agent commands.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentNode, VersionNode } from '../../src/extension/agents/agentNodes';
import type { JobNode } from '../../src/extension/agents/jobNodes';
import { Stores } from '../../src/extension/store/stores';
import { is, agentChildren, connect, itemText, startSandbox, waitFor, withSetting, workbench, type TestSandbox } from './support/workbench';

/** The agent of that name, loading more pages when it is not on the first one (as a user would). */
const byName = async (name: string): Promise<AgentNode> => {
  for (let pages = 0; pages < 20; pages++) {
    const roots = await agentChildren();
    const node = roots.find((n): n is AgentNode => is(n, 'agent') && n.agent.name === name);
    if (node) return node;
    const more = roots.find((n) => is(n, 'loadMore'));
    assert.ok(more, `no agent named ${name} among ${roots.map((n) => itemText(n).label).join(', ')}`);
    await vscode.commands.executeCommand('agentWorkbench.tree.loadMore', more);
  }
  throw new Error(`no agent named ${name}`);
};

describe('Agents view', function () {
  let sandbox: TestSandbox;
  let restorePageSize: () => Promise<void>;

  before(async () => {
    sandbox = await startSandbox();
    restorePageSize = await withSetting('pageSize', 5);
    await connect(sandbox);
    await vscode.commands.executeCommand('agentWorkbench.agents.clearFilter');
  });

  after(async () => {
    await vscode.commands.executeCommand('agentWorkbench.agents.clearFilter');
    await restorePageSize();
    await sandbox.stop();
  });

  it('lists agents with engine, job count, last job and tags', async () => {
    const qa = await byName('Support Call QA');
    const { description, icon } = itemText(qa);
    assert.match(description, /Conversation|conversation/);
    assert.match(description, /\d[\d,]* jobs?/);
    assert.match(description, /last (just now|\d+ (min|h|d) ago|\d{4}-\d\d-\d\d)/);
    assert.equal(icon, 'hubot');
    const tooltip = qa.getTreeItem().tooltip as vscode.MarkdownString;
    assert.match(tooltip.value, /Agent ID/);
    assert.match(tooltip.value, /Cache/);
  });

  it('reads one page at a time and loads more from the "Load more" node', async () => {
    const api = await workbench();
    api.agents.reload();
    const first = await agentChildren();
    const more = first.at(-1);
    assert.ok(is(more, 'loadMore'), 'the last node offers to load more');
    assert.equal(first.filter((n) => is(n, 'agent')).length, 5);
    assert.match(itemText(more).label, /Load more… \(\d+ remaining\)/);
    await vscode.commands.executeCommand('agentWorkbench.tree.loadMore', more);
    const second = await agentChildren();
    assert.ok(second.filter((n) => is(n, 'agent')).length > 5);
  });

  it('searches through the service and shows the search in the view description, cleared in one click', async () => {
    const api = await workbench();
    await vscode.commands.executeCommand('agentWorkbench.agents.search', 'refund');
    const found = (await agentChildren()).filter((n) => is(n, 'agent'));
    assert.deepEqual(found.map((n) => (n).agent.name), ['Refund Request Reviewer']);
    assert.match(api.agents.treeView.description ?? '', /“refund”/);
    await vscode.commands.executeCommand('agentWorkbench.agents.clearFilter');
    assert.doesNotMatch(api.agents.treeView.description ?? '', /refund/);
    assert.ok((await agentChildren()).filter((n) => is(n, 'agent')).length >= 5);
  });

  it('filters by engine and can skip job statistics', async () => {
    const api = await workbench();
    await api.agents.setFilter({ engines: ['document_classifier'], skipJobStats: true });
    const nodes = (await agentChildren()).filter((n): n is AgentNode => is(n, 'agent'));
    assert.ok(nodes.length >= 2);
    assert.ok(nodes.every((n) => n.agent.engine_class_id === 'document_classifier'));
    assert.ok(nodes.every((n) => n.agent.job_count === null || n.agent.job_count === undefined), 'no job counts when statistics are skipped');
    assert.match(api.agents.treeView.description ?? '', /engine: document_classifier · no job stats/);
    await api.agents.setFilter({});
  });

  it('says so when nothing matches, instead of an empty tree', async () => {
    await vscode.commands.executeCommand('agentWorkbench.agents.search', 'no agent is called this');
    const nodes = await agentChildren();
    assert.equal(nodes.length, 1);
    assert.ok(is(nodes[0], 'empty'));
    assert.equal(itemText(nodes[0]).label, 'No agents match the filter');
    await vscode.commands.executeCommand('agentWorkbench.agents.clearFilter');
  });

  it('shows the versions of an agent, newest first, the current one marked', async () => {
    const qa = await byName('Support Call QA');
    const versions = (await agentChildren(qa.versions)).filter((n): n is VersionNode => is(n, 'agentVersion'));
    assert.ok(versions.length >= 2);
    const times = versions.map((v) => Date.parse(v.version.created_at));
    assert.deepEqual(times, [...times].sort((a, b) => b - a));
    const current = versions.filter((v) => v.isCurrent);
    assert.equal(current.length, 1);
    assert.match(itemText(current[0]!).description, /^current/);
    assert.equal(itemText(current[0]!).icon, 'star-full');
  });

  it('shows jobs newest first with a status icon, and filters them by status on the Jobs node', async () => {
    const qa = await byName('Support Call QA');
    const jobs = (await agentChildren(qa.jobs)).filter((n): n is JobNode => is(n, 'job'));
    assert.ok(jobs.length > 0);
    const created = jobs.map((j) => Date.parse(j.job.created_at));
    assert.deepEqual(created, [...created].sort((a, b) => b - a));
    await vscode.commands.executeCommand('agentWorkbench.jobs.filter', qa.jobs, { statuses: [4] });
    const failed = (await agentChildren(qa.jobs)).filter((n): n is JobNode => is(n, 'job'));
    assert.ok(failed.length > 0, 'the demo has failed jobs');
    assert.ok(failed.every((j) => j.job.status_code === 4));
    assert.ok(failed.every((j) => itemText(j).icon === 'error'));
    const jobsItem = itemText(qa.jobs);
    assert.equal(jobsItem.contextValue, 'agentJobs.filtered');
    assert.match(jobsItem.description, /FAILURE/);
    await vscode.commands.executeCommand('agentWorkbench.jobs.clearFilter', qa.jobs);
    assert.equal(itemText(qa.jobs).contextValue, 'agentJobs');
  });

  it('labels each job the same after a window reload as before it', async () => {
    const api = await workbench();
    const qa = await byName('Support Call QA');
    const rows = (await agentChildren(qa.jobs)).filter((n): n is JobNode => is(n, 'job'));
    assert.ok(rows.length > 0);
    const shown = rows.map((row) => [row.jobId, itemText(row).label]);
    // The labels are stored a moment after they are made; the next window builds its store on the same workspace state.
    await waitFor(() => {
      const stored = JSON.stringify(api.workspaceState.keys().filter((k) => k.startsWith('agentWorkbench.jobs.labels:')).map((k) => api.workspaceState.get(k)));
      return shown.every(([, label]) => stored.includes(JSON.stringify(label)));
    }, 'the labels shown stored for the next window');
    const next = new Stores({ workspaceState: api.workspaceState } as vscode.ExtensionContext, api.connection, api.log);
    try {
      const labels = next.require().labels;
      // The next window knows no list yet: what a label says comes from what this window showed.
      assert.deepEqual(rows.map((row) => [row.jobId, labels.shownLabel(row.jobId, undefined)]), shown);
    } finally {
      next.dispose();
    }
  });

  it('keeps a new job up to date by itself until it finishes, spinning while it runs', async function () {
    this.timeout(60_000);
    const agent = await byName('Refund Request Reviewer');
    const client = sandbox.client();
    const version = await client.agents.currentVersion(agent.agent.id);
    const inputs = Object.fromEntries(version.input_definitions.map((d) => [d.key, 'Customer asks for a refund of $20.']));
    const jobId = await client.agents.run(agent.agent.id, { inputs });
    await agent.jobs.reload();
    await vscode.commands.executeCommand('workbench.view.extension.agentWorkbench');
    const node = await waitFor(async () => (await agentChildren(agent.jobs)).find((n): n is JobNode => is(n, 'job') && n.job.id === jobId), 'the new job in the list');
    assert.equal(itemText(node).icon, 'loading~spin');
    await waitFor(() => [3, 4, 5, 6].includes(node.job.status_code), 'the job to reach a final status without a refresh', 30_000);
    assert.notEqual(itemText(node).icon, 'loading~spin');
  });

  it("brings the agent row's job count and last job up to date when its Jobs list learns of a new job", async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('agentWorkbench.agents.refresh');
    const agent = await byName('Refund Request Reviewer');
    const before = agent.agent.job_count as number;
    assert.equal(typeof before, 'number');
    const client = sandbox.client();
    const version = await client.agents.currentVersion(agent.agent.id);
    const jobId = await client.agents.run(agent.agent.id, { inputs: Object.fromEntries(version.input_definitions.map((d) => [d.key, 'Refund of $5, please.'])) });
    // Someone started a job (another command, another window): the Jobs list reloads and sees it.
    await agent.jobs.reload();
    await waitFor(async () => (await agentChildren(agent.jobs)).some((n) => is(n, 'job') && (n).job.id === jobId), 'the new job in the list');
    assert.equal(agent.agent.job_count, before + 1);
    assert.match(itemText(agent).description, new RegExp(`${(before + 1).toLocaleString('en-US')} jobs? · last just now`));
  });

  it('renames an agent and toggles its cache settings, shown in the tree at once', async () => {
    const node = await byName('Invoice Classifier');
    const before = node.agent;
    await vscode.commands.executeCommand('agentWorkbench.agents.editSettings', node, { name: 'Invoice Classifier (EU)', disable_cache: !before.disable_cache });
    assert.equal(itemText(node).label, 'Invoice Classifier (EU)');
    assert.equal(node.agent.disable_cache, !before.disable_cache);
    const again = await (await workbench()).connection.requireClient().agents.get(before.id);
    assert.equal(again.name, 'Invoice Classifier (EU)');
    await vscode.commands.executeCommand('agentWorkbench.agents.editSettings', node, { name: before.name, disable_cache: before.disable_cache });
  });

  it('duplicates an agent and reveals the new one at the top', async () => {
    const api = await workbench();
    const node = await byName('KYC Document Sorter');
    await vscode.commands.executeCommand('agentWorkbench.agents.duplicate', node, 'KYC Document Sorter – trial');
    const roots = await agentChildren();
    const first = roots[0];
    assert.ok(is(first, 'agent'));
    assert.equal(first.agent.name, 'KYC Document Sorter – trial');
    assert.equal(itemText(first).icon, 'sparkle');
    assert.equal(api.agents.treeView.selection[0], first);
  });

  it('opens a version as a read-only JSON document with a readable title', async () => {
    const qa = await byName('Support Call QA');
    const version = (await agentChildren(qa.versions)).find((n): n is VersionNode => is(n, 'agentVersion'));
    assert.ok(version);
    await vscode.commands.executeCommand('agentWorkbench.agents.openVersion', version);
    const editor = await waitFor(() => vscode.window.activeTextEditor?.document.uri.scheme === 'agent-workbench-view' && vscode.window.activeTextEditor, 'the version editor');
    assert.equal(editor.document.languageId, 'json');
    assert.match(editor.document.uri.path, /Support Call QA · .+\.json$/);
    const parsed = JSON.parse(editor.document.getText()) as Record<string, unknown>;
    assert.ok(Array.isArray(parsed.input_definitions));
    assert.ok(parsed.engine_config && typeof parsed.engine_config === 'object');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('compares two versions of an agent in a diff editor', async () => {
    const qa = await byName('Support Call QA');
    const [a, b] = (await agentChildren(qa.versions)).filter((n): n is VersionNode => is(n, 'agentVersion'));
    assert.ok(a && b);
    await vscode.commands.executeCommand('agentWorkbench.agents.compareVersions', b, a.version.id);
    const tab = await waitFor(() => vscode.window.tabGroups.activeTabGroup.activeTab, 'the diff tab');
    assert.ok(tab.input instanceof vscode.TabInputTextDiff);
    assert.match(tab.label, /Support Call QA: .+ ↔ .+/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('opens Create Agent Version… on an agent’s Versions row as a draft of that agent, without asking which agent', async () => {
    const qa = await byName('Support Call QA');
    await vscode.commands.executeCommand('agentWorkbench.agents.createVersion', qa.versions);
    const editor = await waitFor(() => vscode.window.activeTextEditor?.document.uri.path.startsWith('/drafts/') && vscode.window.activeTextEditor, 'the draft (a quick pick asking which agent would hold it back)');
    assert.match(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '', /Support Call QA/);
    assert.ok(editor.document.uri.path.includes(qa.agent.id), `the draft is of Support Call QA: ${editor.document.uri.toString()}`);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('renames a version and deletes one that is not current, after asking; the current version is never deleted', async () => {
    const client = sandbox.client();
    const made = await client.agents.create({ name: 'Version Cleanup', engine_class_id: 'llm_conversation_reviewer', version_name: 'first draft' });
    await client.agents.createVersion(made.id, { version_name: 'second draft', input_definitions: [{ key: 'transcript', data_type: 'text/plain' }], engine_config: {} });
    await vscode.commands.executeCommand('agentWorkbench.agents.refresh');
    const agent = await byName('Version Cleanup');
    const versionNodes = async () => (await agentChildren(agent.versions)).filter((n): n is VersionNode => is(n, 'agentVersion'));
    const [current, old] = await versionNodes();
    assert.ok(current && old);
    assert.deepEqual([itemText(current).contextValue, itemText(old).contextValue], ['agentVersion.current', 'agentVersion']);

    await vscode.commands.executeCommand('agentWorkbench.agents.renameVersion', old, 'Kept for reference');
    assert.equal((await client.agents.getVersion(made.id, old.version.id)).version_name, 'Kept for reference');
    await waitFor(async () => (await versionNodes()).some((n) => itemText(n).label === 'Kept for reference'), 'the renamed row');

    await vscode.commands.executeCommand('agentWorkbench.agents.deleteVersion', current, true);
    assert.equal((await client.agents.listVersions(made.id)).length, 2, 'the current version is refused before anything is sent');

    await vscode.commands.executeCommand('agentWorkbench.agents.deleteVersion', old, true);
    assert.deepEqual((await client.agents.listVersions(made.id)).map((v) => v.version_name), ['second draft']);
    await waitFor(async () => (await versionNodes()).length === 1, 'the Versions list without the deleted one');
    await client.agents.delete(made.id);
  });

  it('opens a job as a rendered view with inputs, status events and evaluation', async () => {
    const api = await workbench();
    const qa = await byName('Support Call QA');
    const job = (await agentChildren(qa.jobs)).find((n): n is JobNode => is(n, 'job') && n.job.status_code === 3);
    assert.ok(job, 'a finished demo job');
    await vscode.commands.executeCommand('agentWorkbench.jobs.open', job);
    const model = await waitFor(() => api.jobViews.debugState(job.job.id)?.model, 'the job view');
    assert.equal(model.jobId, job.job.id);
    assert.ok(model.inputs.length > 0, 'inputs');
    assert.ok(model.timeline.length > 0, 'status events');
    assert.equal(Boolean(model.evaluation), Boolean(job.job.evaluation), 'the evaluation when the job has one');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    // The page had the keyboard focus; give it back to the workbench (the browser's clipboard needs it).
    await vscode.commands.executeCommand('workbench.action.focusSideBar');
  });

  it('copies the ID of any node', async () => {
    const qa = await byName('Support Call QA');
    await vscode.commands.executeCommand('agentWorkbench.copyId', qa);
    assert.equal(await vscode.env.clipboard.readText(), qa.agent.id);
  });

  it('shows a service failure as an error node with Retry, and recovers', async function () {
    this.timeout(90_000); // reads are retried with backoff (bounded at 30 s) before the error shows
    const api = await workbench();
    const broken = await startSandbox();
    await connect(broken);
    await broken.stop();
    api.agents.reload();
    const nodes = await agentChildren();
    const error = nodes.at(-1);
    assert.ok(is(error, 'error'), `expected an error node, got ${nodes.map((n) => itemText(n).label).join(', ')}`);
    assert.equal(error.getTreeItem().command?.command, 'agentWorkbench.tree.retry');
    await connect(sandbox);
    const back = await agentChildren();
    assert.ok(back.some((n) => is(n, 'agent')));
  });
});

