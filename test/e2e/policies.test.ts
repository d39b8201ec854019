// Policies clicked through a real VS Code in Chromium: edit and save as a new version; the summary preview, live and safe.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { useWorkbenchSession } from './support/session';
import type { Workbench } from './support/workbench';

const EDIT_NAME = 'e2e quote the customer';
/** A plain file auto save may save: once it has, auto save has had its chance at the policy too. */
const WITNESS = 'auto-save-witness.txt';

/** Replaces the whole text of the active editor the way a paste does (no auto-closing of brackets). */
async function replaceEditorText(workbench: Workbench, text: string): Promise<void> {
  const editor = workbench.page.locator('.editor-instance .monaco-editor').first();
  await editor.click({ position: { x: 200, y: 100 } });
  await workbench.page.keyboard.press('Control+A');
  // One line, so the editor's auto-indent has nothing to act on; then drop whatever auto-closing added after it.
  await workbench.page.keyboard.insertText(JSON.stringify(JSON.parse(text)));
  await workbench.page.keyboard.press('Shift+Control+End');
  await workbench.page.keyboard.press('Delete');
}

/**
 * Proves auto save ran since the policy was last typed in: a plain file is changed after it and waits
 * for auto save to save it (each document's delay runs from its own last change, so the policy's came
 * first). Then back to the policy's tab.
 */
async function autoSaveRan(workbench: Workbench, workspaceDir: string): Promise<void> {
  const { page } = workbench;
  const file = path.join(workspaceDir, WITNESS);
  const before = fs.readFileSync(file, 'utf8');
  await page.keyboard.press('Control+P');
  await page.keyboard.insertText(WITNESS);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: WITNESS }).first().click();
  await page.locator('.tab.active', { hasText: WITNESS }).waitFor({ timeout: 30_000 });
  await page.locator('.editor-instance .monaco-editor').first().click({ position: { x: 200, y: 20 } });
  await page.keyboard.press('Control+End');
  await page.keyboard.type('.');
  // Saved by auto save: the file on disk has the new character.
  for (const deadline = Date.now() + 30_000; fs.readFileSync(file, 'utf8') === before; ) {
    if (Date.now() > deadline) throw new Error('auto save never saved the witness file');
    await page.waitForTimeout(100);
  }
  await page.locator('.tab', { hasText: EDIT_NAME }).first().click();
}

/** The summary preview's page (webviews are two iframes deep). */
function preview(workbench: Workbench): FrameLocator {
  return workbench.page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

describe('Policies in the browser', function () {
  this.timeout(150_000);
  // Auto save on, as many people have it: it must never create versions by itself.
  const session = useWorkbenchSession('policies', {
    sandbox: 'signedIn',
    settings: { 'files.autoSave': 'afterDelay', 'files.autoSaveDelay': 500 },
    files: { [WITNESS]: 'auto save saves this file\n' },
  });

  it('edits a policy in the editor and saves it as a new version, which the tree marks current', async () => {
    const { workbench } = session();
    const { page } = workbench;
    await workbench.openActivity('Agent Workbench');
    const policy = workbench.view('Policies').locator('.monaco-list-row[aria-level="1"]').first();
    await workbench.expand(policy);
    const current = workbench.view('Policies').locator('.monaco-list-row[aria-level="2"]', { has: page.locator('.label-description', { hasText: /^current/ }) });
    await current.first().click();
    await page.locator('.tab.active', { hasText: /\.json/ }).waitFor();
    const content = {
      instructions: 'Quote the customer for every flag.',
      guidelines: { categories: [{ title: 'Compliance', rules: [{ title: 'Shares account details before verification', flag: 'RED_FLAG' }] }] },
      dispositions: { classifications: [{ name: 'Resolved' }, { name: 'Escalated' }] },
      summary_template: { template: 'Outcome: {{disposition}}' },
    };
    await replaceEditorText(workbench, JSON.stringify(content, null, 2));
    await page.keyboard.press('Control+S');
    await workbench.answerInput(EDIT_NAME, /Save as New Version/);
    await page.locator('.tab.active', { hasText: EDIT_NAME }).waitFor({ timeout: 30_000 });
    const saved = workbench.view('Policies').locator('.monaco-list-row[aria-level="2"]', { hasText: EDIT_NAME });
    await saved.first().waitFor({ timeout: 30_000 });
    assert.match(await saved.first().locator('.label-description').innerText(), /^current/);
    await workbench.screenshot('policies--saved-new-version');
  });

  it('previews the summary beside the editor and follows the template as it is typed, unsaved', async () => {
    const { workbench } = session();
    await workbench.runCommand('Agent Workbench: Open Summary Preview');
    await preview(workbench).locator('#output', { hasText: /^Outcome: / }).waitFor({ timeout: 30_000 });
    // Back to the editor (the preview took the focus), then change the template without saving.
    await workbench.page.locator('.tab', { hasText: EDIT_NAME }).first().click();
    await replaceEditorText(
      workbench,
      JSON.stringify({ dispositions: { classifications: [{ name: 'Resolved' }] }, summary_template: { template: 'Result of the review: {{disposition}}!' } }, null, 2),
    );
    await preview(workbench).locator('#output', { hasText: /^Result of the review: / }).waitFor({ timeout: 15_000 });
    await autoSaveRan(workbench, session().profile.workspaceDir);
    assert.equal(await workbench.page.locator('.tab.dirty', { hasText: EDIT_NAME }).count(), 1, 'auto save did not save (and create a version)');
    await workbench.screenshot('policies--summary-preview');
  });

  it('shows a template that injects a script as plain text, running nothing', async () => {
    const { workbench } = session();
    const payload = '<script>document.title="pwned"</script><img src=x onerror="document.title=\'pwned\'">';
    await workbench.page.locator('.tab', { hasText: EDIT_NAME }).first().click();
    await replaceEditorText(workbench, JSON.stringify({ summary_template: { template: `Danger: ${payload} {{{disposition}}}` } }, null, 2));
    const output = preview(workbench).locator('#output', { hasText: 'Danger:' });
    await output.waitFor({ timeout: 15_000 });
    assert.ok((await output.innerText()).includes(payload), 'the payload shows as its characters');
    assert.equal(await preview(workbench).locator('#output script, #output img').count(), 0, 'no element from the payload exists');
    assert.notEqual(await workbench.page.title(), 'pwned');
    await workbench.screenshot('policies--script-as-text');
  });

  it('stays quiet while typing with auto save on, keeps the policy unsaved, and says nothing when the name box is dismissed', async () => {
    const { workbench } = session();
    const { page } = workbench;
    await page.locator('.tab', { hasText: EDIT_NAME }).first().click();
    await replaceEditorText(workbench, JSON.stringify({ instructions: 'Typed with auto save on.', dispositions: { classifications: [{ name: 'Resolved' }] } }, null, 2));
    await autoSaveRan(workbench, session().profile.workspaceDir);
    const noise = (texts: string[]) => texts.filter((t) => /Failed to save|Not saved|Unable to write|cancelled/i.test(t));
    assert.deepEqual(noise(await workbench.notifications()), [], 'no toast while typing');
    assert.equal(await page.locator('.tab.dirty', { hasText: EDIT_NAME }).count(), 1, 'the tab shows the policy unsaved');
    await workbench.waitForStatusBarText(/Unsaved policy/, 5_000);
    await page.keyboard.press('Control+S');
    await page.locator('.quick-input-widget', { hasText: /Save as New Version/ }).waitFor();
    await page.keyboard.press('Escape');
    await workbench.waitForQuickInputClosed();
    await autoSaveRan(workbench, session().profile.workspaceDir);
    await workbench.screenshot('policies--unsaved-quietly');
    assert.deepEqual(noise(await workbench.notifications()), [], 'a dismissed save says nothing');
    assert.equal(await page.locator('.tab.dirty', { hasText: EDIT_NAME }).count(), 1, 'the edit is still there, unsaved');
  });
});
