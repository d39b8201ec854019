// Try This Draft clicked through a real VS Code in Chromium against the sandbox: Create Agent Version…
// on the demo agent, the draft changed in its editor (not saved) to apply the user's lenient policy,
// tried on a copy of the agent — the case flips in the comparison while the agent's current version
// keeps its verdict — then published as one new version of the agent.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/core/client';
import { draftFromVersion } from '../../src/core/documents/agentVersionDraft';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_AGENT_NAME, DEMO_LOOP_DISPOSITION_AFTER, DEMO_LOOP_DISPOSITION_BEFORE, DEMO_LOOP_INPUTS, DEMO_LOOP_POLICY_ID } from '../../src/sandbox/seed/demoLoop';
import { demoRuleMadeGreen } from './support/policyEdit';
import { useWorkbenchSession } from './support/session';

const TEST_SET = 'support-call-qa.testset.jsonl';
const CASE = { name: 'promises a refund over limit', inputs: DEMO_LOOP_INPUTS, expected: DEMO_LOOP_DISPOSITION_AFTER };

describe('Trying an agent version draft on a copy, in the browser', function () {
  this.timeout(420_000);
  const session = useWorkbenchSession('draft-trials', {
    sandbox: 'signedIn',
    settings: { 'agentWorkbench.jobs.refreshIntervalSeconds': 2 },
    files: { [TEST_SET]: `// agent: ${DEMO_LOOP_AGENT_ID} · ${DEMO_LOOP_AGENT_NAME}\n${JSON.stringify(CASE)}\n` },
  });

  it('tries an unsaved draft that applies another policy, sees the case flip on the copy only, and publishes it as one version', async () => {
    const { workbench, sandbox } = session();
    assert.ok(sandbox);
    const { page } = workbench;
    const client = new ServiceClient(sandbox);
    // The user's own policy: the demo policy with the loop's rule no longer a red flag.
    const demo = await client.policies.getVersion(DEMO_LOOP_POLICY_ID, String((await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id));
    const lenient = await client.policies.create({ name: 'Call rules, lenient', description: 'made by the user', content: JSON.parse(demoRuleMadeGreen(demo.content)) as Record<string, unknown> });
    const agent = await client.agents.get(DEMO_LOOP_AGENT_ID);
    const versionsBefore = (await client.agents.listVersions(DEMO_LOOP_AGENT_ID)).length;
    const draft = draftFromVersion(await client.agents.getVersion(DEMO_LOOP_AGENT_ID, String(agent.current_version_id)));
    draft.engine_config = { ...draft.engine_config, policy_id: lenient.id };

    // Create Agent Version… on the agent's row opens its draft; the draft is changed, not saved.
    await workbench.openActivity('Agent Workbench');
    await workbench.collapseView('Datasets');
    await workbench.collapseView('Tables');
    const row = workbench.view('Agents').locator('.monaco-list-row[aria-level="1"]', { hasText: DEMO_LOOP_AGENT_NAME });
    await workbench.contextMenu(row, /^Create Agent Version…/);
    await page.locator('.tab.active', { hasText: /new version/ }).waitFor({ timeout: 30_000 });
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.click({ position: { x: 200, y: 100 } });
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(JSON.stringify(draft, null, 2));
    await page.keyboard.press('Shift+Control+End');
    await page.keyboard.press('Delete');
    await workbench.waitForStatusBarText(/Unsaved draft/, 10_000);

    // Try This Draft… from the editor's title bar: one question says what runs and that the agent keeps its version.
    await page.locator('.editor-actions a.action-label[aria-label^="Try This Draft"]').first().click();
    const start = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Start \d+ Jobs?$/ });
    await start.first().waitFor({ timeout: 60_000 });
    assert.match(await page.locator('.monaco-dialog-box').first().innerText(), /the agent keeps its current version until you publish/);
    await start.first().click();
    await page.locator('.tab', { hasText: /\.trial\.comparison\.json/ }).first().waitFor({ timeout: 60_000 });
    const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    await frame.locator('#summaries .card').first().waitFor({ timeout: 30_000 });
    await frame.locator('#progress').waitFor({ state: 'hidden', timeout: 150_000 });

    const cards = frame.locator('#summaries .card');
    assert.equal(await cards.count(), 2);
    assert.match(await cards.nth(0).innerText(), /Current version now/);
    assert.match(await cards.nth(1).innerText(), /Trial of the draft[\s\S]*Changed\s*1/);
    const caseRow = frame.locator('#canvas .row').filter({ hasText: CASE.name }).first();
    const now = await caseRow.locator('.col-key[data-target="0"]').innerText();
    const trial = await caseRow.locator('.col-key[data-target="1"]').innerText();
    assert.ok(now.includes(DEMO_LOOP_DISPOSITION_BEFORE), `the current version now: ${now}`);
    assert.ok(trial.includes(DEMO_LOOP_DISPOSITION_AFTER) && !trial.includes(DEMO_LOOP_DISPOSITION_BEFORE), `the draft on the copy: ${trial}`);
    assert.equal((await client.agents.listVersions(DEMO_LOOP_AGENT_ID)).length, versionsBefore, 'no version of the real agent yet');
    await page.mouse.move(700, 800);
    await workbench.runCommand('Notifications: Clear All Notifications');
    await workbench.screenshot('draft-trials--comparison');

    // Publish This Edit from the comparison's title bar: asked once, then one new version of the agent.
    await page.locator('.editor-actions a.action-label[aria-label^="Publish This Edit"]').first().click();
    const publish = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Publish$/ });
    await publish.first().waitFor({ timeout: 30_000 });
    assert.match(await page.locator('.monaco-dialog-box').first().innerText(), /Publish the draft .* as a new version of “Support Call QA”\?/);
    await publish.first().click();
    await workbench.waitForNotification(/Published the draft as the current version of “Support Call QA”/, 60_000);
    // The draft's tab gives way to the new version's: nothing is left to save twice.
    await page.locator('.tab', { hasText: /Support Call QA · v\d+.*\.json/ }).first().waitFor({ timeout: 30_000 });
    await page.locator('.tab', { hasText: 'new version.json' }).first().waitFor({ state: 'detached', timeout: 30_000 });
    await workbench.screenshot('draft-trials--published');
    assert.equal((await client.agents.listVersions(DEMO_LOOP_AGENT_ID)).length, versionsBefore + 1, 'exactly one new version of the real agent');
    const now2 = await client.agents.get(DEMO_LOOP_AGENT_ID);
    const published = await client.agents.getVersion(DEMO_LOOP_AGENT_ID, String(now2.current_version_id));
    assert.equal((published.engine_config as Record<string, string>).policy_id, lenient.id, 'the published version is the draft');
    const copies = (await client.agents.list({ search: 'trial', include_job_stats: false })).results.filter((a) => a.description?.includes('agent-workbench-trial:'));
    assert.deepEqual(copies, [], 'the copy is gone');
    await workbench.treeItem('Agents', /· trial \d{4}-/).first().waitFor({ state: 'detached', timeout: 30_000 });
    await client.close();
  });
});
