// The job view in a real browser: a job whose outputs, inputs and metadata hold markup shows all of it
// as text, runs nothing and adds no element; the view looks like part of VS Code (see the screenshot).
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/core/client';
import { assertNothingRan, IMG, SCRIPT, SVG } from './support/hostile';
import { useWorkbenchSession } from './support/session';

const PAYLOAD = `${IMG}${SCRIPT}${SVG}`;

describe('Job view in the browser', function () {
  this.timeout(180_000);
  const session = useWorkbenchSession('jobView', { sandbox: 'signedIn' });

  before(async () => {
    const { sandbox } = session();
    assert.ok(sandbox);
    const client = new ServiceClient(sandbox);
    // A policy whose disposition names and summary template are markup, and an agent that applies it.
    const policy = await client.policies.create({
      name: 'Hostile policy',
      content: {
        instructions: PAYLOAD,
        guidelines: { categories: [{ title: 'Refunds', rules: [{ title: 'Mentions a refund', flag: 'RED_FLAG', description: `refund ${SVG}` }] }] },
        dispositions: { classifications: [{ name: `${IMG} verdict`, description: PAYLOAD }] },
        summary_template: { template: `{{{disposition}}} ${SCRIPT}` },
      },
    });
    const agent = await client.agents.create({
      name: 'Hostile outputs',
      engine_class_id: 'llm_conversation_reviewer',
      input_definitions: [{ key: 'transcript', data_type: 'text/plain', description: PAYLOAD }],
      engine_config: { policy_id: policy.id, model: 'gpt-4o-mini' },
    });
    const jobId = await client.agents.run(agent.id, { inputs: { transcript: `[ok] Customer wants a refund ${PAYLOAD}` }, metadata: { note: PAYLOAD } });
    for (let i = 0; i < 120 && ![3, 4, 5, 6].includes((await client.jobs.status(jobId)).status); i++) await new Promise((r) => setTimeout(r, 500));
    await client.close();
  });

  it('shows hostile outputs, inputs and metadata as text, and nothing runs', async () => {
    const { workbench } = session();
    const { page } = workbench;
    await workbench.openActivity('Agent Workbench');
    const agent = workbench.view('Agents').locator('.monaco-list-row', { hasText: 'Hostile outputs' });
    await agent.first().waitFor({ timeout: 30_000 });
    await workbench.expand(agent.first());
    await workbench.expand(workbench.view('Agents').locator('.monaco-list-row', { hasText: /^Jobs/ }).first());
    const row = workbench.view('Agents').locator('.monaco-list-row', { hasText: "Customer wants a refund" });
    await row.first().click({ timeout: 30_000 });
    const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    const outputs = view.locator('#outputs');
    await outputs.locator('.output').first().waitFor({ timeout: 30_000 });
    const text = await outputs.innerText();
    assert.ok(text.includes(`${IMG} verdict`), 'the disposition shows its markup as text');
    assert.ok(text.includes(SCRIPT), 'the summary shows the script tag as text');
    assert.ok((await view.locator('#inputs').innerText()).includes(PAYLOAD), 'the input shows as text');
    assert.ok((await view.locator('#metadata').innerText()).includes('pwned'), 'the metadata shows as text');
    await assertNothingRan(workbench, true);
    assert.notEqual(await page.title(), 'pwned');
    await workbench.screenshot('jobView--hostile-outputs');
  });

  it('copies the job ID and opens the raw JSON from the view’s buttons', async () => {
    const { workbench } = session();
    const { page } = workbench;
    const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    await view.locator('#act-copyId').click();
    const notice = view.locator('#notice');
    await notice.waitFor({ timeout: 10_000 });
    assert.match(await notice.innerText(), /^Copied the job ID [0-9a-f-]{36}\.$/);
    await view.locator('#act-rawJson').click();
    await page.locator('.tab', { hasText: /Job [0-9a-f]{8} · Hostile outputs\.json/ }).waitFor({ timeout: 30_000 });
    // The raw JSON may hide the view (a hidden webview's frame is discarded): check what is on screen.
    await assertNothingRan(workbench, false);
    await workbench.screenshot('jobView--raw-json');
  });

  it('opens an artifact the outputs name (evidence_data) as read-only JSON from the view', async () => {
    const { workbench } = session();
    const { page } = workbench;
    const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    const artifact = view.locator('#artifacts .artifact', { hasText: 'rule_checks' });
    await artifact.waitFor({ timeout: 30_000 });
    assert.match(await artifact.innerText(), /agent-job-[0-9a-f-]{36}\/rule_checks\.json/);
    await artifact.getByRole('button', { name: 'Open rule_checks' }).click();
    await page.locator('.tab', { hasText: /Artifact rule_checks · Job [0-9a-f]{8}\.json/ }).waitFor({ timeout: 30_000 });
    await page.locator('.monaco-editor .view-lines', { hasText: '"rules"' }).first().waitFor({ timeout: 15_000 });
    await workbench.screenshot('jobView--artifact');
  });

  it('comes back with the same job after the window reloads', async () => {
    const { workbench } = session();
    const { page } = workbench;
    await page.locator('.tab', { hasText: /Hostile outputs\.json/ }).first().locator('.codicon-close').click().catch(() => undefined);
    await workbench.reloadWindow();
    const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    await view.locator('#outputs .output').first().waitFor({ timeout: 60_000 });
    assert.ok((await view.locator('#outputs').innerText()).includes(`${IMG} verdict`));
    await assertNothingRan(workbench, true);
  });
});
