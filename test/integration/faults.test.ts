// The extension against a sandbox that fails on purpose: no lost work, no duplicates, reads that recover, clear messages.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FaultRule } from '../../src/sandbox/faults/rules';
import type { PolicyNode } from '../../src/extension/policies/policyNodes';
import type { TreeNode } from '../../src/extension/tree/treeNode';
import { agentChildren, closeAllEditors, connect, errorsLogged, is, itemText, startSandbox, type TestSandbox, waitFor, withSetting, workbench } from './support/workbench';

const VERSIONS = '/v1/policies/*/versions/';

async function openPolicy(name?: string): Promise<{ editor: vscode.TextEditor; policyId: string }> {
  const api = await workbench();
  api.policies.reload();
  const nodes = ((await api.policies.provider.getChildren()) ?? []).filter((n): n is PolicyNode => is(n, 'policy'));
  const node = name ? nodes.find((n) => n.policy.name === name)! : nodes[0]!;
  const policy = await api.connection.requireClient().policies.get(node.policy.id);
  const version = await api.connection.requireClient().policies.getVersion(policy.id, policy.current_version_id!);
  const editor = await api.policyDocuments.open(policy, version);
  return { editor, policyId: policy.id };
}

async function edit(editor: vscode.TextEditor, instructions: string): Promise<string> {
  const content = { ...(JSON.parse(editor.document.getText()) as object), instructions };
  const text = JSON.stringify(content, null, 2);
  const wsEdit = new vscode.WorkspaceEdit();
  wsEdit.replace(editor.document.uri, new vscode.Range(0, 0, editor.document.lineCount, 0), text);
  assert.ok(await vscode.workspace.applyEdit(wsEdit));
  return text;
}

async function versionCount(policyId: string): Promise<number> {
  return (await (await workbench()).connection.requireClient().policies.listVersions(policyId, { page_size: 1 })).count;
}

describe('Faults', function () {
  this.timeout(180_000);
  let sandbox: TestSandbox;
  let restoreAsk: () => Promise<void>;

  before(async () => {
    sandbox = await startSandbox();
    restoreAsk = await withSetting('policies.askVersionName', false);
    await connect(sandbox);
  });

  afterEach(async () => {
    await sandbox.faults.clear();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await closeAllEditors();
    await restoreAsk();
    await sandbox.stop();
  });

  it('keeps a policy edit dirty through every fault that stops the save, and the next save makes exactly one version', async () => {
    const { editor, policyId } = await openPolicy();
    const text = await edit(editor, 'Written during an outage.');
    const before = await versionCount(policyId);
    const failing: FaultRule[] = [
      { kind: 'status', status: 500, path: VERSIONS, method: 'POST' },
      { kind: 'status', status: 502, path: VERSIONS, method: 'POST' },
      { kind: 'status', status: 503, path: VERSIONS, method: 'POST' },
      { kind: 'status', status: 429, retryAfter: 1, path: VERSIONS, method: 'POST' },
      { kind: 'reset', when: 'response', path: VERSIONS, method: 'POST' },
      { kind: 'html', status: 200, path: VERSIONS, method: 'POST' },
      { kind: 'status', status: 400, body: { content: ['Enter a valid policy.'] }, path: VERSIONS, method: 'POST' },
    ];
    for (const rule of failing) {
      await sandbox.faults.set([rule]);
      assert.equal(await editor.document.save(), false, `a save through ${JSON.stringify(rule)} fails`);
      assert.equal(editor.document.isDirty, true);
      assert.equal(editor.document.getText(), text, 'the text is intact');
    }
    assert.equal(await versionCount(policyId), before, 'no version was created by the failed saves');
    await sandbox.faults.clear();
    assert.equal(await editor.document.save(), true);
    assert.equal(await versionCount(policyId), before + 1, 'exactly one new version');
  });

  it('never repeats a save whose outcome is unknown, and reads the versions again', async () => {
    const cases: FaultRule[] = [
      { kind: 'reset', when: 'response', after: true, path: VERSIONS, method: 'POST' },
      { kind: 'status', status: 502, after: true, path: VERSIONS, method: 'POST' },
      { kind: 'truncate', path: VERSIONS, method: 'POST' },
      { kind: 'malformed', path: VERSIONS, method: 'POST' },
    ];
    for (const rule of cases) {
      const { editor, policyId } = await openPolicy();
      await edit(editor, `Saved once through ${rule.kind}.`);
      const before = await versionCount(policyId);
      await sandbox.faults.set([rule]);
      assert.equal(await editor.document.save(), false, `${rule.kind}: the save is not reported as done`);
      assert.equal(await versionCount(policyId), before + 1, `${rule.kind}: the service has exactly one new version (no automatic repeat)`);
      assert.equal(editor.document.isDirty, true, 'the text is kept');
      await sandbox.faults.clear();
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it('keeps a Create Version draft dirty through a failure, then creates it', async () => {
    const api = await workbench();
    const agent = (await agentChildren()).find((n) => is(n, 'agent'));
    assert.ok(is(agent, 'agent'));
    const before = (await api.connection.requireClient().agents.listVersions(agent.agent.id)).length;
    await vscode.commands.executeCommand('agentWorkbench.agents.createVersion', agent);
    const editor = await waitFor(() => vscode.window.activeTextEditor?.document.uri.path.startsWith('/drafts/') && vscode.window.activeTextEditor, 'the draft');
    const draft = JSON.parse(editor.document.getText()) as { version_name: string };
    draft.version_name = 'through a fault';
    const wsEdit = new vscode.WorkspaceEdit();
    wsEdit.replace(editor.document.uri, new vscode.Range(0, 0, editor.document.lineCount, 0), JSON.stringify(draft, null, 2));
    await vscode.workspace.applyEdit(wsEdit);
    await sandbox.faults.set([{ kind: 'status', status: 503, path: '/v1/agents/*/versions/', method: 'POST' }]);
    assert.equal(await editor.document.save(), false);
    assert.equal(editor.document.isDirty, true);
    await sandbox.faults.clear();
    assert.equal(await editor.document.save(), true);
    assert.equal((await api.connection.requireClient().agents.listVersions(agent.agent.id)).length, before + 1);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('rides out 429, 5xx and reset connections on reads, by itself', async () => {
    const api = await workbench();
    for (const rule of [
      { kind: 'status', status: 503, count: 2 },
      { kind: 'status', status: 429, retryAfter: 1, count: 1 },
      { kind: 'reset', when: 'response', count: 2 },
    ] as const) {
      await sandbox.faults.set([{ ...rule, path: '/v1/agents/', method: 'GET' }]);
      api.agents.reload();
      const nodes = await agentChildren();
      assert.ok(nodes.some((n) => is(n, 'agent')), `${rule.kind}: the agents show after retries`);
    }
  });

  it('shows a long outage as an error node with Retry, and comes back on Retry', async () => {
    const api = await workbench();
    await sandbox.faults.set([{ kind: 'status', status: 503, path: '/v1/agents/', method: 'GET' }]);
    api.agents.reload();
    const nodes = await agentChildren();
    const error = nodes.find((n) => is(n, 'error'));
    assert.ok(is(error, 'error'), 'an error node, not a spinner or an empty tree');
    assert.match(itemText(error).label, /unavailable \(503\)/);
    await sandbox.faults.clear();
    await vscode.commands.executeCommand('agentWorkbench.tree.retry', error);
    assert.ok((await agentChildren()).some((n) => is(n, 'agent')));
  });

  it('gives one clear message for answers that are not what the service promises', async () => {
    const api = await workbench();
    for (const rule of [{ kind: 'malformed' }, { kind: 'html' }, { kind: 'wrongTypes' }, { kind: 'truncate' }] as const) {
      await sandbox.faults.set([{ ...rule, path: '/v1/agents/', method: 'GET' }]);
      api.agents.reload();
      const error = (await agentChildren()).find((n) => is(n, 'error'));
      assert.ok(is(error, 'error'), `${rule.kind}: an error node`);
      const label = itemText(error).label;
      assert.ok(label.length < 400 && !/\n\s+at /.test(label), `${rule.kind}: one sentence, no stack: ${label}`);
    }
    await sandbox.faults.set([{ kind: 'huge', path: '/v1/agents/', method: 'GET' }]);
    api.agents.reload();
    const first = (await agentChildren())[0];
    assert.ok(is(first, 'agent'), 'a huge name still lists');
    assert.ok(itemText(first).label.length <= 200, 'and is clipped for display');
  });

  it('reports a cut upload by file and reason, keeps nothing of it, and goes on with the others', async () => {
    const api = await workbench();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-cut-'));
    const files = ['first.bin', 'second.bin'].map((name) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, Buffer.alloc(2 * 1024 * 1024, name));
      return vscode.Uri.file(file);
    });
    const personal = (await api.connection.requireClient().datasets.list({ personal: true })).results[0]!;
    const before = (await api.connection.requireClient().datasets.listFiles(personal.id, { personal: true, page_size: 500 })).results.map((f) => f.id);
    await sandbox.faults.set([{ kind: 'reset', when: 'upload', bytes: 1024 * 1024, count: 1, path: '/v1/datasets/files/upload/' }]);
    const outcomes = await api.uploads.upload(files, { dataset: personal, personal: true }, '');
    assert.equal(outcomes[0]?.ok, false);
    assert.ok((outcomes[0]?.reason ?? '').length > 0, 'the reason is given');
    assert.equal(outcomes[1]?.ok, true, 'the other file went on');
    const after = (await api.connection.requireClient().datasets.listFiles(personal.id, { personal: true, page_size: 500 })).results.filter((f) => !before.includes(f.id));
    assert.deepEqual(after.map((f) => f.name), ['second.bin'], 'nothing of the cut file is kept');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the watched jobs going through a failing status endpoint', async () => {
    const api = await workbench();
    const client = sandbox.client();
    const agent = (await client.agents.list({ page_size: 1 })).results[0]!;
    const version = await client.agents.currentVersion(agent.id);
    const jobId = await client.agents.run(agent.id, { inputs: Object.fromEntries(version.input_definitions.map((d) => [d.key, `fault ride ${Date.now()}`])) });
    await sandbox.faults.set([{ kind: 'status', status: 503, count: 3, path: '/v1/agents/jobs/statuses/' }]);
    api.stores.require().watcher.setIntervalMs(1000);
    api.stores.require().watcher.watch({ id: jobId });
    await waitFor(() => {
      const job = api.stores.require().watcher.jobs().find((j) => j.id === jobId);
      return job?.status !== undefined && [3, 4, 5, 6].includes(job.status);
    }, 'the watched job to reach its end despite the failures', 90_000);
    api.stores.require().watcher.unwatch(jobId);
  });

  it('keeps the rows of a Jobs list while Refresh reads it again, and redraws it only with the answer', async () => {
    // VS Code forgets a node's rows from the moment it is redrawn until its children are answered: a
    // redraw that waited on the service left a click on a row's Watch Job with no row (an ID prompt).
    const api = await workbench();
    api.agents.reload();
    const agent = (await agentChildren()).find((n) => is(n, 'agent') && n.agent.name === 'Refund Request Reviewer')!;
    const jobs = (await agentChildren(agent)).find((n) => is(n, 'agentJobs'))!;
    const before = (await agentChildren(jobs)).filter((n) => is(n, 'job'));
    assert.ok(before.length > 0, 'the agent has jobs');
    await sandbox.faults.set([{ kind: 'latency', ms: 4000, path: '/v1/agents/*/jobs/', method: 'GET' }]);
    const redrawn: (TreeNode | undefined)[] = [];
    const listening = api.agents.provider.onDidChangeTreeData((node) => redrawn.push(node ?? undefined));
    try {
      await vscode.commands.executeCommand('agentWorkbench.agents.refreshNode', jobs);
      const during = (await agentChildren(jobs)).filter((n) => is(n, 'job'));
      assert.ok(!redrawn.includes(jobs) && !redrawn.includes(undefined), 'nothing is redrawn before the answer');
      assert.deepEqual(during, before, 'the same rows, the same nodes, while the list is read again');
      await waitFor(() => redrawn.includes(jobs), 'the Jobs list redrawn with the answer', 30_000);
      const after = (await agentChildren(jobs)).filter((n) => is(n, 'job'));
      assert.equal(after[0], before[0], 'a row still listed keeps its node');
    } finally {
      listening.dispose();
    }
  });

  it('logs no error for the lists a switch of connection cut short, and the view then shows the new connection', async () => {
    const api = await workbench();
    // Every versions and jobs list answers slowly, so more of them are asked at once than the client
    // sends at a time: some are in flight and the rest queued when the connection changes.
    await sandbox.faults.set([
      { kind: 'latency', ms: 1500, path: '/v1/agents/*/versions/', method: 'GET' },
      { kind: 'latency', ms: 1500, path: '/v1/agents/*/jobs/', method: 'GET' },
    ]);
    api.agents.reload();
    const agents = (await agentChildren()).filter((n) => is(n, 'agent'));
    const groups = (await Promise.all(agents.map((agent) => agentChildren(agent)))).flat().filter((n) => is(n, 'agentVersions') || is(n, 'agentJobs'));
    assert.ok(groups.length > 6, `more lists (${groups.length}) than requests sent at a time`);
    const other = await startSandbox();
    try {
      const errors = await errorsLogged(async () => {
        const loads = groups.map((group) => agentChildren(group));
        await connect(other);
        await Promise.all(loads);
      });
      assert.deepEqual(errors, [], 'a list cut short by the switch is not a failure');
      api.agents.reload();
      const shown = await agentChildren();
      assert.ok(shown.some((n) => is(n, 'agent')) && !shown.some((n) => is(n, 'error')), 'the view shows the new connection');
    } finally {
      await connect(sandbox);
      await other.stop();
    }
  });

  it('never sends the token to the host named in a foreign next link', async () => {
    const api = await workbench();
    const seen: string[] = [];
    const foreign = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.end('{}');
    });
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    const port = (foreign.address() as { port: number }).port;
    try {
      const restore = await withSetting('pageSize', 5);
      await sandbox.faults.set([{ kind: 'foreignNext', origin: `http://127.0.0.1:${port}`, path: '/v1/agents/', method: 'GET' }]);
      api.agents.reload();
      const first = await agentChildren();
      const more = first.find((n) => is(n, 'loadMore'));
      assert.ok(is(more, 'loadMore'));
      await vscode.commands.executeCommand('agentWorkbench.tree.loadMore', more);
      const all = await agentChildren();
      assert.ok(all.filter((n) => is(n, 'agent')).length > 5, 'the next page came from the configured service');
      assert.deepEqual(seen, [], 'the foreign host received nothing');
      await restore();
    } finally {
      foreign.close();
    }
  });
});
