// The e2e harness end to end: the packaged extension in code-server, driven through Chromium the
// way a person would, against a sandbox started for this suite.
import * as assert from 'node:assert/strict';
import { useWorkbenchSession } from './support/session';

describe('The Agent Workbench in a browser', () => {
  const session = useWorkbenchSession('harness', { sandbox: 'settingsOnly' });

  it('shows the Agents, Policies, Datasets and Tables views in its activity-bar container', async () => {
    const { workbench } = session();
    await workbench.openActivity('Agent Workbench');
    for (const view of ['Agents', 'Policies', 'Datasets', 'Tables']) await workbench.view(view).waitFor();
    const titles = (await workbench.viewTitles()).map((title) => title.toLowerCase());
    assert.deepEqual(titles, ['agents', 'policies', 'datasets', 'tables']);
  });

  it('signs in with a token typed into a password box and shows the sandbox in the status bar', async () => {
    const { workbench, sandbox } = session();
    assert.ok(sandbox);
    const hostPort = new URL(sandbox.baseUrl).host;
    await workbench.runCommand('Agent Workbench: Sign In');
    await workbench.page.locator('.quick-input-widget', { hasText: /Access token/ }).waitFor();
    assert.equal(await workbench.quickInputBox().getAttribute('type'), 'password');
    await workbench.answerInput(sandbox.token);
    await workbench.waitForQuickInputClosed();
    await workbench.waitForNotification(`Signed in to ${hostPort}`);
    const status = await workbench.waitForStatusBarText(hostPort);
    assert.ok(!status.includes(sandbox.token), 'the status bar names the service, never the token');
    await workbench.screenshot('harness--signed-in');
  });
});
