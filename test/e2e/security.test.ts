// Hostile text from the service, shown everywhere the extension shows service values: nothing runs, no element appears.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceClient } from '../../src/core/client';
import { assertNothingRan, IMG, SCRIPT, SVG } from './support/hostile';
import { useWorkbenchSession } from './support/session';
import type { Locator } from 'playwright-core';
import type { Workbench } from './support/workbench';

/**
 * Hovers a tree row until its tooltip shows (a hover can be lost to one moving first), then checks the
 * tooltip has the hostile text as characters and no element made from it.
 */
async function tooltipShowsAsText(workbench: Workbench, row: Locator, text: string): Promise<void> {
  const { page } = workbench;
  const hover = page.locator('.monaco-hover, .workbench-hover').filter({ hasText: text }).first();
  for (let attempt = 1; ; attempt++) {
    await page.mouse.move(1, 1);
    await row.hover();
    try {
      await hover.waitFor({ timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  // Markdown tooltips may put non-breaking spaces between words.
  assert.ok((await hover.innerText()).replace(/\s+/g, ' ').includes(text), 'the tooltip shows the markup as text');
  assert.equal(await hover.locator('img, svg[onload], script').count(), 0, 'no element from the service text in the tooltip');
}

const LINK = `[click](javascript:document.title='pwned')`;
const PAYLOAD = `${IMG}${SCRIPT}${SVG}${LINK}`;

describe('Hostile service values in the browser', function () {
  this.timeout(150_000);
  const session = useWorkbenchSession('security', {
    sandbox: 'signedIn',
    files: { 'hostile.sql': `SELECT '${IMG.replace(/'/g, "''")}' AS "${SVG.replace(/"/g, '""')}", * FROM "${SCRIPT}"` },
  });

  before(async () => {
    const { sandbox } = session();
    assert.ok(sandbox);
    const client = new ServiceClient(sandbox);
    const engine = (await client.agents.list({ page_size: 1 })).results[0]!.engine_class_id;
    await client.agents.create({ name: `A ${PAYLOAD}`.slice(0, 200), engine_class_id: engine, description: PAYLOAD });
    await client.policies.create({ name: `P ${IMG}`, description: PAYLOAD, content: { instructions: PAYLOAD, summary_template: { template: `{{{instructions}}} ${SCRIPT}` } }, version_name: `v ${SVG}` });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'aw-xss-')), 'file.txt');
    fs.writeFileSync(file, 'x');
    const personal = (await client.datasets.list({ personal: true })).results[0]!;
    await client.datasets.upload({ filePath: file, fileName: `F ${IMG}${SVG.replace('</svg>', '')}.txt`, datasetId: personal.id, personal: true, metadata: { note: PAYLOAD } });
    await client.close();
  });

  it('shows hostile names and descriptions in the trees and tooltips as text', async () => {
    const { workbench } = session();
    await workbench.openActivity('Agent Workbench');
    const agent = workbench.view('Agents').locator('.monaco-list-row', { hasText: 'A <img' });
    await agent.first().waitFor({ timeout: 30_000 });
    await tooltipShowsAsText(workbench, agent.first(), 'A <img');
    const policy = workbench.view('Policies').locator('.monaco-list-row', { hasText: 'P <img' });
    await workbench.expand(policy);
    await workbench.view('Policies').locator('.monaco-list-row', { hasText: 'v <svg' }).first().waitFor();
    await tooltipShowsAsText(workbench, policy.first(), 'P <img');
    await workbench.expand(workbench.view('Datasets').locator('.monaco-list-row[aria-level="1"]').first());
    await workbench.view('Datasets').locator('.monaco-list-row', { hasText: 'F <img' }).first().waitFor({ timeout: 30_000 });
    await assertNothingRan(workbench, false);
    await workbench.screenshot('security--trees');
  });

  it('shows a hostile policy in the editor and in the summary preview as text', async () => {
    const { workbench } = session();
    const { page } = workbench;
    await workbench.view('Policies').locator('.monaco-list-row', { hasText: 'v <svg' }).first().click();
    await page.locator('.tab.active', { hasText: /\.json/ }).waitFor();
    await workbench.runCommand('Agent Workbench: Open Summary Preview');
    const output = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame').locator('#output');
    await output.waitFor({ timeout: 30_000 });
    await page.frameLocator('iframe.webview.ready').frameLocator('#active-frame').locator('#output', { hasText: SCRIPT }).waitFor({ timeout: 15_000 });
    await assertNothingRan(workbench, true);
    await workbench.runCommand('View: Close All Editors');
  });

  it('shows hostile query cells, column names and error messages as text', async () => {
    const { workbench } = session();
    const { page } = workbench;
    await workbench.openActivity('Explorer');
    await page.locator('.explorer-folders-view .monaco-list-row', { has: page.locator('.label-name', { hasText: /^hostile\.sql$/ }) }).first().click();
    await workbench.runCommand('Agent Workbench: Run Query');
    const grid = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    const error = grid.locator('#failure-error');
    await error.waitFor({ timeout: 60_000 });
    assert.ok((await error.innerText()).includes(SCRIPT), 'the SQL error naming the table shows it as text');
    await assertNothingRan(workbench, true);
    await workbench.screenshot('security--query-error');
  });
});
