// Running an agent from a run file, clicked through a real VS Code in Chromium against a sandbox.
import * as assert from 'node:assert/strict';
import { useWorkbenchSession } from './support/session';

describe('Runs in the browser', function () {
  this.timeout(180_000);
  const session = useWorkbenchSession('runs', { sandbox: 'signedIn', settings: { 'agentWorkbench.jobs.watchIntervalSeconds': 2 } });

  it('opens a run file from the agent row, runs it with the lens, and watches the job finish in the status bar', async () => {
    const { workbench } = session();
    const { page } = workbench;
    await workbench.openActivity('Agent Workbench');
    const agent = workbench.treeItem('Agents', 'Support Call QA');
    await agent.first().waitFor({ timeout: 60_000 });
    await workbench.inlineAction(agent.first(), /^Run Agent/);
    const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: /Run/ });
    await lens.first().waitFor({ timeout: 30_000 });
    assert.match(await lens.first().innerText(), /▶ Run/);
    await page.locator('.editor-actions a.action-label[aria-label^="Run This Run File"]').first().waitFor({ timeout: 10_000 });
    await workbench.screenshot('runs--run-file');

    await lens.first().click();
    // The status bar names the job as its row does (by its first telling line), while it runs — or, on a quick
    // machine, already finished.
    const running = await workbench.waitForStatusBarText(/“[^”]+”.*(pending|running|retrying|succeeded)/i, 30_000);
    await workbench.screenshot('runs--running');
    const note = await workbench.waitForNotification(/Job .* (finished|failed)/, 150_000);
    assert.ok(running && note);
    await page.locator('.notification-toast .monaco-button', { hasText: 'Show Result' }).first().waitFor();
    await workbench.screenshot('runs--finished');
  });
});
