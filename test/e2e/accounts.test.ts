// Accounts and the walkthrough in the real web workbench: the service signed in to is an account in
// VS Code's Accounts menu (with Sign Out there), and Getting Started has the extension's walkthrough.
import * as assert from 'node:assert/strict';
import { DEMO_ENV, DEMO_WORKSPACE_FILES } from '../harness/index.mjs';
import { useWorkbenchSession } from './support/session';

describe('Accounts and Getting Started', () => {
  const session = useWorkbenchSession('accounts', { sandbox: 'signedIn' });

  it('shows the signed-in service in the Accounts menu, with Sign Out there', async () => {
    const { workbench, sandbox } = session();
    assert.ok(sandbox);
    const host = new URL(sandbox.baseUrl).host;
    await workbench.openActivity('Agent Workbench');
    await workbench.waitForStatusBarText(host);
    await workbench.page.locator('.activitybar [aria-label^="Accounts"]').first().click();
    const account = workbench.page.getByRole('menuitem', { name: new RegExp(`${host.replace(/[.]/g, '\\.')}.*Agent Workbench`) });
    await account.first().waitFor({ timeout: 15_000 });
    await account.first().hover();
    const signOut = workbench.page.getByRole('menuitem', { name: /Sign Out/ });
    await signOut.first().waitFor({ timeout: 15_000 });
    await workbench.screenshot('accounts--menu');
    await workbench.page.keyboard.press('Escape');
    await workbench.page.keyboard.press('Escape');
  });

  it('offers a walkthrough with a button per step that checks the step off when done', async () => {
    const { workbench } = session();
    await workbench.runCommand('Welcome: Open Walkthrough...');
    await workbench.answerInput('Get Started with Agent Workbench');
    const page = workbench.page.locator('.gettingStartedContainer');
    await page.getByText('Connect, or start the local sandbox').first().waitFor({ timeout: 30_000 });
    for (const title of ['Browse agents, their versions and jobs', 'Edit a policy and preview its summary', 'Run an agent', 'Upload a file to a dataset', 'Run a query']) {
      await page.getByText(title).first().waitFor();
    }
    // Each step has a button that does it, and doing it checks the step off.
    const browse = page.locator('.getting-started-step', { hasText: 'Browse agents, their versions and jobs' });
    await browse.click();
    await page.getByRole('button', { name: 'Show Agents' }).first().click();
    // VS Code marks a done step with aria-checked on the step itself.
    await page.locator('.getting-started-step[aria-checked="true"]', { hasText: 'Browse agents, their versions and jobs' }).waitFor({ timeout: 15_000 });
    await workbench.page.locator('.tab', { hasText: 'Walkthrough' }).first().click();
    await page.locator('.getting-started-step', { hasText: 'Connect, or start the local sandbox' }).click();
    await page.getByRole('button', { name: 'Start Local Sandbox' }).first().waitFor();
    await workbench.screenshot('walkthrough--getting-started');
  });
});

describe('The window npm run demo opens', () => {
  const session = useWorkbenchSession('newcomer', { sandbox: 'signedIn', env: DEMO_ENV, files: DEMO_WORKSPACE_FILES });

  it('opens the Agent Workbench walkthrough by itself, its connect step already done', async () => {
    const { workbench } = session();
    const { page } = workbench;
    // The demo workspace's run file starts the extension with the window; its first run opens the walkthrough.
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough.getByText('Connect, or start the local sandbox').first().waitFor({ timeout: 60_000 });
    await walkthrough.locator('.getting-started-step[aria-checked="true"]', { hasText: 'Connect, or start the local sandbox' }).waitFor({ timeout: 30_000 });
    await workbench.screenshot('walkthrough--newcomer');
  });
});
