// What every tree shares, against a sandbox that repeats items and fails: no answer blanks a view.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TreeNode } from '../../src/extension/tree/treeNode';
import { agentChildren, connect, is, startSandbox, waitFor, withSetting, workbench, type TestSandbox } from './support/workbench';

/** Every id of the nodes below `parent` (and `parent` itself), as VS Code registers them while drawing. */
async function allIds(provider: vscode.TreeDataProvider<TreeNode>, parent?: TreeNode): Promise<string[]> {
  const children = (await provider.getChildren(parent)) ?? [];
  const ids = children.map((node) => node.id);
  for (const child of children) if (child.getChildren && (is(child, 'dataset') || is(child, 'agentJobs'))) ids.push(...(await allIds(provider, child)));
  return ids;
}

function repeated(ids: string[]): string[] {
  return ids.filter((id, i) => ids.indexOf(id) !== i);
}

describe('Trees', function () {
  this.timeout(90_000);
  let sandbox: TestSandbox;

  before(async () => {
    sandbox = await startSandbox();
    await connect(sandbox);
  });

  afterEach(async () => {
    await sandbox.faults.clear();
  });

  after(async () => {
    await sandbox.stop();
  });

  it('shows a dataset once when the service lists it both as personal and in the organization', async () => {
    const api = await workbench();
    const personal = (await api.connection.requireClient().datasets.list({ personal: true })).results[0];
    assert.ok(personal, 'the sandbox gives the user a personal dataset');
    await sandbox.faults.set([{ kind: 'insert', item: personal, at: 0, path: '/v1/datasets/', method: 'GET' }]);
    api.datasets.reload();
    const roots = (await api.datasets.provider.getChildren()) ?? [];
    assert.deepEqual(repeated(roots.map((n) => n.id)), [], 'no id is registered twice');
    const shown = roots.filter((n) => is(n, 'dataset') && n.dataset.id === personal.id);
    assert.equal(shown.length, 1, 'the dataset is shown once');
    assert.ok(roots.filter((n) => is(n, 'dataset')).length > 1, 'the organization datasets are still shown');
  });

  it('shows an item once when a page repeats it, in every view and under every parent', async () => {
    const api = await workbench();
    await sandbox.faults.set([
      { kind: 'insert', path: '/v1/agents/', method: 'GET' },
      { kind: 'insert', path: '/v1/agents/*/jobs/', method: 'GET' },
      { kind: 'insert', path: '/v1/policies/', method: 'GET' },
      { kind: 'insert', path: '/v1/datasets/', method: 'GET' },
      { kind: 'insert', path: '/v1/datasets/*/files/', method: 'GET' },
      { kind: 'insert', path: '/v1/tables/', method: 'GET' },
    ]);
    api.agents.reload();
    api.policies.reload();
    api.datasets.reload();
    api.tables.reload();
    const agents = await agentChildren();
    assert.deepEqual(repeated(agents.map((n) => n.id)), [], 'agents');
    const agent = agents.find((n) => is(n, 'agent'));
    assert.ok(is(agent, 'agent'));
    assert.deepEqual(repeated((await agentChildren(agent.jobs)).map((n) => n.id)), [], 'jobs');
    assert.deepEqual(repeated(((await api.policies.provider.getChildren()) ?? []).map((n) => n.id)), [], 'policies');
    assert.deepEqual(repeated(await allIds(api.datasets.provider)), [], 'datasets and their files');
    const tables = (await api.tables.provider.getChildren()) ?? [];
    assert.ok(tables.some((n) => is(n, 'table')), 'the tables are shown');
    assert.deepEqual(repeated(tables.map((n) => n.id)), [], 'tables');
  });

  it('shows a job once when a new job arrives between two pages', async () => {
    await workbench();
    const restore = await withSetting('pageSize', 5);
    try {
      const agent = (await agentChildren()).find((n): n is TreeNode & { agent: { id: string } } => is(n, 'agent') && (n.agent.job_count ?? 0) > 6);
      assert.ok(is(agent, 'agent'), 'an agent with more than one page of jobs');
      // The rows shown stay while the list is read again: wait for the first page of five.
      await agent.jobs.reload();
      const first = await agentChildren(agent.jobs);
      assert.ok(first.filter((n) => is(n, 'job')).length <= 5, 'the first page, of five');
      const lastOfFirst = first.filter((n) => is(n, 'job')).at(-1);
      assert.ok(is(lastOfFirst, 'job'));
      await sandbox.faults.set([{ kind: 'insert', item: lastOfFirst.job, at: 0, count: 1, path: '/v1/agents/*/jobs/', method: 'GET' }]);
      await agent.jobs.list.loadMore();
      const both = await agentChildren(agent.jobs);
      assert.deepEqual(repeated(both.map((n) => n.id)), []);
      assert.equal(both.filter((n) => is(n, 'job') && n.job.id === lastOfFirst.job.id).length, 1);
    } finally {
      await restore();
    }
  });

  for (const [name, path_, kind] of [['Policies', '/v1/policies/', 'policy'], ['Tables', '/v1/tables/', 'table']] as const) {
    it(`writes every failure of the ${name} view to the log, and shows it as a node with Retry`, async () => {
      const api = await workbench();
      const view = name === 'Policies' ? api.policies : api.tables;
      const detail = `${name.toLowerCase()} are resting`;
      await sandbox.faults.set([{ kind: 'status', status: 500, body: { detail }, path: path_, method: 'GET' }]);
      view.reload();
      const roots = (await view.provider.getChildren()) ?? [];
      const error = roots.find((n) => is(n, 'error'));
      assert.ok(is(error, 'error'), 'an error node');
      const logFile = path.join(api.logUri.fsPath, 'Agent Workbench.log');
      await waitFor(() => fs.existsSync(logFile) && new RegExp(`${name} view.*${detail}`).test(fs.readFileSync(logFile, 'utf8')), 'the failure in the log');
      await sandbox.faults.clear();
      await vscode.commands.executeCommand('agentWorkbench.tree.retry', error);
      await waitFor(async () => ((await view.provider.getChildren()) ?? []).some((n) => is(n, kind)), 'Retry shows the list');
    });
  }

  it('keeps the search of the Policies and Datasets views for the workspace, like the Agents filter', async () => {
    const api = await workbench();
    await vscode.commands.executeCommand('agentWorkbench.policies.search', 'zzz-kept');
    await vscode.commands.executeCommand('agentWorkbench.datasets.search', 'yyy-kept');
    try {
      assert.equal(api.policies.searchText, 'zzz-kept');
      assert.equal(api.datasets.searchText, 'yyy-kept');
      assert.equal(api.policies.rememberedFilter(), 'zzz-kept', 'the search is stored for the workspace');
      assert.equal(api.datasets.rememberedFilter(), 'yyy-kept');
    } finally {
      await vscode.commands.executeCommand('agentWorkbench.policies.clearSearch');
      await vscode.commands.executeCommand('agentWorkbench.datasets.clearSearch');
    }
    assert.equal(api.policies.rememberedFilter(), undefined);
  });
});
