// The job view against a real sandbox, in a real extension host: a finished job's outputs, results in
// bulk (requests counted at the wire), a job opened by ID, and a job followed until it finishes.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startCountingProxy, type CountingProxy } from '../../bench/lib/countingProxy';
import type { AgentNode } from '../../src/extension/agents/agentNodes';
import type { JobNode } from '../../src/extension/agents/jobNodes';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_DISPOSITION_BEFORE, DEMO_LOOP_INPUTS } from '../../src/sandbox/seed/demoLoop';
import { agentChildren, closeAllEditors, connect, is, itemText, startSandbox, type TestSandbox, waitFor, workbench } from './support/workbench';

const FINAL = [3, 4, 5, 6];

describe('Job view', function () {
  this.timeout(120_000);
  let sandbox: TestSandbox;
  let proxy: CountingProxy;

  before(async () => {
    sandbox = await startSandbox();
    proxy = await startCountingProxy(sandbox.baseUrl);
    await connect({ ...sandbox, baseUrl: proxy.url });
  });

  after(async () => {
    await vscode.commands.executeCommand('agentWorkbench.agents.clearFilter');
    await closeAllEditors();
    await proxy.close();
    await sandbox.stop();
  });

  /** Starts a job of the demo's Support Call QA and waits until the service says it is final. */
  async function finishedJob(inputs: Record<string, string> = { ...DEMO_LOOP_INPUTS }): Promise<string> {
    const client = sandbox.client();
    const jobId = await client.agents.run(DEMO_LOOP_AGENT_ID, { inputs });
    await waitFor(async () => FINAL.includes((await client.jobs.status(jobId)).status), 'the job to finish', 60_000);
    return jobId;
  }

  async function qaNode(): Promise<AgentNode> {
    const api = await workbench();
    await api.agents.setFilter({ search: 'Support Call QA' });
    const node = (await agentChildren()).find((n): n is AgentNode => is(n, 'agent') && n.agent.id === DEMO_LOOP_AGENT_ID);
    assert.ok(node, 'Support Call QA is listed');
    return node;
  }

  it('opens a finished job from its row as a rendered view with its outputs, tokens and cost', async () => {
    const api = await workbench();
    const jobId = await finishedJob();
    const qa = await qaNode();
    await qa.jobs.reload();
    const row = await waitFor(async () => (await agentChildren(qa.jobs)).find((n): n is JobNode => is(n, 'job') && n.job.id === jobId), 'the job row');
    assert.match(itemText(row).label, /^“/, 'the row is labelled by its input');
    assert.match(itemText(row).description, new RegExp(`→ ${DEMO_LOOP_DISPOSITION_BEFORE}`), 'the row shows the verdict');
    proxy.reset();
    await vscode.commands.executeCommand('agentWorkbench.jobs.open', row);
    const shown = await waitFor(() => api.jobViews.debugState(jobId)?.report?.outputs.length && api.jobViews.debugState(jobId), 'the page to paint the outputs');
    const model = shown.model;
    assert.ok(model);
    assert.equal(model.status.final, true);
    assert.deepEqual(model.outputs.map((o) => o.key).sort(), ['disposition', 'evidence_data', 'matched_rules', 'policy', 'summary']);
    assert.equal(model.outputs.find((o) => o.key === 'disposition')?.value.text, DEMO_LOOP_DISPOSITION_BEFORE);
    assert.equal(model.outputs.find((o) => o.key === 'matched_rules')?.value.kind, 'json');
    assert.deepEqual(model.artifacts, [{ name: 'rule_checks', key: `agent-job-${jobId}/rule_checks.json` }], 'the artifact evidence_data names');
    assert.deepEqual(model.usage.map((f) => f.label), ['Tokens in', 'Tokens out', 'Cost']);
    assert.ok(shown.report?.outputs.some((text) => text.includes(DEMO_LOOP_DISPOSITION_BEFORE)), 'the disposition is on screen');
    assert.equal(shown.report?.foreignElements, 0);
    const counts = proxy.counts();
    assert.equal(counts['POST /v1/agents/jobs/results/'], 1, JSON.stringify(counts));
    assert.ok(!Object.keys(counts).some((route) => route.startsWith('GET /v1/agents/{id}/jobs/')), `no list request: ${JSON.stringify(counts)}`);
  });

  it('opens one panel per job: opening it again reveals it', async () => {
    const api = await workbench();
    const jobId = await finishedJob();
    const before = vscode.window.tabGroups.all.flatMap((g) => g.tabs).length;
    await vscode.commands.executeCommand('agentWorkbench.jobs.open', { agentId: DEMO_LOOP_AGENT_ID, jobId });
    await vscode.commands.executeCommand('agentWorkbench.jobs.open', { agentId: DEMO_LOOP_AGENT_ID, jobId });
    await waitFor(() => api.jobViews.debugState(jobId)?.report, 'the page');
    assert.equal(vscode.window.tabGroups.all.flatMap((g) => g.tabs).length, before + 1);
  });

  it('reads the results of several job views opened at once in one request, and opens jobs by ID without the list', async () => {
    const api = await workbench();
    const ids = [await finishedJob({ ...DEMO_LOOP_INPUTS, language: 'de' }), await finishedJob({ ...DEMO_LOOP_INPUTS, language: 'fr' }), await finishedJob({ ...DEMO_LOOP_INPUTS, language: 'es' })];
    proxy.reset();
    await Promise.all(ids.map((jobId) => vscode.commands.executeCommand('agentWorkbench.jobs.open', { agentId: DEMO_LOOP_AGENT_ID, jobId })));
    for (const jobId of ids) await waitFor(() => api.jobViews.debugState(jobId)?.model?.outputs.length, `the outputs of ${jobId}`);
    const counts = proxy.counts();
    assert.equal(counts['POST /v1/agents/jobs/results/'], 1, JSON.stringify(counts));
    assert.equal(counts['GET /v1/agents/jobs/{id}/result/'] ?? 0, 0, 'never one result request per job');
    // The job records come with one read of the agent's newest jobs, shared by the three views (never the list's job_id filter).
    assert.ok((counts['GET /v1/agents/{id}/jobs/'] ?? 0) <= 1, `one read of the newest jobs at most: ${JSON.stringify(counts)}`);
    assert.ok(!proxy.paths().some((p) => /[?&]job_id=/.test(p)), 'never the job_id filter');
    for (const jobId of ids) assert.equal(api.jobViews.debugState(jobId)?.model?.jobId, jobId, 'each view shows its own job');
  });

  it('follows a running job until it finishes and then shows its outputs', async () => {
    const api = await workbench();
    const client = sandbox.client();
    // `[slow]` keeps the sandbox's job running for many steps, so the view surely opens on a running job.
    const jobId = await client.agents.run(DEMO_LOOP_AGENT_ID, { inputs: { ...DEMO_LOOP_INPUTS, transcript: `${DEMO_LOOP_INPUTS.transcript} [slow] [ok]`, language: 'it' } });
    await vscode.commands.executeCommand('agentWorkbench.jobs.open', { agentId: DEMO_LOOP_AGENT_ID, jobId });
    const running = await waitFor(() => api.jobViews.debugState(jobId)?.model, 'the view');
    assert.equal(running.status.final, false, 'the view opens on the running job');
    assert.ok(running.actions.cancel, 'a running job can be cancelled from its view');
    assert.equal(running.outputs.length, 0, 'no outputs while it runs');
    const done = await waitFor(() => api.jobViews.debugState(jobId)?.model?.outputs.length && api.jobViews.debugState(jobId)?.model, 'the outputs after the job finished', 60_000);
    assert.equal(done.status.final, true);
    assert.ok(done.timeline.length > 0);
  });

  it('opens a job watched by its pasted ID with its version’s name, its status and the reason it failed', async () => {
    const api = await workbench();
    const jobId = await finishedJob({ ...DEMO_LOOP_INPUTS, transcript: `${DEMO_LOOP_INPUTS.transcript} [fail]` });
    const reason = (await api.connection.requireClient().jobs.status(jobId)).error_message;
    assert.ok(reason, 'the status endpoint gives a reason');
    await vscode.commands.executeCommand('agentWorkbench.jobs.watch', { jobId });
    const watcher = api.stores.require().watcher;
    await waitFor(() => watcher.jobs().find((j) => j.id === jobId && j.agentId && j.status !== undefined), 'the watched job’s agent and status');
    await vscode.commands.executeCommand('agentWorkbench.jobs.open', { agentId: DEMO_LOOP_AGENT_ID, jobId });
    const model = await waitFor(() => {
      const shown = api.jobViews.debugState(jobId)?.model;
      // The view may first show what the watcher knew (one pending entry) before the status is read.
      return shown?.timeline.some((entry) => entry.error === reason) && shown.header.find((f) => f.label === 'Version')?.value !== 'unknown version' ? shown : undefined;
    }, 'the view with the failure reason in its timeline, and its version');
    const version = model.header.find((f) => f.label === 'Version')!.value;
    assert.doesNotMatch(version, /^[0-9a-f]{8}-[0-9a-f]{4}-/, `the version is named, not its ID: ${version}`);
    watcher.unwatch(jobId);
  });

  it('shows a job pasted under another agent (Open Job → an agent → another agent’s job ID) with its own agent and version name', async () => {
    const api = await workbench();
    const client = api.connection.requireClient();
    // Inputs no earlier test sent: a job answered from the cache is another story (its record is the cached one's).
    const jobId = await finishedJob({ ...DEMO_LOOP_INPUTS, transcript: `${DEMO_LOOP_INPUTS.transcript}\nAgent: pasted ${Date.now().toString(36)}.`, language: 'pt' });
    // A seeded agent of the demo, not whichever comes first (earlier suites make and delete agents of their own).
    const other = (await client.agents.list({ search: 'Invoice Classifier', page_size: 50 })).results.find((a) => a.id !== DEMO_LOOP_AGENT_ID && a.name === 'Invoice Classifier');
    assert.ok(other, 'another agent');
    await vscode.commands.executeCommand('agentWorkbench.jobs.open', { agentId: other.id, jobId });
    const model = await waitFor(() => {
      const shown = api.jobViews.debugState(jobId)?.model;
      return shown?.agentId === DEMO_LOOP_AGENT_ID && shown.header.find((f) => f.label === 'Version')?.value !== 'unknown version' ? shown : undefined;
    }, 'the view under the job’s own agent, its version named', 45_000);
    assert.equal(model.agentName, 'Support Call QA');
    assert.match(model.title, /Support Call QA/);
    const version = model.header.find((f) => f.label === 'Version')!.value;
    assert.doesNotMatch(version, /^[0-9a-f]{8}-[0-9a-f]{4}-/, `the version is named, not its ID: ${version}`);
  });

  it('brings a job view back after a reload even when its page never saved its state (opened behind another view)', async () => {
    const api = await workbench();
    const jobId = await finishedJob({ ...DEMO_LOOP_INPUTS, language: 'sv' });
    await vscode.commands.executeCommand('agentWorkbench.jobs.open', { agentId: DEMO_LOOP_AGENT_ID, jobId });
    const title = (await waitFor(() => api.jobViews.debugState(jobId)?.model, 'the view')).title;
    const keptViews = (): { jobId: string }[] => api.workspaceState.get<{ jobId: string }[]>('agentWorkbench.jobs.openViews') ?? [];
    const kept = keptViews().find((v) => v.jobId === jobId);
    assert.ok(kept, 'the open view is kept for the next window');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await waitFor(() => !keptViews().some((v) => v.jobId === jobId), 'a closed view no longer kept');
    // The next window: VS Code restores the panel with its title and no state of its page; the previous window had kept the view.
    await api.workspaceState.update('agentWorkbench.jobs.openViews', [...keptViews(), kept]);
    const panel = vscode.window.createWebviewPanel('agentWorkbench.jobView', title, vscode.ViewColumn.Active, { enableScripts: true });
    let disposed = false;
    panel.onDidDispose(() => (disposed = true));
    await api.jobViews.revive(panel, undefined);
    const model = await waitFor(() => api.jobViews.debugState(jobId)?.model?.outputs.length && api.jobViews.debugState(jobId)?.model, 'the restored view with its outputs');
    assert.equal(model.jobId, jobId);
    assert.equal(disposed, false, 'the restored panel stays open');
    panel.dispose();
  });

  it('opens the raw JSON of the job as a read-only document', async () => {
    const api = await workbench();
    const jobId = await finishedJob({ ...DEMO_LOOP_INPUTS, language: 'nl' });
    await vscode.commands.executeCommand('agentWorkbench.jobs.open', { agentId: DEMO_LOOP_AGENT_ID, jobId });
    await waitFor(() => api.jobViews.debugState(jobId)?.model?.outputs.length, 'the outputs');
    const uri = vscode.Uri.from({ scheme: 'agent-workbench-view', path: `/agents/${DEMO_LOOP_AGENT_ID}/jobs/${jobId}/raw.json` });
    const doc = await vscode.workspace.openTextDocument(uri);
    const raw = JSON.parse(doc.getText()) as { job_id: string; result: { result: unknown[] } };
    assert.equal(raw.job_id, jobId);
    assert.ok(raw.result.result.length > 0);
  });
});
