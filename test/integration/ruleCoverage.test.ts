// Rule coverage in the policy editor of a real extension host, against the sandbox's engine: the demo
// policy shows which rules its labelled test set reaches (8 of 11), an unreached rule has its lens, mark
// and hover; Find Cases for it adds a past job as a case, and the lens follows the next comparison. A
// trial of an edit to an unreached rule says so before any job starts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { isComplete, parseComparison } from '../../src/core/comparison/comparisonRecord';
import { parseTestSet } from '../../src/core/comparison/testSet';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_POLICY_ID, DEMO_LOOP_TRANSCRIPT } from '../../src/sandbox/seed/demoLoop';
import { demoTestSetText } from '../../src/sandbox/seed/demoTestSet.mjs';
import type { ComparisonSession } from '../../src/extension/comparison/comparisonSession';
import type { CasesAdded } from '../../src/extension/coverage/findCases';
import type { JobChoice, TestSetChoice, UncoveredTrialQuestion } from '../../src/extension/coverage/coveragePrompts';
import type { AgentWorkbenchApi } from '../../src/extension/extension';
import { connect, startSandbox, waitFor, withSetting, workbench, type TestSandbox } from './support/workbench';

const CHOOSE = 'agentWorkbench.coverage.chooseTestSet';
const FIND_CASES = 'agentWorkbench.coverage.findCases';
const TRY = 'agentWorkbench.trials.tryThisEdit';
const PIN_RULE = 'Asks for the account PIN or a one-time code';
const UNRECORDED_RULE = 'Offers an unrecorded line when the customer objects';

describe('Rule coverage in the policy editor', function () {
  this.timeout(240_000);
  let sandbox: TestSandbox;
  let api: AgentWorkbenchApi;
  let folder: vscode.Uri;
  let testSet: vscode.Uri;
  let restoreInterval: () => Promise<void>;

  before(async () => {
    sandbox = await startSandbox();
    await connect(sandbox);
    api = await workbench();
    restoreInterval = await withSetting('jobs.refreshIntervalSeconds', 1);
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(root, 'the test workspace has a folder');
    folder = vscode.Uri.joinPath(root, 'coverage-test');
    await vscode.workspace.fs.createDirectory(folder);
    testSet = vscode.Uri.joinPath(folder, 'support-call-qa.testset.jsonl');
    await vscode.workspace.fs.writeFile(testSet, new TextEncoder().encode(demoTestSetText(DEMO_LOOP_TRANSCRIPT)));
    await runComparison();
  });

  afterEach(async () => {
    api.prompts.coverage = undefined;
    api.prompts.offer = undefined;
    for (let i = 0; i < 20 && vscode.window.tabGroups.all.some((g) => g.tabs.length > 0); i++) await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  after(async () => {
    await api.workspaceState.update('agentWorkbench.coverage.testSets', undefined);
    await restoreInterval();
    await vscode.workspace.fs.delete(folder, { recursive: true });
    await sandbox.stop();
  });

  /** The demo test set on Support Call QA (the current version now, and the same version pinned), until every case has a result. */
  async function runComparison(): Promise<void> {
    const client = api.connection.requireClient();
    const versionId = (await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id!;
    const uri = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.comparisons.run', undefined, { testSet, agentId: DEMO_LOOP_AGENT_ID, targets: ['now', { versionId, label: 'pinned version' }] });
    assert.ok(uri, 'the comparison file was created');
    const session: ComparisonSession = await waitFor(() => api.comparisons.session(uri), 'the comparison view');
    await waitFor(() => session.state.kind === 'stopped' && isComplete(session.record), 'the comparison to finish', 120_000);
  }

  /** The demo policy's current version in an editor. */
  async function openPolicy(): Promise<vscode.TextEditor> {
    const client = api.connection.requireClient();
    const policy = await client.policies.get(DEMO_LOOP_POLICY_ID);
    return api.policyDocuments.open(policy, await client.policies.getVersion(policy.id, policy.current_version_id!));
  }

  const lensesOf = async (uri: vscode.Uri) => (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  const lineOf = (document: vscode.TextDocument, title: string): number => document.positionAt(document.getText().indexOf(`"${title}"`)).line;
  const lensAt = (lenses: vscode.CodeLens[], line: number) => lenses.find((l) => l.range.start.line === line && l.command?.title !== undefined);
  const header = (lenses: vscode.CodeLens[]) => lenses.filter((l) => l.range.start.line === 0).map((l) => l.command?.title ?? '');
  const hoverText = async (uri: vscode.Uri, line: number) =>
    ((await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(line, 12))) ?? [])
      .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)))
      .join('\n');

  it('shows which rules the chosen test set reaches, marks an unreached rule, finds a past job for it, and follows the next comparison', async () => {
    const { document } = await openPolicy();
    assert.deepEqual(header(await lensesOf(document.uri)), ['$(checklist) Rule coverage: choose a test set…']);

    // The test set is chosen once for the policy: the one run on an agent that applies it comes first.
    let offered: readonly TestSetChoice[] = [];
    api.prompts.coverage = { testSet: (choices) => ((offered = choices), Promise.resolve(choices[0]?.uri)) };
    await vscode.commands.executeCommand(CHOOSE, { document: document.uri.toString() });
    assert.equal(offered[0]?.uri.toString(), testSet.toString());
    assert.deepEqual([offered[0]?.ours, offered[0]?.description], [true, 'run on Support Call QA']);

    const lenses = await waitFor(async () => {
      const all = await lensesOf(document.uri);
      return header(all)[0]?.includes('rules reached') && all;
    }, 'the coverage lenses');
    assert.deepEqual(header(lenses), ['$(checklist) 8 of 11 rules reached by support-call-qa.testset.jsonl', 'change test set']);
    const pinLine = lineOf(document, PIN_RULE);
    const pin = lensAt(lenses, pinLine);
    assert.equal(pin?.command?.title, 'no case reaches this rule');
    assert.equal(pin?.command?.command, FIND_CASES);
    assert.match(lensAt(lenses, lineOf(document, 'Verifies the caller before sharing account details'))?.command?.title ?? '', /^\d+ cases? · /);

    // The three unreached rules are marked in the gutter; the hover offers to find cases, or lists the cases.
    const marked = await waitFor(() => api.ruleCoverage.marks.marked.get(document.uri.toString())?.length === 3 && api.ruleCoverage.marks.marked.get(document.uri.toString()), 'the marks');
    assert.deepEqual(marked.map((r) => r.start.line), [pinLine, lineOf(document, 'Shares account details with an unverified caller'), lineOf(document, UNRECORDED_RULE)]);
    assert.match(await hoverText(document.uri, pinLine), /No case of support-call-qa\.testset\.jsonl reaches this rule[\s\S]*Find Cases for This Rule/);
    assert.match(await hoverText(document.uri, lineOf(document, 'Verifies the caller before sharing account details')), /command:agentWorkbench\.coverage\.openCase\?/);

    // Find Cases for This Rule, from its lens: past jobs whose outputs say it matched; the first is added.
    const before = await vscode.workspace.fs.readFile(testSet);
    let jobs: readonly JobChoice[] = [];
    api.prompts.coverage = { jobs: (choices) => ((jobs = choices), Promise.resolve([choices[0]!.jobId])) };
    const offers: string[] = [];
    api.prompts.offer = (text) => (offers.push(text), undefined);
    const lensArgs: unknown[] = pin?.command?.arguments ?? [];
    const added = await vscode.commands.executeCommand<CasesAdded>(FIND_CASES, ...lensArgs);
    assert.equal(added?.added, 1);
    assert.ok(jobs.length > 0 && jobs.every((j) => j.detail.includes('its outputs say this rule matched')), 'jobs that matched the rule are offered');
    const after = await vscode.workspace.fs.readFile(testSet);
    assert.deepEqual(after.subarray(0, before.length), before, 'every byte before the new case is kept');
    const cases = parseTestSet('support-call-qa.testset.jsonl', new TextDecoder().decode(after)).cases;
    assert.equal(cases.length, 13);
    assert.equal(cases[12]?.sourceJobId, jobs[0]!.jobId);
    assert.match(offers[0] ?? '', /^Added 1 case to support-call-qa\.testset\.jsonl for “Asks for the account PIN or a one-time code”/);

    // The next comparison reaches the rule, and the lenses follow it.
    await runComparison();
    let seen: string[] = [];
    const reached = await waitFor(async () => {
      const all = await lensesOf(document.uri);
      seen = [...header(all), lensAt(all, pinLine)?.command?.title ?? ''];
      return header(all)[0]?.includes('9 of 11') && all;
    }, 'the lenses of the new comparison', 30_000).catch(async (error: unknown) => {
      const second = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, 'support-call-qa-2.comparison.json')));
      assert.fail(`${String(error)}; the lenses said ${JSON.stringify(seen)}; the new comparison has ${parseComparison(second).cases.length} cases, the last ran ${String(JSON.stringify(parseComparison(second).cases[12]?.runs)).slice(0, 2000)}`);
    });
    assert.equal(lensAt(reached, pinLine)?.command?.title, '1 case · not labelled');
  });

  it('says before a trial starts that no case reaches the rule its edit changes, and offers to find cases instead', async () => {
    const editor = await openPolicy();
    const text = editor.document.getText();
    const at = text.indexOf(`"${UNRECORDED_RULE}"`);
    const flag = text.indexOf('"GREEN_FLAG"', at);
    assert.ok(at > 0 && flag > at, 'the rule and its flag are in the text');
    assert.ok(await editor.edit((b) => b.replace(new vscode.Range(editor.document.positionAt(flag), editor.document.positionAt(flag + '"GREEN_FLAG"'.length)), '"RED_FLAG"')));

    let asked: UncoveredTrialQuestion | undefined;
    api.prompts.coverage = { uncoveredTrial: (question) => ((asked = question), Promise.resolve('alternative')), jobs: () => Promise.resolve(undefined) };
    await vscode.commands.executeCommand(TRY, editor.document.uri, { testSet });
    assert.equal(asked?.message, 'No case of support-call-qa.testset.jsonl reaches the rule this edit changes: the trial cannot show its effect.');
    assert.match(asked?.detail ?? '', /4\.1\.1 “Offers an unrecorded line when the customer objects”: flag changed; no case reaches it\./);
    assert.match(asked?.button ?? '', /^Start \d+ Jobs Anyway$/);
    assert.equal(asked?.alternative, 'Find Cases for This Rule');
    assert.deepEqual(await vscode.workspace.findFiles('coverage-test/*.trial.json'), [], 'no trial was set up');
  });
});
