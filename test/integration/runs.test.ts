// Running agents from run files, in a real extension host against the sandbox: single runs, versions,
// batches in one request, file inputs, cancelling, refusals that send nothing, and lost answers.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentNode, VersionNode } from '../../src/extension/agents/agentNodes';
import type { StartedRun } from '../../src/extension/runs/runner';
import { is, agentChildren, connect, startSandbox, waitFor, workbench, type TestSandbox } from './support/workbench';

const RUN_PATHS = '/v1/agents/run/**';

describe('Running agents', function () {
  this.timeout(90_000);
  let sandbox: TestSandbox;

  before(async () => {
    // Slow steps: jobs stay running long enough to be watched and cancelled.
    sandbox = await startSandbox(['--job-step-ms', '4000']);
    await connect(sandbox);
    await vscode.commands.executeCommand('agentWorkbench.agents.clearFilter');
  });

  afterEach(async () => {
    await sandbox.faults.clear();
    // Untitled run files are closed without saving (a save prompt would wait for ever).
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'untitled')) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  after(async () => {
    await vscode.commands.executeCommand('agentWorkbench.jobs.stopWatchingAll');
    await sandbox.stop();
  });

  async function agentNamed(name: string): Promise<AgentNode> {
    const node = (await agentChildren()).find((n): n is AgentNode => is(n, 'agent') && n.agent.name === name);
    assert.ok(node, `agent ${name}`);
    return node;
  }

  /** Counts requests to the run endpoints from now on (a zero-latency rule only counts). */
  async function countRuns(): Promise<() => Promise<number>> {
    await sandbox.faults.set([{ kind: 'latency', ms: 0, path: RUN_PATHS }]);
    return async () => (await sandbox.faults.report())[0]?.hits ?? -1;
  }

  async function replaceText(uri: vscode.Uri, text: string): Promise<vscode.TextDocument> {
    const doc = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
    assert.ok(await vscode.workspace.applyEdit(edit));
    return doc;
  }

  const runFile = (uri: vscode.Uri) => vscode.commands.executeCommand<StartedRun | undefined>('agentWorkbench.runs.runFile', uri);

  it('opens a run file from Run Agent…, runs it, and shows the job on top of the Jobs list and in the status bar at once', async () => {
    const api = await workbench();
    const agent = await agentNamed('Support Call QA');
    await agentChildren(agent.jobs);
    const uri = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.runs.runAgent', agent);
    assert.equal(uri.scheme, 'untitled', 'nothing is written to the workspace until the user saves');
    assert.match(uri.path, /support-call-qa(-\d+)?\.agentrun\.json$/);
    const doc = await vscode.workspace.openTextDocument(uri);
    const file = JSON.parse(doc.getText()) as { agent: string; inputs: Record<string, string> };
    assert.equal(file.agent, agent.agent.id);
    assert.deepEqual(Object.keys(file.inputs).sort(), ['language', 'transcript'], 'prefilled from the current version');
    const schema = await vscode.workspace.openTextDocument(vscode.Uri.parse('agent-workbench-schema:/agent-run.schema.json'));
    assert.ok(schema.getText().includes(agent.agent.id) && schema.getText().includes('"transcript"'), 'the schema knows the agent\'s inputs');
    // The lens names the agent its click runs, as the service calls it.
    const lens = async () => (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri))?.[0]?.command;
    await waitFor(async () => (await lens())?.title === '▶ Run Support Call QA', 'the ▶ Run lens naming the agent');
    assert.match((await lens())?.tooltip ?? '', new RegExp(`^Start one job of Support Call QA \\(${agent.agent.id}\\) with these inputs$`));

    const started = await runFile(uri);
    assert.ok(started);
    assert.equal(started.jobIds.length, 1);
    const [jobId] = started.jobIds as [string];
    assert.equal(agent.jobs.list.loadedItems[0]?.id, jobId, 'on top of the Jobs list without reading it again');
    assert.ok(api.stores.require().watcher.jobs().some((j) => j.id === jobId && j.agentId === agent.agent.id), 'watched in the status bar');
  });

  it('runs the version it was opened from, not the current one', async () => {
    const api = await workbench();
    const agent = await agentNamed('Refund Request Reviewer');
    const versions = (await agentChildren(agent.versions)).filter((n): n is VersionNode => is(n, 'agentVersion'));
    const older = versions.find((v) => !v.isCurrent && v.version.input_definitions.length === 2);
    assert.ok(older, 'an older version with two inputs');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.runs.runVersion', older);
    const started = await runFile(uri);
    assert.ok(started);
    const jobs = await api.connection.requireClient().jobs.list(agent.agent.id, { page_size: 10, ordering: '-created_at' });
    assert.equal(jobs.results.find((j) => j.id === started.jobIds[0])?.agent_version_name, older.version.version_name);
  });

  it('starts a batch of 20 with one request, watched as one group', async () => {
    const api = await workbench();
    const agent = await agentNamed('Chat Escalation Detector');
    const inputs = Array.from({ length: 20 }, (_, i) => ({ transcript: `Customer: I want a supervisor (case ${i})`, language: 'en' }));
    const uri = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.runs.newRunFile', { agentId: agent.agent.id, inputs });
    const requests = await countRuns();
    const started = await runFile(uri);
    assert.ok(started);
    assert.equal(started.jobIds.length, 20);
    assert.equal(await requests(), 1, 'one request for the whole batch');
    const group = api.stores.require().watcher.jobs().filter((j) => started.jobIds.includes(j.id));
    assert.equal(group.length, 20);
    assert.equal(new Set(group.map((j) => j.group)).size, 1);
  });

  it('sends a file from the Explorer as a file input', async () => {
    const api = await workbench();
    const agent = await agentNamed('Invoice Classifier');
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test window has a folder');
    const pdf = path.join(folder.uri.fsPath, `invoice-${Date.now()}.pdf`);
    fs.writeFileSync(pdf, '%PDF-1.4\nInvoice INV-10234\n');
    try {
      const uri = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.runs.runOnFiles', vscode.Uri.file(pdf), [vscode.Uri.file(pdf)], agent.agent.id);
      const file = JSON.parse((await vscode.workspace.openTextDocument(uri)).getText()) as { inputs: Record<string, string> };
      assert.equal(file.inputs.document, path.basename(pdf), 'the path relative to the workspace folder');
      const started = await runFile(uri);
      assert.ok(started);
      const jobs = await api.connection.requireClient().jobs.list(agent.agent.id, { page_size: 10, ordering: '-created_at' });
      const job = jobs.results.find((j) => j.id === started.jobIds[0]);
      assert.equal(job?.job_inputs?.find((i) => i.key === 'document')?.file_name, path.basename(pdf));
    } finally {
      fs.rmSync(pdf, { force: true });
    }
  });

  it('cancels one job, then every running job of an agent, and the tree and the watcher show it', async () => {
    const api = await workbench();
    const agent = await agentNamed('Support Call QA');
    await agentChildren(agent.jobs);
    const inputs = Array.from({ length: 3 }, (_, i) => ({ transcript: `Agent: hello ${i}`, language: 'en' }));
    const uri = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.runs.newRunFile', { agentId: agent.agent.id, inputs });
    const started = await runFile(uri);
    assert.ok(started);
    const [first, ...rest] = started.jobIds as [string, ...string[]];

    const status = await vscode.commands.executeCommand<number>('agentWorkbench.jobs.cancel', { agentId: agent.agent.id, jobId: first });
    assert.equal(status, 5, 'CANCELLED');
    assert.equal(agent.jobs.loadedJobs().find((j) => j.id === first)?.status_code, 5, 'the row says cancelled');

    const result = await vscode.commands.executeCommand<{ targeted_count: number }>('agentWorkbench.agents.cancelAllJobs', agent, true);
    assert.ok(result && result.targeted_count >= rest.length, `targeted ${result?.targeted_count}`);
    for (const id of rest) assert.equal(agent.jobs.loadedJobs().find((j) => j.id === id)?.status_code, 5, 'the row says cancelled');
    await waitFor(() => api.stores.require().watcher.jobs().filter((j) => started.jobIds.includes(j.id)).every((j) => j.status === 5), 'the watcher to see the cancels');
  });

  it('sends nothing and keeps the run file as it was for every kind of bad input', async () => {
    const api = await workbench();
    const agent = await agentNamed('Invoice Classifier');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.runs.newRunFile', { agentId: agent.agent.id });
    const base = { agent: agent.agent.id, inputs: { document: 'here.pdf', language: 'en' } };
    const cases: Array<[string, unknown, RegExp | undefined]> = [
      ['a missing required input', { ...base, inputs: { document: 'x.pdf' } }, undefined],
      ['a wrong type', { ...base, inputs: { document: 'x.pdf', language: 7 } }, undefined],
      ['a missing file', { ...base, inputs: { document: 'no-such-file.pdf', language: 'en' } }, /file not found/],
      ['an unknown agent', { ...base, agent: '00000000-0000-4000-8000-000000000000' }, /no agent with ID/],
      ['files in a batch', { ...base, inputs: [base.inputs, base.inputs] }, /batch/],
    ];
    const requests = await countRuns();
    for (const [what, content, ours] of cases) {
      const text = `${JSON.stringify(content, null, 2)}\n`;
      const doc = await replaceText(uri, text);
      const started = await runFile(uri);
      assert.equal(started, undefined, `${what}: not run`);
      assert.equal(doc.getText(), text, `${what}: the run file is unchanged`);
      if (ours) assert.ok(api.runFiles.diagnostics.get(uri).some((d) => ours.test(d.message)), `${what}: underlined`);
    }
    assert.equal(await requests(), 0, 'no run request reached the service');
  });

  it('sends no file from outside the workspace — absolute, climbing out or through a link — and says why at its field', async () => {
    const api = await workbench();
    const agent = await agentNamed('Invoice Classifier');
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test window has a folder');
    const outside = path.join(fs.mkdtempSync(path.join(path.dirname(folder.uri.fsPath), 'outside-')), 'secret.pdf');
    fs.writeFileSync(outside, '%PDF-1.4\nnot yours\n');
    const link = path.join(folder.uri.fsPath, `link-${Date.now()}.pdf`);
    fs.symlinkSync(outside, link);
    try {
      const uri = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.runs.newRunFile', { agentId: agent.agent.id });
      const cases: Array<[string, string, RegExp]> = [
        ['an absolute path', outside, /absolute path/],
        ['a path climbing out', path.relative(folder.uri.fsPath, outside), /leads out of the workspace folder/],
        ['a link to a file outside', path.basename(link), /link to a file outside the workspace/],
      ];
      const requests = await countRuns();
      for (const [what, document, message] of cases) {
        await replaceText(uri, `${JSON.stringify({ agent: agent.agent.id, inputs: { document, language: 'en' } }, null, 2)}\n`);
        assert.equal(await runFile(uri), undefined, `${what}: not run`);
        assert.ok(api.runFiles.diagnostics.get(uri).some((d) => message.test(d.message)), `${what}: underlined`);
      }
      assert.equal(await requests(), 0, 'no run request reached the service');
    } finally {
      fs.rmSync(link, { force: true });
      fs.rmSync(path.dirname(outside), { recursive: true, force: true });
    }
  });

  it('in Restricted Mode runs nothing and cancels nothing, even when the run lens or a command is invoked', async () => {
    const api = await workbench();
    const agent = await agentNamed('Support Call QA');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.runs.newRunFile', { agentId: agent.agent.id, inputs: { transcript: 'Agent: hello', language: 'en' } });
    const requests = await countRuns();
    api.prompts.workspaceTrusted = false;
    try {
      assert.equal(await runFile(uri), undefined, 'not run');
      assert.equal(await vscode.commands.executeCommand('agentWorkbench.agents.cancelAllJobs', agent, true), undefined, 'nothing cancelled');
      assert.equal(await requests(), 0, 'no run request reached the service');
    } finally {
      api.prompts.workspaceTrusted = undefined;
    }
    assert.ok(await runFile(uri), 'trusted again, the same run file runs');
  });

  it('underlines a missing input and completes input keys from the version\'s definitions (JSON language service)', async () => {
    const agent = await agentNamed('Support Call QA');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.runs.runAgent', agent);
    const text = `${JSON.stringify({ agent: agent.agent.id, inputs: { transcript: 'Agent: hi' } }, null, 2)}\n`;
    await replaceText(uri, text);
    await waitFor(() => vscode.languages.getDiagnostics(uri).some((d) => /language/.test(d.message)), 'the schema to underline the missing "language"');
    const doc = await vscode.workspace.openTextDocument(uri);
    const inside = doc.positionAt(text.indexOf('"transcript"'));
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, inside);
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.some((l) => l.includes('language')), `completion offers "language": ${labels.join(', ')}`);
  });

  it('shows the service\'s refusal at the field it names, and keeps the run file', async () => {
    const api = await workbench();
    const agent = await agentNamed('Support Call QA');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.runs.runAgent', agent);
    const text = (await vscode.workspace.openTextDocument(uri)).getText();
    await sandbox.faults.set([{ kind: 'status', status: 400, body: { language: ['Not a language this agent knows.'] }, path: RUN_PATHS, count: 1 }]);
    assert.equal(await runFile(uri), undefined);
    const marked = api.runFiles.diagnostics.get(uri).find((d) => /Not a language/.test(d.message));
    assert.ok(marked, 'the field error is underlined');
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.equal(doc.getText(marked.range), '"language"');
    assert.equal(doc.getText(), text);
    await sandbox.faults.set([{ kind: 'status', status: 403, body: { detail: 'Insufficient credits to start a new job' }, path: RUN_PATHS, count: 1 }]);
    assert.equal(await runFile(uri), undefined, 'no credits: not run');
    assert.equal(doc.getText(), text);
  });

  it('does not send a run again when its answer was lost, and reads the jobs list again', async () => {
    const api = await workbench();
    const agent = await agentNamed('Chat Escalation Detector');
    await agentChildren(agent.jobs);
    const client = api.connection.requireClient();
    const before = (await client.jobs.list(agent.agent.id, { page_size: 1 })).count;
    const uri = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.runs.newRunFile', { agentId: agent.agent.id });
    await sandbox.faults.set([{ kind: 'reset', when: 'response', after: true, path: '/v1/agents/run/*/async/', method: 'POST' }]);
    const started = await runFile(uri);
    assert.equal(started, undefined, 'the outcome is unknown: no job ids to show');
    const hits = (await sandbox.faults.report())[0]?.hits;
    assert.equal(hits, 1, 'sent once, never repeated');
    await sandbox.faults.clear();
    const after = (await client.jobs.list(agent.agent.id, { page_size: 1 })).count;
    assert.equal(after, before + 1, 'the service started exactly one job');
    await waitFor(async () => (await agentChildren(agent.jobs)).length > 0 && agent.jobs.list.state.kind === 'loaded' && agent.jobs.list.state.count === after, 'the Jobs list read again');
  });
});
