// A test set made from selected jobs, a policy change, and Test This Policy Change… clicked through a
// real VS Code in Chromium against a sandbox; the comparison view and its chart in screenshots.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/core/client';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_INPUTS, DEMO_LOOP_POLICY_ID, DEMO_LOOP_RULE_PHRASE } from '../../src/sandbox/seed/demoLoop';
import { useWorkbenchSession } from './support/session';

describe('Comparisons in the browser', function () {
  this.timeout(240_000);
  const session = useWorkbenchSession('comparisons', { sandbox: 'signedIn', settings: { 'agentWorkbench.jobs.refreshIntervalSeconds': 2 } });

  it('builds a test set from selected jobs, tests a policy change on it, and shows what changed with a chart', async () => {
    const { workbench, sandbox } = session();
    assert.ok(sandbox);
    const { page } = workbench;
    // The case the policy edit is about (the agent's refund promise) is among the jobs selected: the newest, finished.
    const setup = new ServiceClient({ baseUrl: sandbox.baseUrl, token: sandbox.token, organizationId: sandbox.organizationId });
    const loopJob = await setup.agents.run(DEMO_LOOP_AGENT_ID, { inputs: { ...DEMO_LOOP_INPUTS } });
    for (let i = 0; i < 120 && [0, 1, 2].includes((await setup.jobs.status(loopJob)).status); i++) await new Promise((resolve) => setTimeout(resolve, 500));
    await setup.close();
    await workbench.openActivity('Agent Workbench');
    await workbench.collapseView('Datasets');
    await workbench.collapseView('Policies');
    await workbench.collapseView('Tables');
    const agent = workbench.treeItem('Agents', 'Support Call QA');
    await workbench.expand(agent);
    await workbench.expand(workbench.treeItem('Agents', /^Jobs/));
    // Finished jobs (the running ones at the top have no result yet to be the "before").
    const rows = workbench.view('Agents').locator('.monaco-list-row[role="treeitem"][aria-level="3"]').filter({ hasNot: page.locator('.codicon-modifier-spin') });
    await rows.nth(4).waitFor({ timeout: 30_000 });
    await rows.nth(0).click();
    await rows.nth(4).click({ modifiers: ['Shift'] });
    await workbench.screenshot('comparisons--selected-jobs');
    await workbench.contextMenu(rows.nth(2), /^Create Test Set from Jobs/);
    await page.locator('.tab', { hasText: /support-call-qa.*\.testset\.jsonl/ }).first().waitFor({ timeout: 30_000 });
    await workbench.screenshot('comparisons--test-set');

    // The policy change (its editing is the policies suite's business): the rule no longer quotes the phrase.
    const client = new ServiceClient({ baseUrl: sandbox.baseUrl, token: sandbox.token, organizationId: sandbox.organizationId });
    const policy = await client.policies.get(DEMO_LOOP_POLICY_ID);
    const current = await client.policies.getVersion(DEMO_LOOP_POLICY_ID, policy.current_version_id ?? '');
    const content = JSON.parse(JSON.stringify(current.content).split(DEMO_LOOP_RULE_PHRASE).join('a phrase no call has')) as Record<string, unknown>;
    await client.policies.createVersion(DEMO_LOOP_POLICY_ID, { content, version_name: 'refunds need no check', base_version_id: current.id });

    await workbench.collapseView('Agents');
    await workbench.view('Policies').locator('.pane-header').click();
    const policyRow = workbench.treeItem('Policies', 'Customer Call Quality Standard');
    await policyRow.first().waitFor({ timeout: 30_000 });
    await workbench.contextMenu(policyRow, /^Test This Policy Change/);
    // Nothing runs before the user says so: one confirmation names how many jobs start.
    const start = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Start \d+ Jobs?$/ });
    await start.first().waitFor({ timeout: 30_000 });
    await workbench.screenshot('comparisons--confirm-start');
    await start.first().click();
    await page.locator('.tab', { hasText: /\.comparison\.json/ }).first().waitFor({ timeout: 30_000 });
    const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    await frame.locator('#summaries .card').first().waitFor({ timeout: 30_000 });
    // Done when the progress line is gone (every job finished and read).
    await frame.locator('#progress').waitFor({ state: 'hidden', timeout: 150_000 });
    // No tooltip or toast over the view in the picture.
    await page.mouse.move(700, 800);
    await workbench.runCommand('Notifications: Clear All Notifications');
    await workbench.screenshot('comparisons--view');
    const cards = frame.locator('#summaries .card');
    assert.equal(await cards.count(), 2);
    assert.match(await cards.nth(0).innerText(), /Results before[\s\S]*Changed\s*baseline/);
    // What changed: the policy edit flips the cases that quote the rule, and the view says how many and which.
    const now = await cards.nth(1).innerText();
    const changed = Number(/Changed\s*(\d+)/.exec(now)?.[1] ?? '0');
    assert.ok(changed > 0, `the current version changed some outcomes: ${now}`);
    assert.equal(await frame.locator('#rows .diff, .diff').count(), changed, 'one marked cell per changed case');
    // Outcomes keep their meaning-bearing colours: Compliant green, Non-Compliant red, in every chart.
    assert.ok((await frame.locator('#summaries svg.chart rect.outcome-good').count()) > 0, 'a green bar for Compliant');
    assert.equal(await frame.locator('#summaries svg.chart rect.chart-bar:not(.outcome-good):not(.outcome-bad):not(.outcome-warn):not(.outcome-grey):not(.outcome-blue):not(.outcome-purple)').count(), 0);
  });
});
