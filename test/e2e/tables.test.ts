// Tables clicked through a real VS Code in Chromium: a CSV uploaded from the Explorer, previewed in the
// grid, then queried from a .sql file written with completion.
import * as assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { useWorkbenchSession } from './support/session';
import type { Workbench } from './support/workbench';

/** The newest results grid (webviews are two iframes deep). */
function grid(workbench: Workbench): FrameLocator {
  return workbench.page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
}

describe('Tables in the browser', function () {
  this.timeout(180_000);
  const session = useWorkbenchSession('tables', {
    sandbox: 'signedIn',
    files: { 'scores.csv': 'player,score,played_on\nada,91.5,2025-03-01\nlin,78,2025-03-02\nbo,,2025-03-03\n', 'report.sql': 'SELECT player, score\nFROM ' },
  });

  it('uploads a CSV from the Explorer as a table, which appears in the Tables view', async () => {
    const { workbench } = session();
    const { page } = workbench;
    await workbench.openActivity('Agent Workbench');
    await workbench.treeItem('Agents', /.+/).first().waitFor({ timeout: 30_000 });
    for (const view of ['Agents', 'Policies', 'Datasets']) await workbench.collapseView(view);
    await workbench.treeItem('Tables', 'customers').first().waitFor({ timeout: 30_000 });
    await workbench.openActivity('Explorer');
    const file = page.locator('.explorer-folders-view .monaco-list-row', { has: page.locator('.label-name', { hasText: /^scores\.csv$/ }) });
    await file.first().waitFor({ timeout: 30_000 });
    await workbench.contextMenu(file, /^Upload as Table/);
    // The name is checked while typing: a space is refused with one sentence, a good name accepted.
    const box = workbench.quickInputBox();
    await box.waitFor();
    await box.fill('team scores');
    await page.locator('.quick-input-widget', { hasText: /may hold only letters/ }).waitFor({ timeout: 10_000 });
    await workbench.screenshot('tables--name-checked-while-typing');
    await workbench.answerInput('team_scores');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'First row holds the column names' }).first().click();
    await workbench.waitForNotification(/Table team_scores was created from scores\.csv/, 60_000);
    await workbench.openActivity('Agent Workbench');
    const table = workbench.treeItem('Tables', 'team_scores');
    await table.first().waitFor({ timeout: 30_000 });
    await workbench.expand(table);
    await workbench.treeItem('Tables', 'score').first().waitFor({ timeout: 15_000 });
    assert.match(await workbench.treeItem('Tables', 'score').first().locator('.label-description').innerText(), /Nullable\(Float64\)/);
    await workbench.screenshot('tables--uploaded-table-with-columns');
  });

  it('previews the new table in the results grid', async () => {
    const { workbench } = session();
    await workbench.inlineAction(workbench.treeItem('Tables', 'team_scores'), /^Preview Table/);
    const cell = grid(workbench).locator('.body .row:not([hidden])').first().locator('.cell').first();
    await cell.waitFor({ timeout: 60_000 });
    assert.equal(await cell.innerText(), 'ada');
    assert.match(await grid(workbench).locator('#status').innerText(), /3 rows/);
    await workbench.screenshot('tables--preview-grid');
  });

  it('writes a query with completion and runs it into the grid', async () => {
    const { workbench } = session();
    const { page } = workbench;
    await workbench.openActivity('Explorer');
    await page.locator('.explorer-folders-view .monaco-list-row', { has: page.locator('.label-name', { hasText: /^report\.sql$/ }) }).first().click();
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('team');
    await page.keyboard.press('Control+Space');
    const suggestion = page.locator('.suggest-widget .monaco-list-row', { hasText: 'team_scores' });
    await suggestion.first().waitFor({ timeout: 30_000 });
    await workbench.screenshot('tables--completion-after-from');
    await page.keyboard.press('Enter');
    await page.keyboard.type('\nWHERE score > 80');
    await page.keyboard.press('Control+s');
    const lens = page.locator('.codelens-decoration a', { hasText: 'Run Query' });
    await lens.first().click();
    const header = grid(workbench).locator('.col-header', { has: page.locator('.col-name', { hasText: /^player$/ }) });
    await header.first().waitFor({ timeout: 60_000 });
    assert.match(await grid(workbench).locator('#status').innerText(), /1 row/);
    assert.equal(await grid(workbench).locator('.body .row:not([hidden])').first().locator('.cell').first().innerText(), 'ada');
    await workbench.screenshot('tables--query-grid');
  });
});
