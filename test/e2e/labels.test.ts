// Labelling where the work happens, clicked and typed through a real VS Code in Chromium: This Is Right
// from a cell's context menu moves the figures, the transition filters narrow the table, and a
// labelling pass goes by keyboard.
import * as assert from 'node:assert/strict';
import { newComparison, serializeComparison } from '../../src/core/comparison/comparisonRecord';
import { parseTestSet } from '../../src/core/comparison/testSet';
import { JobStatus } from '../../src/core/jobStatus';
import { useWorkbenchSession } from './support/session';

const TEST_SET = [
  '// agent: 5c0a11d3-7e2b-4f61-9a3c-2d8e4b6f1a01 · Support Call QA',
  '{"name":"refund promise","inputs":{"transcript":"Agent: I will refund you, no need to check with anyone."},"expected":"Compliant"}',
  '{"name":"free upgrade","inputs":{"transcript":"Agent: A free upgrade for a year."},"expected":"Non-Compliant"}',
  '{"name":"card read out","inputs":{"transcript":"Agent: The card is 4929 1234 5678 6620."}}',
  '{"name":"short call","inputs":{"transcript":"Agent: Eight to eight, every day."}}',
  '{"name":"address change","inputs":{"transcript":"Agent: Done, the next invoice goes to the new address."},"expected":"Compliant"}',
];
/** Before's and the trial's outcome of each case. */
const OUTCOMES = [
  ['Non-Compliant', 'Compliant'],
  ['Non-Compliant', 'Compliant'],
  ['Non-Compliant', 'Non-Compliant'],
  ['Compliant', 'Compliant'],
  ['Compliant', 'Compliant'],
];

function comparisonFile(): string {
  const record = newComparison({
    title: 'Customer Call Quality Standard: trial of an edit',
    agentId: '5c0a11d3-7e2b-4f61-9a3c-2d8e4b6f1a01',
    agentName: 'Support Call QA',
    testSet: 'calls.testset.jsonl',
    cases: parseTestSet('calls.testset.jsonl', TEST_SET.join('\n')).cases,
    targets: [
      { id: 'before', label: 'Results before', kind: 'baseline' },
      { id: 'trial', label: 'Trial of the edit', kind: 'current' },
    ],
  });
  record.cases.forEach((c, i) => {
    c.runs.before = { jobId: `before-${i}`, status: JobStatus.SUCCESS, outputs: [{ key: 'disposition', value: OUTCOMES[i]![0]! }], durationMs: 9000 };
    // A reviewer corrected the "free upgrade" call to Compliant; the test set still says Non-Compliant.
    if (i === 1) c.runs.before.reviewed = 'Compliant';
    c.runs.trial = { jobId: `trial-${i}`, status: JobStatus.SUCCESS, outputs: [{ key: 'disposition', value: OUTCOMES[i]![1]! }], durationMs: 8000 };
  });
  return serializeComparison(record);
}

describe('Labelling in the browser', function () {
  this.timeout(240_000);
  const session = useWorkbenchSession('labels', { sandbox: 'signedIn', files: { 'calls.testset.jsonl': `${TEST_SET.join('\n')}\n`, 'calls.comparison.json': comparisonFile() } });

  it('labels a case from its cell’s context menu and by a keyboard pass, and the figures say better or worse at once', async () => {
    const { workbench } = session();
    const { page } = workbench;
    // The extension is up once its views are (the comparison view is its custom editor).
    await workbench.openActivity('Agent Workbench');
    await workbench.treeItem('Agents', 'Support Call QA').first().waitFor({ timeout: 30_000 });
    await workbench.runCommand('Agent Workbench: Open Comparison');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'calls.comparison.json' }).first().click();
    const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    const cards = frame.locator('#summaries .card');
    await cards.nth(1).filter({ hasText: /Accuracy\s*67% of 3 labelled/ }).waitFor({ timeout: 30_000 });
    assert.match(await frame.locator('#transitions').innerText(), /1 became right\s*1 became wrong/);

    // "card read out": the trial's Non-Compliant is right.
    const row = frame.locator('#canvas .row', { has: frame.locator('.col-case', { hasText: 'card read out' }) });
    await workbench.contextMenu(row.locator('.col-key').nth(1), /^This Is Right$/);
    await cards.nth(1).filter({ hasText: /Accuracy\s*75% of 4 labelled/ }).waitFor({ timeout: 30_000 });
    assert.match(await cards.nth(0).innerText(), /Accuracy\s*75% of 4 labelled/);
    await row.locator('.col-expected', { hasText: 'Non-Compliant' }).waitFor();

    // The pass starts at the selected case: "short call" is the one left; 1 picks the first disposition.
    await frame.locator('#label-cases').click();
    const pass = frame.locator('#label-pass');
    await pass.locator('.pass-case', { hasText: 'short call' }).waitFor({ timeout: 30_000 });
    await pass.locator('.pass-choices li').first().waitFor({ timeout: 30_000 });
    await page.mouse.move(700, 800);
    await workbench.screenshot('labels--pass');
    const first = await pass.locator('.pass-choices .pass-value').first().innerText();
    await page.keyboard.press('Enter');
    await pass.locator('.pass-progress', { hasText: '5 of 5 labelled' }).waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');
    assert.ok(first.length > 0, 'the policy’s dispositions are numbered');
    await cards.nth(1).filter({ hasText: /Accuracy\s*80% of 5 labelled/ }).waitFor({ timeout: 30_000 });

    // What the edit broke, as a filter.
    await frame.getByRole('button', { name: /^1 case became wrong/ }).click();
    await frame.locator('#count', { hasText: '1 of 5 cases' }).waitFor();
    await workbench.runCommand('Notifications: Clear All Notifications');
    await page.mouse.move(700, 800);
    await workbench.screenshot('labels--comparison');

    // "free upgrade", the case the edit broke: the reviewer was wrong, the trial's Compliant is right.
    // Set Expected… offers the policy's dispositions, says who gave each, and asks for a comment.
    const upgrade = frame.locator('#canvas .row', { has: frame.locator('.col-case', { hasText: 'free upgrade' }) });
    await upgrade.locator('.col-expected.review-disagree', { hasText: 'Non-Compliant (reviewer: Compliant)' }).first().waitFor({ timeout: 15_000 });
    await upgrade.locator('.col-case').first().click();
    await frame.locator('#label-bar .label-review', { hasText: /corrected this case's job to Compliant, but the case expects Non-Compliant: they disagree/ }).first().waitFor({ timeout: 15_000 });
    await workbench.contextMenu(upgrade.first().locator('.col-key').nth(1), /^Set Expected…$/);
    const choices = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    const compliant = choices.filter({ has: page.locator('.label-name', { hasText: /^Compliant$/ }) }).first();
    await compliant.filter({ hasText: /given by Trial of the edit · a reviewer’s correction/ }).waitFor({ timeout: 30_000 });
    await choices.filter({ has: page.locator('.label-name', { hasText: /^Non-Compliant$/ }) }).filter({ hasText: /expected now · given by Results before/ }).first().waitFor();
    await page.locator('.quick-input-widget .quick-input-progress-bar').waitFor({ state: 'hidden', timeout: 30_000 }).catch(() => undefined);
    await workbench.screenshot('labels--set-expected');
    await compliant.click();
    const comment = page.locator('.quick-input-widget .quick-input-title', { hasText: /Label free upgrade: comment/ });
    await comment.waitFor({ timeout: 15_000 });
    await page.keyboard.type('the upgrade was within policy');
    await page.keyboard.press('Enter');
    await cards.nth(1).filter({ hasText: /Accuracy\s*100% of 5 labelled/ }).waitFor({ timeout: 30_000 });
    // The case the edit broke is now one it fixed.
    await frame.locator('#transitions', { hasText: /2 became right\s*0 became wrong/ }).waitFor({ timeout: 15_000 });
  });
});
