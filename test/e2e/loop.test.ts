// The loop people live in, clicked through a real VS Code in Chromium against the sandbox: run the
// prepared run file and read its result; change the rule the demo names in its policy and save it as
// a new version; run the same file again and see the disposition change.
import * as assert from 'node:assert/strict';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_AGENT_NAME, DEMO_LOOP_DISPOSITION_AFTER, DEMO_LOOP_DISPOSITION_BEFORE, DEMO_LOOP_INPUTS } from '../../src/sandbox/seed/demoLoop';
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
    files: { [RUN_FILE]: `${JSON.stringify({ agent: DEMO_LOOP_AGENT_ID, agentName: DEMO_LOOP_AGENT_NAME, inputs: DEMO_LOOP_INPUTS }, null, 2)}\n` },
  });

  it('changes the disposition of a prepared run after the named rule of its policy is edited and saved', async () => {
    const { workbench, sandbox } = session();
    assert.ok(sandbox);
    const { page } = workbench;
    await workbench.openActivity('Agent Workbench');
    await page.keyboard.press('Control+P');
    await page.keyboard.insertText(RUN_FILE);
    // Quick Open searches the files as you type: choose the file once it is listed.
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: RUN_FILE }).first().click();
    await page.locator('.tab.active', { hasText: RUN_FILE }).waitFor({ timeout: 30_000 });

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
