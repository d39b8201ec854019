// Datasets and query results clicked through a real VS Code in Chromium: upload from the Explorer, run a query, the grid.
import * as assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { useWorkbenchSession } from './support/session';
import type { Workbench } from './support/workbench';

const QUERY = `SELECT id, name, tier, '<img src=x onerror="document.title=''pwned''">' AS payload
FROM customers
ORDER BY id
LIMIT 40`;

/** The results grid (webviews are two iframes deep). */
function grid(workbench: Workbench): FrameLocator {
  return workbench.page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

describe('Datasets and queries in the browser', function () {
  this.timeout(150_000);
  const session = useWorkbenchSession('datasets', {
    sandbox: 'signedIn',
    files: { 'calls.csv': 'call,channel,minutes\n1,phone,12\n2,chat,4\n', 'customers.sql': QUERY },
  });

  it('uploads a file from the Explorer to a dataset, where it appears', async () => {
    const { workbench } = session();
    const { page } = workbench;
    // A glance at the Datasets view first (the extension's menus are known once its host has started).
    await workbench.openActivity('Agent Workbench');
    await workbench.treeItem('Datasets', 'Sample invoices').first().waitFor({ timeout: 30_000 });
    await workbench.openActivity('Explorer');
    const file = page.locator('.explorer-folders-view .monaco-list-row', { has: page.locator('.label-name', { hasText: /^calls\.csv$/ }) });
    await file.first().waitFor({ timeout: 30_000 });
    await workbench.contextMenu(file, /^Upload to Dataset/);
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Sample invoices' }).first().click();
    await workbench.answerInput('', /metadata/);
    await workbench.waitForNotification(/Uploaded “calls\.csv” to “Sample invoices”/, 60_000);
    await workbench.openActivity('Agent Workbench');
    const uploaded = workbench.treeItem('Datasets', 'calls.csv');
    await uploaded.first().waitFor({ timeout: 30_000 });
    assert.match(await uploaded.first().locator('.label-description').innerText(), /^\d+ B · /);
    await workbench.screenshot('datasets--uploaded-from-explorer');
  });

  it('runs a query from a .sql file and shows the rows in a grid that sorts and shows HTML as text', async () => {
    const { workbench } = session();
    const { page } = workbench;
    await workbench.openActivity('Explorer');
    await page.locator('.explorer-folders-view .monaco-list-row', { has: page.locator('.label-name', { hasText: /^customers\.sql$/ }) }).first().click();
    const lens = page.locator('.codelens-decoration a', { hasText: 'Run Query' });
    await lens.first().waitFor({ timeout: 30_000 });
    await lens.first().click();
    const header = grid(workbench).locator('.col-header', { has: page.locator('.col-name', { hasText: /^id$/ }) });
    await header.first().waitFor({ timeout: 60_000 });
    const firstCell = grid(workbench).locator('.body .row:not([hidden])').first().locator('.cell').first();
    await firstCell.waitFor();
    assert.equal(await firstCell.innerText(), '1');
    await header.first().click();
    await header.first().click();
    await grid(workbench).locator('.col-header[aria-sort="descending"]').waitFor({ timeout: 15_000 });
    await page.waitForTimeout(300);
    assert.equal(await grid(workbench).locator('.body .row:not([hidden])').first().locator('.cell').first().innerText(), '40');
    const payload = grid(workbench).locator('.body .row:not([hidden]) .cell', { hasText: '<img src=x onerror=' });
    assert.ok((await payload.count()) > 0, 'the HTML shows as its characters');
    assert.equal(await grid(workbench).locator('.body img, .body script').count(), 0, 'no element from the payload exists');
    assert.notEqual(await page.title(), 'pwned');
    assert.match(await grid(workbench).locator('#status').innerText(), /40 rows/);
    await workbench.screenshot('datasets--query-grid');
  });
});
