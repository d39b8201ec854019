// Labelling cases where they are compared, in a real extension host: a label from a cell goes into its
// test set's line (only that line), the comparison's figures follow at once, nothing runs, an open
// editor's unsaved text is labelled rather than overwritten, and a label changed under us is never
// overwritten.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { newComparison, serializeComparison } from '../../src/core/comparison/comparisonRecord';
import { parseTestSet } from '../../src/core/comparison/testSet';
import { JobStatus } from '../../src/core/jobStatus';
import { userDisplayName } from '../../src/core/trial/trialMarker';
import type { ComparisonSession } from '../../src/extension/comparison/comparisonSession';
import type { AgentWorkbenchApi } from '../../src/extension/extension';
import { connect, startSandbox, waitFor, workbench, type TestSandbox } from './support/workbench';

const LINES = [
  '// agent: a · Support Call QA',
  '{"name":"refund promise","inputs":{"transcript":"t0"},"expected":"Non-Compliant"}',
  '{"name":"free upgrade","inputs":{"transcript":"t1"}}',
  'this line is not JSON and keeps its place',
  '{"name":"greeting","inputs":{"transcript":"t2"},"expected":"Compliant"}',
];
/** Before's and the trial's outcome of each case. */
const OUTCOMES = [
  ['Non-Compliant', 'Compliant'],
  ['Non-Compliant', 'Compliant'],
  ['Compliant', 'Compliant'],
];

describe('Labelling cases in the comparison view', function () {
  this.timeout(120_000);
  let sandbox: TestSandbox;
  let api: AgentWorkbenchApi;
  let folder: vscode.Uri;

  before(async () => {
    sandbox = await startSandbox();
    await connect(sandbox);
    api = await workbench();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(root, 'the test workspace has a folder');
    folder = vscode.Uri.joinPath(root, 'labels-test');
    await vscode.workspace.fs.createDirectory(folder);
  });

  afterEach(async () => {
    await sandbox.faults.clear();
    for (let i = 0; i < 20 && vscode.window.tabGroups.all.some((g) => g.tabs.length > 0); i++) await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  after(async () => {
    await vscode.workspace.fs.delete(folder, { recursive: true });
    await sandbox.stop();
  });

  /** A test set and a finished comparison of it (Before and a trial), opened in the comparison view. */
  async function openComparison(name: string): Promise<{ testSet: vscode.Uri; session: ComparisonSession }> {
    const testSet = vscode.Uri.joinPath(folder, `${name}.testset.jsonl`);
    await vscode.workspace.fs.writeFile(testSet, new TextEncoder().encode(`${LINES.join('\n')}\n`));
    const record = newComparison({
      title: name,
      agentId: 'a',
      testSet: `${name}.testset.jsonl`,
      cases: parseTestSet(`${name}.testset.jsonl`, LINES.join('\n')).cases,
      targets: [
        { id: 'before', label: 'Before', kind: 'baseline' },
        { id: 'trial', label: 'Trial', kind: 'current' },
      ],
    });
    record.cases.forEach((c, i) => {
      c.runs.before = { jobId: `b${i}`, status: JobStatus.SUCCESS, outputs: [{ key: 'disposition', value: OUTCOMES[i]![0]! }] };
      c.runs.trial = { jobId: `t${i}`, status: JobStatus.SUCCESS, outputs: [{ key: 'disposition', value: OUTCOMES[i]![1]! }] };
    });
    const uri = vscode.Uri.joinPath(folder, `${name}.comparison.json`);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(serializeComparison(record)));
    const session = await waitFor(() => api.comparisons.open(uri), 'the comparison view');
    await waitFor(() => session.shown?.summaries.length === 2, 'the figures');
    return { testSet, session };
  }

  const fileLines = async (uri: vscode.Uri): Promise<string[]> => new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)).split('\n');
  const accuracies = (session: ComparisonSession): string[] => session.shown?.summaries.map((s) => s.accuracy) ?? [];

  it('writes This Is Right from a cell into that case’s line only, and the figures move at once without running anything', async () => {
    const { testSet, session } = await openComparison('cell');
    assert.deepEqual(accuracies(session), ['100% of 2 labelled', '50% of 2 labelled']);
    assert.deepEqual(session.shown?.rows[1]?.expected, null);
    await sandbox.faults.set([{ kind: 'latency', ms: 0, path: '/v1/agents/run/**' }]);
    const user = userDisplayName(await api.connection.requireClient().users.current());

    const written = await vscode.commands.executeCommand<boolean>('agentWorkbench.comparisons.thisIsRight', { comparison: session.document.uri, caseIndex: 1, target: 1 });

    assert.equal(written, true);
    assert.deepEqual(accuracies(session), ['67% of 3 labelled', '67% of 3 labelled'], 'the free upgrade counts now: wrong before, right on the trial');
    assert.equal(session.shown?.rows[1]?.expected, 'Compliant');
    const lines = await fileLines(testSet);
    assert.deepEqual(lines.filter((_, i) => i !== 2), [...LINES.filter((_, i) => i !== 2), ''], 'every other line keeps its bytes');
    const label = JSON.parse(lines[2]!) as Record<string, unknown>;
    assert.equal(label.expected, 'Compliant');
    assert.equal(label.labelled_by, user);
    assert.ok(user, 'the sandbox’s user has a name');
    assert.match(String(label.labelled_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal((await sandbox.faults.report())[0]?.hits, 0, 'no case was run again');
    assert.deepEqual(session.record.cases.map((c) => Object.keys(c.runs)), [['before', 'trial'], ['before', 'trial'], ['before', 'trial']]);
  });

  it('labels the open editor’s text with its unsaved edits, leaving the saving to the user', async () => {
    const { testSet, session } = await openComparison('unsaved');
    const doc = await vscode.workspace.openTextDocument(testSet);
    const typed = new vscode.WorkspaceEdit();
    typed.insert(testSet, new vscode.Position(5, 0), '// a comment typed and not saved\n');
    assert.ok(await vscode.workspace.applyEdit(typed));

    const written = await vscode.commands.executeCommand<boolean>('agentWorkbench.comparisons.setExpected', { comparison: session.document.uri, caseIndex: 0, target: 1, expected: { disposition: 'Needs Review' }, note: 'checked with QA' });

    assert.equal(written, true);
    assert.ok(doc.isDirty, 'the label is an edit to review and save');
    const line = JSON.parse(doc.lineAt(1).text) as Record<string, unknown>;
    assert.deepEqual(Object.keys(line), ['name', 'inputs', 'expected', 'label_note', 'labelled_by', 'labelled_at']);
    assert.deepEqual([line.expected, line.label_note], ['Needs Review', 'checked with QA']);
    assert.equal(doc.lineAt(5).text, '// a comment typed and not saved', 'the unsaved edit is kept');
    assert.deepEqual(await fileLines(testSet), [...LINES, ''], 'nothing was written behind the editor');
    assert.deepEqual(accuracies(session), ['50% of 2 labelled', '50% of 2 labelled']);
  });

  it('says so and writes nothing when the file’s label is not the one the comparison showed', async () => {
    const { testSet, session } = await openComparison('conflict');
    // As when another window labelled the case a moment ago and this one has not read it yet.
    session.record.cases[2]!.expected = { disposition: 'Non-Compliant' };

    const written = await vscode.commands.executeCommand<boolean>('agentWorkbench.comparisons.thisIsRight', { comparison: session.document.uri, caseIndex: 2, target: 0 });

    assert.equal(written, false);
    assert.deepEqual(await fileLines(testSet), [...LINES, ''], 'nothing was written');
    assert.deepEqual(session.record.cases[2]!.expected, { disposition: 'Compliant' }, 'the comparison shows the file’s label from now on');
  });

  it('labels a case from the view of its job opened from the comparison, as from its cell', async () => {
    const { testSet, session } = await openComparison('job');
    const labelling = api.comparisons.jobLabelling(session.document.uri, 1, 1);
    await api.jobViews.open({ agent: { id: 'a', name: 'Support Call QA' }, jobId: 't1', labelling });
    await waitFor(() => api.jobViews.shownState('t1')?.labelling, 'the label bar of the job view');
    assert.equal(api.jobViews.shownState('t1')?.labelling, 'Case “free upgrade” of labels-test/job.comparison.json: nothing expected yet');

    await api.jobViews.act('t1', 'thisIsRight');

    assert.equal(api.jobViews.shownState('t1')?.labelling, 'Case “free upgrade” of labels-test/job.comparison.json: expected Compliant');
    assert.equal((JSON.parse((await fileLines(testSet))[2]!) as { expected?: string }).expected, 'Compliant');
    assert.deepEqual(accuracies(session), ['67% of 3 labelled', '67% of 3 labelled']);
  });

  it('starts Label Cases… on a test set in its newest comparison', async () => {
    const { testSet, session } = await openComparison('pass');
    const started = await vscode.commands.executeCommand<ComparisonSession>('agentWorkbench.comparisons.labelCases', testSet);
    assert.equal(started, session, 'the comparison of that test set');
  });

  it('follows labels another window writes into the test set', async () => {
    const { testSet, session } = await openComparison('elsewhere');
    const labelled = LINES.map((l, i) => (i === 2 ? '{"name":"free upgrade","inputs":{"transcript":"t1"},"expected":"Non-Compliant"}' : l));
    await vscode.workspace.fs.writeFile(testSet, new TextEncoder().encode(`${labelled.join('\n')}\n`));
    await waitFor(() => session.shown?.rows[1]?.expected === 'Non-Compliant', 'the comparison to take the new label');
    assert.deepEqual(accuracies(session), ['100% of 3 labelled', '33% of 3 labelled']);
  });
});
