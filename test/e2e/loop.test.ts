// The loop people live in, clicked through a real VS Code in Chromium against the sandbox, in the
// README's words: ▶ on Support Call QA opens a run file with the call where the agent promises a refund;
// run it and read its result; change the rule the demo names in its policy and save it as a new
// version; run the same file again and see the disposition change.
import * as assert from 'node:assert/strict';
import { DEMO_LOOP_AGENT_NAME, DEMO_LOOP_DISPOSITION_AFTER, DEMO_LOOP_DISPOSITION_BEFORE, DEMO_LOOP_RULE_PHRASE } from '../../src/sandbox/seed/demoLoop';
import { editDemoRuleInEditor } from './support/policyEdit';
import { useWorkbenchSession } from './support/session';
import type { Workbench } from './support/workbench';

const RUN_FILE = 'support-call-qa.agentrun.json';
const VERSION_NAME = 'e2e promises are fine';

/** Runs the open run file with its lens, waits for the job to finish, and reads the disposition in the job view. */
async function runAndReadDisposition(workbench: Workbench, shot: string): Promise<string> {
  const { page } = workbench;
  await page.locator('.tab', { hasText: RUN_FILE }).first().click();
  const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: /Run/ });
  await lens.first().waitFor({ timeout: 30_000 });
  await lens.first().click();
  await workbench.waitForNotification(/Job .* finished/, 150_000);
  await page.locator('.notification-toast .monaco-button', { hasText: 'Show Result' }).first().click();
  const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  const disposition = view.locator('#outputs .output', { hasText: 'disposition' }).first();
  await disposition.waitFor({ timeout: 30_000 });
  const text = await disposition.innerText();
  await workbench.screenshot(shot);
  // Close the view so that the next Show Result opens the next job's.
  await page.keyboard.press('Control+W');
  return text;
}

describe('The loop from a policy edit to its outcome, in the browser', function () {
  this.timeout(420_000);
  const session = useWorkbenchSession('loop', {
    sandbox: 'signedIn',
    settings: { 'agentWorkbench.jobs.watchIntervalSeconds': 2 },
  });

  it('changes the disposition of a prepared run after the named rule of its policy is edited and saved', async () => {
    const { workbench, sandbox } = session();
    assert.ok(sandbox);
    const { page } = workbench;
    await workbench.openActivity('Agent Workbench');
    // ▶ on the agent's row: a run file prefilled with the agent's example inputs — the demo's call.
    const agent = workbench.treeItem('Agents', DEMO_LOOP_AGENT_NAME);
    await agent.first().waitFor({ timeout: 60_000 });
    await workbench.inlineAction(agent.first(), /^Run Agent/);
    await page.locator('.tab.active', { hasText: RUN_FILE }).waitFor({ timeout: 30_000 });
    await page.locator('.monaco-editor .view-lines', { hasText: DEMO_LOOP_RULE_PHRASE }).first().waitFor({ timeout: 10_000 });

    const before = await runAndReadDisposition(workbench, 'loop--before');
    assert.ok(before.includes(DEMO_LOOP_DISPOSITION_BEFORE), `before the edit: ${before}`);

    // Open the policy's current version from the Policies view, make the named rule a green flag, save.
    await editDemoRuleInEditor(workbench, sandbox);
    await page.keyboard.press('Control+S');
    await workbench.answerInput(VERSION_NAME, /Save as New Version/);
    await page.locator('.tab.active', { hasText: VERSION_NAME }).waitFor({ timeout: 30_000 });
    await workbench.screenshot('loop--policy-saved');

    const after = await runAndReadDisposition(workbench, 'loop--after');
    assert.ok(after.includes(DEMO_LOOP_DISPOSITION_AFTER) && !after.includes(DEMO_LOOP_DISPOSITION_BEFORE), `after the edit: ${after}`);
  });
});
