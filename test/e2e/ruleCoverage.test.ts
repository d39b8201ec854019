// Rule coverage clicked through a real VS Code in Chromium against the sandbox: the demo policy opened
// from the Policies view, the demo test set chosen on its first line, the totals and the unreached rules'
// lenses and marks shown, a rule's hover listing its cases; then Find Cases for This Rule adds a past job
// as a case. The comparison beside the test set is written as the sandbox's engine judges its cases.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { newComparison, serializeComparison } from '../../src/core/comparison/comparisonRecord';
import { parseTestSet } from '../../src/core/comparison/testSet';
import { readPolicy } from '../../src/sandbox/engine/policyRules';
import { matchRules } from '../../src/sandbox/engine/ruleMatching';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_AGENT_NAME, DEMO_LOOP_POLICY_NAME, DEMO_LOOP_TRANSCRIPT } from '../../src/sandbox/seed/demoLoop';
import { DEMO_POLICIES } from '../../src/sandbox/seed/demoPolicies';
import { demoTestSetText } from '../../src/sandbox/seed/demoTestSet.mjs';
import { useWorkbenchSession } from './support/session';

const TEST_SET = 'tests/support-call-qa.testset.jsonl';

/** The demo test set's comparison on the current version: the rules each case matches, as the sandbox's engine matches them with the demo policy's current content. */
function demoComparison(testSetText: string): string {
  const policy = DEMO_POLICIES.find((p) => p.name === DEMO_LOOP_POLICY_NAME)!;
  const content = policy.versions[policy.versions.length - 1]!.content;
  const { cases } = parseTestSet('support-call-qa.testset.jsonl', testSetText);
  const record = newComparison({
    title: 'support-call-qa.testset.jsonl on Support Call QA', agentId: DEMO_LOOP_AGENT_ID, agentName: DEMO_LOOP_AGENT_NAME, testSet: 'support-call-qa.testset.jsonl', cases,
    targets: [{ id: 'now', label: 'Current version now', kind: 'current' }, { id: 'before', label: 'Results before', kind: 'baseline' }],
  });
  const rules = readPolicy(content).rules;
  record.cases.forEach((c, i) => {
    const matched = matchRules(rules, Object.entries(c.inputs).map(([key, value]) => ({ key, text: String(value) })));
    const value = JSON.stringify(matched.map((m) => ({ category: m.rule.category, rule: m.rule.title })));
    c.runs.now = { jobId: `job-${i}`, status: 3, outputs: [{ key: 'matched_rules', value, data_type: 'application/json' }] };
  });
  return serializeComparison(record);
}

describe('Rule coverage in the policy editor, in the browser', function () {
  this.timeout(300_000);
  const testSetText = demoTestSetText(DEMO_LOOP_TRANSCRIPT);
  const session = useWorkbenchSession('coverage', {
    sandbox: 'signedIn',
    files: { [TEST_SET]: testSetText, 'tests/support-call-qa.comparison.json': demoComparison(testSetText) },
  });

  it('shows which rules the test set reaches, marks the unreached ones, lists a rule’s cases, and adds a past job as a case for an unreached rule', async () => {
    const { workbench, profile } = session();
    const { page } = workbench;
    await workbench.openActivity('Agent Workbench');
    await workbench.collapseView('Datasets');
    await workbench.collapseView('Tables');
    const policy = workbench.view('Policies').locator('.monaco-list-row[aria-level="1"]', { hasText: DEMO_LOOP_POLICY_NAME });
    await workbench.expand(policy.first());
    const current = workbench.view('Policies').locator('.monaco-list-row[aria-level="2"]', { has: page.locator('.label-description', { hasText: /^current/ }) });
    await current.first().click();
    await page.locator('.tab.active', { hasText: /\.json/ }).waitFor();

    // The first line asks for the test set once; the demo's comes first, as run on the agent applying the policy.
    await page.locator('.codelens-decoration a', { hasText: 'Rule coverage: choose a test set' }).first().click({ timeout: 30_000 });
    const choice = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'support-call-qa.testset.jsonl' });
    await choice.first().waitFor({ timeout: 30_000 });
    await choice.first().click();
    await page.locator('.codelens-decoration', { hasText: '8 of 11 rules reached by support-call-qa.testset.jsonl' }).first().waitFor({ timeout: 30_000 });
    assert.ok((await page.locator('.codelens-decoration', { hasText: 'no case reaches this rule' }).count()) >= 1, 'an unreached rule says so');
    assert.ok((await page.locator('.cgmr').count()) >= 1, 'an unreached rule is marked in the gutter');

    // A reached rule's hover lists the cases that reach it, each with what it expects.
    await page.locator('.view-line span', { hasText: 'Reads out full card numbers or passwords' }).first().hover();
    const hover = page.locator('.monaco-hover', { hasText: /Reached by \d+ cases? of support-call-qa\.testset\.jsonl/ });
    await hover.first().waitFor({ timeout: 15_000 });
    assert.match(await hover.first().innerText(), /expects (Compliant|Non-Compliant)/);
    await workbench.screenshot('coverage--policy-editor');
    await page.keyboard.press('Escape');

    // Find Cases for This Rule, from the unreached rule's lens: past jobs whose outputs say it matched.
    await page.locator('.codelens-decoration a', { hasText: 'no case reaches this rule' }).first().click();
    const job = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'its outputs say this rule matched' });
    await job.first().waitFor({ timeout: 60_000 });
    await workbench.screenshot('coverage--find-cases');
    // A click on a row of a multiple choice ticks it; OK takes the ticked ones.
    await job.first().click();
    await page.locator('.quick-input-widget', { hasText: '1 Selected' }).waitFor({ timeout: 10_000 });
    await page.locator('.quick-input-widget .monaco-button', { hasText: /^OK$/ }).first().click();
    await workbench.waitForNotification(/^Added 1 case to support-call-qa\.testset\.jsonl for “Asks for the account PIN or a one-time code”/, 30_000);
    const after = fs.readFileSync(path.join(profile.workspaceDir, TEST_SET), 'utf8');
    assert.ok(after.startsWith(testSetText), 'the test set’s lines before the new case are kept');
    assert.equal(parseTestSet('support-call-qa.testset.jsonl', after).cases.length, 13);
  });
});
