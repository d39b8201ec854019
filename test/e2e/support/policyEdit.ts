// The demo loop's policy edit as a user makes it: the current version of the demo policy opened from
// the Policies view, its named rule turned from a red into a green flag by typing, left unsaved.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../../src/core/client';
import { DEMO_LOOP_POLICY_ID, DEMO_LOOP_POLICY_NAME, DEMO_LOOP_RULE_TITLE } from '../../../src/sandbox/seed/demoLoop';
import type { Workbench } from './workbench';

/** Opens the demo policy's current version and makes the demo rule a green flag in the editor (not saved). */
export async function editDemoRuleInEditor(workbench: Workbench, sandbox: { baseUrl: string; token: string; organizationId: string }): Promise<void> {
  const { page } = workbench;
  const policy = workbench.view('Policies').locator('.monaco-list-row[aria-level="1"]', { hasText: DEMO_LOOP_POLICY_NAME });
  await workbench.expand(policy.first());
  const current = workbench.view('Policies').locator('.monaco-list-row[aria-level="2"]', { has: page.locator('.label-description', { hasText: /^current/ }) });
  await current.first().click();
  await page.locator('.tab.active', { hasText: /\.json/ }).waitFor();
  const client = new ServiceClient(sandbox);
  const policyNow = await client.policies.get(DEMO_LOOP_POLICY_ID);
  const version = await client.policies.getVersion(DEMO_LOOP_POLICY_ID, String(policyNow.current_version_id));
  await client.close();
  const edited = demoRuleMadeGreen(version.content);
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.click({ position: { x: 200, y: 100 } });
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(edited);
  await page.keyboard.press('Shift+Control+End');
  await page.keyboard.press('Delete');
}

/** The demo policy's content (as JSON text) with the loop's named rule turned from a red into a green flag. */
export function demoRuleMadeGreen(content: unknown): string {
  const edited = JSON.stringify(content).replace(new RegExp(`("title":"${DEMO_LOOP_RULE_TITLE.replace(/[()]/g, '\\$&')}"[^}]*?"flag":")RED_FLAG`), '$1GREEN_FLAG');
  assert.notEqual(edited, JSON.stringify(content), 'the rule was found in the policy');
  return edited;
}
