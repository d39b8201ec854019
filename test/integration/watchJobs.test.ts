// Watching jobs in the status bar: one bulk request per interval, a final state reached by itself.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentNode } from '../../src/extension/agents/agentNodes';
import type { JobNode } from '../../src/extension/agents/jobNodes';
import { watchedJobsItems } from '../../src/extension/jobs/jobWatchCommands';
import { Stores } from '../../src/extension/store/stores';
import { isFinalStatus } from '../../src/core/jobStatus';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_INPUTS } from '../../src/sandbox/seed/demoLoop';
import { is, agentChildren, connect, itemText, startSandbox, waitFor, withSetting, workbench, type TestSandbox } from './support/workbench';

describe('Watched jobs', function () {
  this.timeout(60_000);
  let sandbox: TestSandbox;
  let restoreInterval: () => Promise<void>;

  before(async () => {
    sandbox = await startSandbox();
    restoreInterval = await withSetting('jobs.watchIntervalSeconds', 2);
    await connect(sandbox);
  });

  after(async () => {
    await vscode.commands.executeCommand('agentWorkbench.jobs.stopWatchingAll');
    await restoreInterval();
    await sandbox.stop();
  });

  async function startJob(agentName: string): Promise<{ agent: AgentNode; jobId: string }> {
    const agent = (await agentChildren()).find((n): n is AgentNode => is(n, 'agent') && n.agent.name === agentName);
    assert.ok(agent);
    const client = sandbox.client();
    const version = await client.agents.currentVersion(agent.agent.id);
    const inputs = Object.fromEntries(version.input_definitions.map((d) => [d.key, 'The caller wants a refund for a broken headset.']));
    return { agent, jobId: await client.agents.run(agent.agent.id, { inputs }) };
  }

  it('follows a job from the Jobs list until it finishes, and remembers it across reloads', async () => {
    const api = await workbench();
    const { agent, jobId } = await startJob('Support Call QA');
    await agent.jobs.reload();
    const node = await waitFor(async () => (await agentChildren(agent.jobs)).find((n): n is JobNode => is(n, 'job') && n.job.id === jobId), 'the new job');
    await vscode.commands.executeCommand('agentWorkbench.jobs.watch', node);
    const watched = api.stores.require().watcher;
    assert.ok(watched.jobs().some((j) => j.id === jobId));
    assert.match(watched.summary().text, /Support Call QA/);
    const final = await waitFor(() => watched.jobs().find((j) => j.id === jobId && j.status !== undefined && [3, 4, 5, 6].includes(j.status)), 'the watched job to finish', 45_000);
    assert.equal(final.agentId, agent.agent.id);
    // The next window builds its stores on the same workspace state: the job is there, finished.
    const next = new Stores({ workspaceState: api.workspaceState } as vscode.ExtensionContext, api.connection, api.log);
    try {
      const restored = next.require().watcher.jobs().find((j) => j.id === jobId);
      assert.ok(restored, 'the watched job is restored');
      assert.equal(restored.status, final.status);
    } finally {
      next.dispose();
    }
  });

  it('names a watched job in the status bar by its row’s label, as the Jobs list does, not by its agent and version', async () => {
    const api = await workbench();
    const watched = api.stores.require().watcher;
    watched.unwatchAll();
    const { agent, jobId } = await startJob('Support Call QA');
    await agent.jobs.reload();
    const node = await waitFor(async () => (await agentChildren(agent.jobs)).find((n): n is JobNode => is(n, 'job') && n.job.id === jobId), 'the new job');
    const rowLabel = itemText(node).label;
    assert.match(rowLabel, /^“/, 'the row is labelled by its input');
    await vscode.commands.executeCommand('agentWorkbench.jobs.watch', node);
    const text = await waitFor(() => api.watched.text, 'the status bar item');
    assert.ok(text.includes(rowLabel.slice(0, 20)), `the status bar names the job by its label: ${text}`);
    assert.doesNotMatch(text, /Support Call QA ·/);
    watched.unwatch(jobId);
  });

  it('names the agent of a job watched by its pasted ID, so it opens and offers Show Result', async () => {
    const api = await workbench();
    const { jobId } = await startJob('Refund Request Reviewer');
    const watched = api.stores.require().watcher;
    await vscode.commands.executeCommand('agentWorkbench.jobs.watch', { jobId });
    const job = await waitFor(() => watched.jobs().find((j) => j.id === jobId && j.agentId), 'the agent of the job');
    assert.match(job.label ?? '', /^Refund Request Reviewer · /);
    watched.unwatch(jobId);
  });

  it('shows a job watched by its pasted ID in its agent’s Jobs list, as the agent row counts it', async () => {
    const api = await workbench();
    const agent = (await agentChildren()).find((n): n is AgentNode => is(n, 'agent') && n.agent.name === 'KYC Document Sorter');
    assert.ok(agent);
    await agentChildren(agent.jobs); // the list is read and shown before the job starts
    const before = agent.jobs.list.state.kind === 'loaded' ? agent.jobs.list.state.count : -1;
    const client = sandbox.client();
    const version = await client.agents.currentVersion(agent.agent.id);
    const jobId = await client.agents.run(agent.agent.id, { inputs: Object.fromEntries(version.input_definitions.map((d) => [d.key, 'Pasted by ID.'])) });
    await vscode.commands.executeCommand('agentWorkbench.jobs.watch', { jobId });
    await waitFor(() => agent.jobs.list.loadedItems[0]?.id === jobId || undefined, 'the watched job on top of its Jobs list');
    assert.equal(agent.jobs.list.state.kind === 'loaded' && agent.jobs.list.state.count, before + 1);
    api.stores.require().watcher.unwatch(jobId);
  });

  it('lists the menu’s actions before the jobs, with Cancel Job among them while a job runs', () => {
    const jobs = Array.from({ length: 68 }, (_, i) => ({ id: `job-${i}`, label: `Job ${i}`, status: i === 0 ? 1 : 3 }));
    const noop = (): void => undefined;
    const items = watchedJobsItems(jobs as never, Date.now(), { dismiss: noop, stopAll: noop, watchAnother: noop, cancel: noop });
    const firstJob = items.findIndex((item) => item.job);
    const labels = items.slice(0, firstJob).map((item) => item.label);
    assert.ok(labels.some((l) => l.includes('Cancel Job')), labels.join(' | '));
    assert.ok(labels.some((l) => l.includes('Dismiss Finished Jobs')), labels.join(' | '));
    assert.ok(labels.some((l) => l.includes('Stop Watching All')), labels.join(' | '));
    assert.equal(items.filter((item) => item.job).length, 68);
  });

  it('keeps offering Show Result for a job that finished unseen, from the status bar item, until its view is opened', async () => {
    const api = await workbench();
    const watched = api.stores.require().watcher;
    watched.unwatchAll();
    // `[slow]` keeps the sandbox's job running for a while, so it surely finishes while watched.
    const jobId = await sandbox.client().agents.run(DEMO_LOOP_AGENT_ID, { inputs: { ...DEMO_LOOP_INPUTS, transcript: `${DEMO_LOOP_INPUTS.transcript} [slow] [ok]` } });
    await vscode.commands.executeCommand('agentWorkbench.jobs.watch', { agentId: DEMO_LOOP_AGENT_ID, jobId });
    await waitFor(() => watched.jobs().find((j) => j.id === jobId && j.status !== undefined && !isFinalStatus(j.status)), 'the job seen running');
    const job = await waitFor(() => watched.jobs().find((j) => j.id === jobId && j.unseen), 'the job to finish unseen', 45_000);
    assert.match(api.watched.text, /\$\(bell-dot\)/, `the item says a result waits: ${api.watched.text}`);
    const shown: string[] = [];
    const noop = (): void => undefined;
    const items = watchedJobsItems([job], Date.now(), { dismiss: noop, stopAll: noop, watchAnother: noop, cancel: noop, showResult: (j) => shown.push(j.id) });
    assert.match(items[0]?.label ?? '', /^\$\(go-to-file\) Show Result: /, items.map((i) => i.label).join(' | '));
    items[0]?.action?.();
    assert.deepEqual(shown, [jobId]);
    await vscode.commands.executeCommand('agentWorkbench.jobs.open', { agentId: DEMO_LOOP_AGENT_ID, jobId });
    await waitFor(() => watched.jobs().find((j) => j.id === jobId && !j.unseen), 'the result seen once its view is open');
    assert.doesNotMatch(api.watched.text, /bell-dot/);
    watched.unwatch(jobId);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('watches a job by its ID alone and keeps it listed until dismissed', async () => {
    const api = await workbench();
    const { jobId } = await startJob('Refund Request Reviewer');
    const watched = api.stores.require().watcher;
    watched.watch({ id: jobId });
    await waitFor(() => watched.jobs().find((j) => j.id === jobId)?.status !== undefined, 'the first status');
    await waitFor(() => watched.summary().anyRunning === false, 'every watched job to finish', 45_000);
    assert.ok(watched.jobs().some((j) => j.id === jobId), 'a finished job stays listed');
    watched.dismissFinished();
    assert.equal(watched.jobs().length, 0);
  });
});
