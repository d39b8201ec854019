// Try This Edit clicked through a real VS Code in Chromium against the sandbox: the named rule of the
// demo policy edited in its editor (not saved), tried on copies — the edited case flips in the
// comparison while the real agent's current version keeps its verdict — then published once.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/core/client';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_AGENT_NAME, DEMO_LOOP_DISPOSITION_AFTER, DEMO_LOOP_DISPOSITION_BEFORE, DEMO_LOOP_INPUTS, DEMO_LOOP_POLICY_ID } from '../../src/sandbox/seed/demoLoop';
import { editDemoRuleInEditor } from './support/policyEdit';
import { useWorkbenchSession } from './support/session';

const TEST_SET = 'support-call-qa.testset.jsonl';
const CASE = { name: 'promises a refund over limit', inputs: DEMO_LOOP_INPUTS, expected: DEMO_LOOP_DISPOSITION_AFTER };

describe('Trying a policy edit on copies, in the browser', function () {
  this.timeout(420_000);
  const session = useWorkbenchSession('trials', {
    sandbox: 'signedIn',
    settings: { 'agentWorkbench.jobs.refreshIntervalSeconds': 2 },
    files: { [TEST_SET]: `// agent: ${DEMO_LOOP_AGENT_ID} · ${DEMO_LOOP_AGENT_NAME}\n${JSON.stringify(CASE)}\n` },
  });

  it('tries the edited rule on copies, sees the case flip while the real agent keeps its verdict, and publishes it once', async () => {
    const { workbench, sandbox } = session();
    assert.ok(sandbox);
    const { page } = workbench;
    const client = new ServiceClient(sandbox);
    const versionsBefore = (await client.policies.listVersions(DEMO_LOOP_POLICY_ID)).count;

    // Open the policy's current version and make the named rule a green flag, without saving.
    await workbench.openActivity('Agent Workbench');
    await workbench.collapseView('Datasets');
    await workbench.collapseView('Tables');
    await editDemoRuleInEditor(workbench, sandbox);
    await workbench.waitForStatusBarText(/Unsaved policy/, 10_000);

    // Try This Edit… from the editor's title bar: one question says what runs and what it costs.
    await page.locator('.editor-actions a.action-label[aria-label^="Try This Edit"]').first().click();
    const start = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Start \d+ Jobs?$/ });
    await start.first().waitFor({ timeout: 60_000 });
    assert.match(await page.locator('.monaco-dialog-box').first().innerText(), /production is not touched until you publish/);
    await workbench.screenshot('trials--confirm');
    await start.first().click();
    await page.locator('.tab', { hasText: /\.trial\.comparison\.json/ }).first().waitFor({ timeout: 60_000 });
    const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    await frame.locator('#summaries .card').first().waitFor({ timeout: 30_000 });
    await frame.locator('#progress').waitFor({ state: 'hidden', timeout: 150_000 });

    // The case flips on the trial; the real agent's current version keeps the old verdict.
    const cards = frame.locator('#summaries .card');
    assert.equal(await cards.count(), 2);
    assert.match(await cards.nth(0).innerText(), /Current version now/);
    assert.match(await cards.nth(1).innerText(), /Trial of the edit[\s\S]*Changed\s*1/);
    const row = frame.locator('#canvas .row').filter({ hasText: CASE.name }).first();
    const now = await row.locator('.col-key[data-target="0"]').innerText();
    const trial = await row.locator('.col-key[data-target="1"]').innerText();
    assert.ok(now.includes(DEMO_LOOP_DISPOSITION_BEFORE), `the current version now: ${now}`);
    assert.ok(trial.includes(DEMO_LOOP_DISPOSITION_AFTER) && !trial.includes(DEMO_LOOP_DISPOSITION_BEFORE), `the trial: ${trial}`);
    assert.equal((await client.policies.listVersions(DEMO_LOOP_POLICY_ID)).count, versionsBefore, 'nothing published yet');
    await page.mouse.move(700, 800);
    await workbench.runCommand('Notifications: Clear All Notifications');
    await workbench.screenshot('trials--comparison');

    // Publish This Edit from the comparison's title bar: a question naming the policy as the service does
    // (the user's yes is what lets production be written), then the policy's save flow asks the version name.
    await page.locator('.editor-actions a.action-label[aria-label^="Publish This Edit"]').first().click();
    const publish = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Publish$/ });
    await publish.first().waitFor({ timeout: 30_000 });
    assert.match(await page.locator('.monaco-dialog-box').first().innerText(), /as a new version of “Customer Call Quality Standard”/);
    await publish.first().click();
    await workbench.answerInput('promises are fine', /Save as New Version/);
    await workbench.waitForNotification(/Published .*promises are fine/, 60_000);
    await workbench.screenshot('trials--published');
    assert.equal((await client.policies.listVersions(DEMO_LOOP_POLICY_ID)).count, versionsBefore + 1, 'exactly one new version of the real policy');
    const trialAgents = (await client.agents.list({ search: 'trial', include_job_stats: false })).results.filter((a) => a.description?.includes('agent-workbench-trial:'));
    assert.deepEqual(trialAgents, [], 'the trial agent is gone');
    // The views show it: neither the trial agent nor the trial policy is listed any more.
    await workbench.treeItem('Policies', /· trial \d{4}-/).first().waitFor({ state: 'detached', timeout: 30_000 });
    await workbench.treeItem('Agents', /· trial \d{4}-/).first().waitFor({ state: 'detached', timeout: 30_000 });
    await client.close();
  });
});
