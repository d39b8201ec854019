// Test sets and comparisons in a real extension host against the sandbox's policy engine: a rule
// change flips exactly the cases that quote it, a comparison resumes after its view is gone without
// starting a job twice, and cancel stops the rest.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { isFinalStatus, JobStatus } from '../../src/core/jobStatus';
import { comparisonView } from '../../src/core/comparison/comparisonView';
import { progressView } from '../../src/core/comparison/comparisonProgress';
import { estimateCost, estimateJobIds, type JobUsage } from '../../src/core/comparison/costEstimate';
import { isComplete, newComparison, parseComparison, serializeComparison } from '../../src/core/comparison/comparisonRecord';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_DISPOSITION_BEFORE, DEMO_LOOP_POLICY_ID, DEMO_LOOP_RULE_PHRASE, DEMO_LOOP_TRANSCRIPT } from '../../src/sandbox/seed/demoLoop';
import type { ComparisonSession } from '../../src/extension/comparison/comparisonSession';
import type { AgentWorkbenchApi } from '../../src/extension/extension';
import { agentChildren, connect, is, startSandbox, waitFor, withSetting, workbench, type TestSandbox } from './support/workbench';

const RUN_PATHS = '/v1/agents/run/**';
const CASES = 50;

/** The demo call with the rule's phrase, or with a line that promises nothing instead. */
function transcript(i: number, quotesRule: boolean, extra = ''): string {
  const base = quotesRule ? DEMO_LOOP_TRANSCRIPT : DEMO_LOOP_TRANSCRIPT.replace(`, ${DEMO_LOOP_RULE_PHRASE}`, ', once my team lead approves it');
  // `[ok]` keeps the sandbox from failing a job on purpose: a case that failed on both sides would not change.
  return `${base}\nAgent: Reference ${i}.${extra || ' [ok]'}`;
}
const quotes = (i: number): boolean => i % 3 === 0;

describe('Test sets and comparisons', function () {
  this.timeout(180_000);
  let sandbox: TestSandbox;
  let api: AgentWorkbenchApi;
  let folder: vscode.Uri;
  let restoreInterval: () => Promise<void>;

  before(async () => {
    sandbox = await startSandbox();
    await connect(sandbox);
    api = await workbench();
    restoreInterval = await withSetting('jobs.refreshIntervalSeconds', 2);
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(root, 'the test workspace has a folder');
    folder = vscode.Uri.joinPath(root, 'comparisons-test');
    await vscode.workspace.fs.createDirectory(folder);
  });

  afterEach(async () => {
    await sandbox.faults.clear();
    await closeEditors();
  });

  it('makes a test set of the jobs chosen on an agent (the newest ten finished), never of all of them without asking', async () => {
    const agent = (await agentChildren()).find((n) => is(n, 'agent') && n.agent.id === DEMO_LOOP_AGENT_ID);
    assert.ok(agent && is(agent, 'agent'));
    const uri = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.comparisons.testSetFromJobs', agent, undefined, 'The newest 10 finished jobs');
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    const cases = text.split('\n').filter((line) => line.startsWith('{'));
    assert.equal(cases.length, 10, text.slice(0, 400));
    await vscode.workspace.fs.delete(uri);
  });

  /** Closes every editor the way a closed window would: what is on disk stays, nothing prompts. */
  async function closeEditors(): Promise<void> {
    for (let i = 0; i < 20 && vscode.window.tabGroups.all.some((g) => g.tabs.length > 0); i++) {
      const dirty = vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.path);
      if (dirty.length) console.log(`closing with unsaved changes: ${dirty.join(', ')}`);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  }

  after(async () => {
    await restoreInterval();
    await vscode.workspace.fs.delete(folder, { recursive: true });
    await sandbox.stop();
  });

  /** Counts requests to the run endpoints from now on (a zero-latency rule only counts). */
  async function countRuns(): Promise<() => Promise<number>> {
    await sandbox.faults.set([{ kind: 'latency', ms: 0, path: RUN_PATHS }]);
    return async () => (await sandbox.faults.report())[0]?.hits ?? -1;
  }

  async function writeTestSet(name: string, lines: object[]): Promise<vscode.Uri> {
    const uri = vscode.Uri.joinPath(folder, name);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join('\n') + '\n'));
    return uri;
  }

  async function finished(ids: string[]): Promise<void> {
    const client = api.connection.requireClient();
    await waitFor(async () => (await client.jobs.statuses(ids)).every((s) => isFinalStatus(s.status)), 'the jobs to finish', 60_000);
  }

  async function runComparison(testSet: vscode.Uri, targets: unknown[]): Promise<{ uri: vscode.Uri; session: ComparisonSession }> {
    const uri = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.comparisons.run', undefined, { testSet, agentId: DEMO_LOOP_AGENT_ID, targets });
    assert.ok(uri, 'the comparison file was created');
    const session = await waitFor(() => api.comparisons.session(uri), 'the comparison view');
    return { uri, session };
  }

  const done = (session: ComparisonSession) => waitFor(() => session.state.kind === 'stopped' && isComplete(session.record) && session.record, 'the comparison to finish', 90_000);

  it('reports exactly the cases that quote a rule as changed when the rule stops being a red flag', async () => {
    const client = sandbox.client();
    const inputs = Array.from({ length: CASES }, (_, i) => ({ transcript: transcript(i, quotes(i)), language: 'en' }));
    const before = await client.agents.runMany(DEMO_LOOP_AGENT_ID, inputs);
    await finished(before);
    const testSet = await writeTestSet(
      'rule-change.testset.jsonl',
      before.map((id, i) => ({ name: `case ${i}`, inputs: inputs[i], source_job_id: id })),
    );

    // The change: the rule no longer quotes the phrase, so it matches nothing.
    const policy = await client.policies.get(DEMO_LOOP_POLICY_ID);
    const current = await client.policies.getVersion(DEMO_LOOP_POLICY_ID, policy.current_version_id!);
    const content = JSON.parse(JSON.stringify(current.content).split(DEMO_LOOP_RULE_PHRASE).join('no phrase at all')) as Record<string, unknown>;
    await client.policies.createVersion(DEMO_LOOP_POLICY_ID, { content, version_name: 'refunds need no check', base_version_id: current.id });

    const runs = await countRuns();
    const { uri, session } = await runComparison(testSet, ['before', 'now']);
    const record = await done(session);

    assert.equal(await runs(), 1, 'the 50 cases of the current version start with one batch request');
    const view = comparisonView(record);
    const changed = view.rows.filter((r) => r.changed).map((r) => r.case).sort();
    const expected = inputs.map((_, i) => `case ${i}`).filter((_, i) => quotes(i)).sort();
    assert.deepEqual(changed, expected, 'the changed cases are the ones that quote the rule');
    assert.equal(view.summaries[1]?.changed, expected.length);
    assert.ok(view.rows.every((r) => r.cells.every((c) => c.state === 'done')), 'every result is read');
    await session.save();
    const saved = parseComparison(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    assert.deepEqual(saved.cases.map((c) => c.runs.now?.jobId), record.cases.map((c) => c.runs.now?.jobId), 'the file holds the job ids and results');
    assert.ok(saved.cases.every((c) => c.runs.now?.outputs?.some((o) => o.key === 'disposition')));

    // The estimate the start confirmation shows (the same cases' earlier results, one bulk read) is
    // within 10 % of what the jobs it started report.
    const unstarted = parseComparison(serializeComparison(record));
    for (const c of unstarted.cases) {
      delete c.runs.now;
      // As when the confirmation is shown: the results before are not read yet.
      for (const run of Object.values(c.runs)) {
        delete run.cost;
        delete run.inputTokens;
        delete run.outputTokens;
      }
    }
    const ids = estimateJobIds(unstarted);
    assert.equal(ids.length, CASES, 'one earlier job per case to start');
    const read = new Map<string, JobUsage>((await client.jobs.results(ids)).map((r) => [r.id, { cost: r.cost, inputTokens: r.input_tokens, outputTokens: r.output_tokens }]));
    const estimate = estimateCost(unstarted, read, []);
    const actual = record.cases.reduce((sum, c) => sum + (c.runs.now?.cost ?? 0), 0);
    assert.ok(actual > 0 && estimate.cost !== undefined, 'the jobs report a cost');
    assert.ok(Math.abs(estimate.cost - actual) <= 0.1 * actual, `estimated ${estimate.cost}, reported ${actual}`);

    // Put the rule back for the other tests.
    await client.policies.createVersion(DEMO_LOOP_POLICY_ID, { content: current.content, version_name: 'rule back', base_version_id: (await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id! });
  });

  it('resumes from its file after the view is closed mid-run, following its jobs and starting none twice', async () => {
    const client = api.connection.requireClient();
    const versionId = (await client.agents.currentVersion(DEMO_LOOP_AGENT_ID)).id;
    const testSet = await writeTestSet('resume.testset.jsonl', Array.from({ length: 6 }, (_, i) => ({ name: `slow ${i}`, inputs: { transcript: transcript(i, false, ' [slow]'), language: 'en' } })));
    const runs = await countRuns();
    const { uri, session } = await runComparison(testSet, ['now', { versionId, label: 'pinned version' }]);
    await waitFor(() => session.record.cases.every((c) => c.runs.now && c.runs['v:' + versionId]) && session.record.pending.length === 0, 'every case started');
    const started = session.record.cases.map((c) => [c.runs.now!.jobId, c.runs['v:' + versionId]!.jobId]);
    assert.ok(session.record.cases.some((c) => c.runs.now!.status === undefined || !isFinalStatus(c.runs.now!.status)), 'jobs are still running when the view goes');

    // Like a reload once the file holds every job id: the view and its session go, the file stays.
    await session.save();
    const onDisk = parseComparison(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    assert.deepEqual(onDisk.cases.map((c) => [c.runs.now?.jobId, c.runs['v:' + versionId]?.jobId]), started);
    assert.equal(onDisk.pending.length, 0);
    await closeEditors();
    await waitFor(() => !api.comparisons.session(uri), 'the session to end');
    const reopened = await waitFor(() => api.comparisons.open(uri), 'the comparison to reopen');
    // Like a reload: the window follows the jobs it started, without asking (reading starts nothing), and there is nothing to resume.
    await waitFor(() => reopened.state.kind === 'working' || isComplete(reopened.record), 'the reopened view to follow its jobs');
    assert.notEqual(progressView(reopened.record, reopened.state)?.action, 'resume', 'no Resume for jobs that only need following');
    const record = await done(reopened);

    assert.equal(await runs(), 1 + 6, 'one batch for the current version, one request per case for the pinned version, and nothing more');
    assert.deepEqual(record.cases.map((c) => [c.runs.now!.jobId, c.runs['v:' + versionId]!.jobId]), started, 'the same jobs were followed');
  });

  it('opens a comparison while signed out, and follows its running jobs once signed in', async () => {
    const testSet = await writeTestSet('offline.testset.jsonl', Array.from({ length: 3 }, (_, i) => ({ name: `offline ${i}`, inputs: { transcript: transcript(200 + i, false, ' [slow]'), language: 'en' } })));
    const versionId = (await api.connection.requireClient().agents.currentVersion(DEMO_LOOP_AGENT_ID)).id;
    const { uri, session } = await runComparison(testSet, ['now', { versionId, label: 'pinned version' }]);
    await waitFor(() => session.record.cases.every((c) => c.runs.now && c.runs['v:' + versionId]) && session.record.pending.length === 0, 'every case started');
    await session.save();
    await closeEditors();
    await waitFor(() => !api.comparisons.session(uri), 'the session to end');
    await vscode.commands.executeCommand('agentWorkbench.signOut');
    try {
      await waitFor(() => api.connection.state.kind !== 'connected', 'signed out');
      // Opened offline, it shows what its file holds (VS Code used to say the editor could not be opened).
      const offline = await waitFor(() => api.comparisons.open(uri), 'the comparison view, signed out');
      assert.equal(offline.record.cases.length, 3);
      assert.equal(offline.state.kind, 'stopped');
    } finally {
      await connect(sandbox);
    }
    // Signed in again, Resume follows the jobs it started (it has none to start) until they end.
    const reopened = api.comparisons.session(uri)!;
    await reopened.resume({ confirmed: true });
    const record = await done(reopened);
    assert.ok(record.cases.every((c) => Object.values(c.runs).every((r) => r.status !== undefined && isFinalStatus(r.status))), 'every job followed to its end');
  });

  it('asks "Start comparison" naming what production runs, and leaves no file when the answer is no', async () => {
    const versionId = (await api.connection.requireClient().agents.currentVersion(DEMO_LOOP_AGENT_ID)).id;
    const testSet = await writeTestSet('declined.testset.jsonl', [{ name: 'one', inputs: { transcript: transcript(1, true), language: 'en' } }]);
    const asked: { message: string; detail: string }[] = [];
    api.prompts.start = (question) => (asked.push(question), false);
    const runs = await countRuns();
    try {
      const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>('agentWorkbench.comparisons.run', undefined, { testSet, agentId: DEMO_LOOP_AGENT_ID, targets: ['now', { versionId, label: 'pinned version' }], confirmed: false });
      assert.equal(uri, undefined, 'nothing was made');
    } finally {
      api.prompts.start = undefined;
    }
    assert.equal(asked.length, 1);
    assert.match(asked[0]!.message, /^Start comparison ".*"\? This starts 2 jobs of /);
    assert.match(asked[0]!.detail, /itself runs the cases .*no policy or version is changed/);
    const left = await vscode.workspace.findFiles('comparisons-test/declined*.comparison.json');
    assert.deepEqual(left, [], 'no comparison file is left behind');
    assert.equal(await runs(), 0, 'no job started');
  });

  it('opens a crafted comparison file without acting, and at Resume leaves out a file outside the workspace while the other case runs', async () => {
    const client = api.connection.requireClient();
    const versionId = (await client.agents.currentVersion(DEMO_LOOP_AGENT_ID)).id;
    const uri = vscode.Uri.joinPath(folder, 'crafted.comparison.json');
    const record = newComparison({
      title: 'crafted',
      agentId: DEMO_LOOP_AGENT_ID,
      testSet: 'none.testset.jsonl',
      cases: [
        { line: 1, tags: [], inputs: { transcript: { file: '/etc/hostname' }, language: 'en' } },
        { line: 2, tags: [], inputs: { transcript: transcript(2, true), language: 'en' } },
      ],
      targets: [{ id: 'now', label: 'now', kind: 'current' }, { id: 'v', label: 'pinned', kind: 'version', agentVersionId: versionId }],
    });
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(serializeComparison(record)));
    const runs = await countRuns();
    const session = await waitFor(() => api.comparisons.open(uri), 'the comparison view');
    await waitFor(() => session.state.kind === 'stopped' && session.record.cases.length === 2, 'the view to show the file');
    assert.equal(await runs(), 0, 'opening started nothing');
    const asked: { message: string; detail: string }[] = [];
    api.prompts.start = (question) => (asked.push(question), true);
    try {
      await api.comparisons.resume(uri);
    } finally {
      api.prompts.start = undefined;
    }
    assert.match(asked[0]?.detail ?? '', /Left out, never sent: \/etc\/hostname \(an absolute path\)\. 1 case with such a file fails; the other cases run\./);
    assert.doesNotMatch(asked[0]?.detail ?? '', /Files sent to the service/);
    const finished = await done(session);
    assert.match(finished.cases[0]!.refused ?? '', /absolute path/);
    assert.deepEqual(Object.keys(finished.cases[0]!.runs), [], 'the refused case never started');
    assert.ok(finished.cases[1]!.runs.now && finished.cases[1]!.runs.v, 'the other case ran on both targets');
  });

  it('underlines, in a test set, an input the agent does not take, a case that lacks one, and an expected value the policy does not name, and completes input keys', async () => {
    const testSet = await writeTestSet('typo.testset.jsonl', []);
    const text = [
      `// agent: ${DEMO_LOOP_AGENT_ID} · Support Call QA`,
      '{"name": "typo", "inputs": {"transcript": "Agent: hello", "langauge": "en"}}',
      '{"inputs": {',
      `{"name": "labelled", "inputs": {"transcript": "Agent: hi", "language": "en"}, "expected": "${DEMO_LOOP_DISPOSITION_BEFORE}"}`,
      '{"name": "mislabelled", "inputs": {"transcript": "Agent: bye", "language": "en"}, "expected": "Compliantish"}',
    ].join('\n');
    await vscode.workspace.fs.writeFile(testSet, new TextEncoder().encode(text));
    const doc = await vscode.workspace.openTextDocument(testSet);
    await vscode.window.showTextDocument(doc);
    const problems = await waitFor(() => {
      const found = vscode.languages.getDiagnostics(testSet);
      return found.length >= 4 && found;
    }, 'the squiggles');
    const byLine = problems.map((d) => `${d.range.start.line + 1}: ${doc.getText(d.range)}`).sort();
    assert.deepEqual(byLine, ['2: "inputs"', '2: "langauge"', '3: {"inputs": {', '5: "Compliantish"'], 'the misspelt key, the case lacking "language", the line that is not JSON, and the expected value no disposition names');
    const label = problems.find((d) => d.range.start.line === 4)!;
    assert.equal(label.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(label.message, new RegExp(`not a disposition of the policy the agent applies \\(it names .*${DEMO_LOOP_DISPOSITION_BEFORE}`));
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', testSet, new vscode.Position(2, 12));
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.includes('transcript') && labels.includes('language'), `input keys offered: ${labels.join(', ')}`);
  });

  it('cancels the jobs that have not finished, and starts nothing more', async () => {
    const client = api.connection.requireClient();
    const versionId = (await client.agents.currentVersion(DEMO_LOOP_AGENT_ID)).id;
    const testSet = await writeTestSet('cancel.testset.jsonl', Array.from({ length: 8 }, (_, i) => ({ name: `long ${i}`, inputs: { transcript: transcript(100 + i, true, ' [slow]'), language: 'en' } })));
    // Each pinned-version request takes a while, so Cancel comes while cases are still being started.
    await sandbox.faults.set([{ kind: 'latency', ms: 700, path: '/v1/agents/run/*/versions/**' }]);
    const { session } = await runComparison(testSet, ['now', { versionId, label: 'pinned version' }]);
    await waitFor(() => session.record.cases.some((c) => c.runs.now) && session.record.cases.some((c) => c.runs['v:' + versionId]), 'some cases started');

    const asked = await session.cancel({ confirmed: true });
    assert.ok(asked > 0, 'running jobs were asked to stop');
    await waitFor(() => session.record.cases.every((c) => Object.values(c.runs).every((r) => r.status !== undefined && isFinalStatus(r.status))), 'every started job to end', 60_000);
    const statuses = session.record.cases.flatMap((c) => Object.values(c.runs).map((r) => r.status));
    assert.ok(statuses.every((s) => s === JobStatus.CANCELLED), `every started job was cancelled (${statuses.join(', ')})`);
    assert.ok(session.record.cases.some((c) => !c.runs['v:' + versionId]), 'the cases not started yet stay not started');
    assert.equal(session.state.kind, 'stopped');
  });
});
