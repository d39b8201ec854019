// The Summary Preview in a real extension host: a local policy draft and a policy version from the
// sandbox, rendered live beside the editor, errors underlined in the JSON string, output shown as text.
// What the page shows is observed through its own acknowledgement (`lastShown`), never its DOM.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { RenderView } from '../../src/core/summary/previewProtocol';
import { closeAllEditors, connect, startSandbox, type TestSandbox, waitFor, workbench } from './support/workbench';

const OPEN = 'agentWorkbench.policies.openSummaryPreview';
const XSS_PAYLOAD = '<script>alert("xss")</script><img src=x onerror="alert(1)">';

/** A policy draft as a user would keep it on disk. */
function draft(template: string, firstClassification = 'Compliant'): string {
  const content = {
    guidelines: { categories: [{ title: 'Resolution', rules: [{ title: 'States a next step', flag: 'GREEN_FLAG' }, { title: 'Promises a refund over the limit', flag: 'RED_FLAG' }] }] },
    dispositions: { classifications: [{ name: firstClassification }, { name: 'Non-Compliant' }] },
    summary_template: { template },
  };
  return `${JSON.stringify(content, null, 2)}\n`;
}

/**
 * Waits until the preview webview shows a render that passes `check`: the page itself confirms it,
 * with the text on its screen, which must be the rendered output character for character.
 */
async function rendered(check: (view: RenderView) => boolean, what: string): Promise<RenderView> {
  const api = await workbench();
  const shown = await waitFor(() => {
    const last = api.summaryPreview.lastShown;
    return last && check(last.view) ? last : undefined;
  }, what);
  if (shown.view.output) assert.equal(shown.text, shown.view.output, 'the page shows the output as text, unchanged');
  return shown.view;
}

/** Replaces the template inside the open document's JSON text, unsaved, as typing would. */
async function editTemplate(document: vscode.TextDocument, template: string): Promise<void> {
  const text = document.getText();
  const key = text.indexOf('"template": "');
  assert.ok(key >= 0, 'the document has a template');
  const start = key + '"template": '.length;
  const end = text.indexOf('"\n', start) + 1;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(start), document.positionAt(end)), JSON.stringify(template));
  assert.ok(await vscode.workspace.applyEdit(edit));
}

describe('Summary Preview', function () {
  this.timeout(60_000);
  const folder = vscode.Uri.joinPath(vscode.Uri.file(os.tmpdir()), `aw-summary-${process.pid}-${Date.now()}`);

  async function openDraft(name: string, text: string): Promise<vscode.TextEditor> {
    const uri = vscode.Uri.joinPath(folder, name);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { viewColumn: vscode.ViewColumn.One });
  }

  before(async () => {
    await vscode.workspace.fs.createDirectory(folder);
  });

  after(async () => {
    await closeAllEditors();
    await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false });
  });

  it('renders a local policy draft beside the editor, and again as the unsaved template changes', async () => {
    const editor = await openDraft('refunds.json', draft('Verdict: {{verdict}}'));
    await vscode.commands.executeCommand(OPEN);
    const first = await rendered((v) => v.output === 'Verdict: Compliant', 'the first render');
    assert.equal(first.sourceKind, 'file');
    assert.equal(first.title, 'refunds');
    await editTemplate(editor.document, 'Summary: {{verdict}} ({{#each red_flags}}{{title}}{{/each}})');
    await rendered((v) => v.output === 'Summary: Compliant (Promises a refund over the limit)', 'the render of the edited template');
    assert.ok(editor.document.isDirty, 'the preview follows the unsaved text');
  });

  it('underlines a broken template at its exact characters inside the JSON string, and clears it when fixed', async () => {
    const editor = await openDraft('broken.json', draft('ok'));
    await vscode.commands.executeCommand(OPEN);
    await rendered((v) => v.output === 'ok' && v.title === 'broken', 'the render of broken.json');
    await editTemplate(editor.document, 'Line one\n  "quoted" {{#each red_flags}}x{{/if}}');
    const view = await rendered((v) => v.templateError !== null && v.title === 'broken', 'the template error');
    assert.equal(view.templateError?.message, '"{{#each}}" is closed by "{{/if}}"');
    assert.deepEqual([view.templateError?.line, view.templateError?.column], [2, 15]);
    const ours = () => vscode.languages.getDiagnostics(editor.document.uri).filter((d) => d.source === 'Agent Workbench');
    const [diagnostic] = await waitFor(() => ours().length > 0 && ours(), 'the diagnostic');
    assert.ok(diagnostic);
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(editor.document.getText(diagnostic.range), 'each');
    assert.match(diagnostic.message, /template line 2, column 15/);
    await editTemplate(editor.document, 'fixed {{verdict}}');
    await rendered((v) => v.output === 'fixed Compliant', 'the render after the fix');
    await waitFor(() => ours().length === 0, 'the diagnostic to go away');
  });

  it('shows a script payload from the data as the literal characters', async () => {
    await openDraft('payload.json', draft('Raw: {{{disposition}}} Escaped: {{disposition}}', XSS_PAYLOAD));
    await vscode.commands.executeCommand(OPEN);
    const view = await rendered((v) => v.title === 'payload' && v.output !== null, 'the payload render');
    const expected = `Raw: ${XSS_PAYLOAD} Escaped: &lt;script&gt;alert(&quot;xss&quot;)&lt;/script&gt;&lt;img src&#x3D;x onerror&#x3D;&quot;alert(1)&quot;&gt;`;
    assert.equal(view.output, expected);
    // Parsed as HTML, the page's text would have lost the tags (and the script would have run).
    assert.equal((await workbench()).summaryPreview.lastShown?.text, expected);
  });

  it('follows the active policy editor, each with its own sample', async () => {
    const api = await workbench();
    const one = await openDraft('one.json', draft('one: {{verdict}}', 'First'));
    await vscode.commands.executeCommand(OPEN);
    await rendered((v) => v.output === 'one: First', 'the first document');
    await openDraft('two.json', draft('two: {{verdict}}', 'Second'));
    await rendered((v) => v.output === 'two: Second', 'the preview to follow the second editor');
    assert.match(api.summaryPreview.currentSampleText() ?? '', /"verdict": "Second"/);
    await vscode.window.showTextDocument(one.document, { viewColumn: vscode.ViewColumn.One });
    await rendered((v) => v.output === 'one: First', 'the preview to follow back');
    assert.match(api.summaryPreview.currentSampleText() ?? '', /"verdict": "First"/);
  });

  it('comes back after a reload with the document it showed, even when another editor is active', async () => {
    const api = await workbench();
    const policy = await openDraft('restored.json', draft('restored: {{verdict}}'));
    await openDraft('notes.json', '{ "not": "a policy" }\n');
    // What VS Code does after a reload: a panel of our type, handed over with the state the page saved.
    const panel = vscode.window.createWebviewPanel('agentWorkbench.summaryPreview', 'Summary Preview', { viewColumn: vscode.ViewColumn.Two, preserveFocus: true });
    await api.summaryPreview.restore(panel, { sourceUri: policy.document.uri.toString() });
    await rendered((v) => v.output === 'restored: Compliant', 'the restored preview');
    assert.equal(api.summaryPreview.previewedDocument?.uri.toString(), policy.document.uri.toString());
  });

  describe('with the service', () => {
    let sandbox: TestSandbox;

    before(async () => {
      sandbox = await startSandbox();
      await connect(sandbox);
    });

    after(async () => {
      await sandbox.stop();
    });

    it('previews a policy version opened from the service, with a sample built from the policy', async () => {
      const api = await workbench();
      const client = api.connection.requireClient();
      const policy = (await client.policies.list({ search: 'Customer Call Quality' })).results[0];
      assert.ok(policy?.current_version_id, 'the demo policy exists');
      const version = await client.policies.getVersion(policy.id, policy.current_version_id);
      await api.policyDocuments.open(policy, version, vscode.ViewColumn.One);
      await vscode.commands.executeCommand(OPEN);
      const view = await rendered((v) => v.sourceKind === 'policy' && v.output !== null, 'the policy render');
      assert.match(view.output ?? '', /^## Call review: Compliant/);
      assert.match(view.output ?? '', /\*\*Issues found\*\*/);
      assert.match(view.output ?? '', new RegExp(`Reviewed against Customer Call Quality Standard`));
      assert.deepEqual(view.missingFields, []);
    });

    it('fills the sample from a real job of an agent, and renders with its inputs', async () => {
      const api = await workbench();
      const editor = await openDraft('jobs.json', draft('Job {{job.id}} ({{job.status}}) for {{agent.name}}'));
      await vscode.commands.executeCommand(OPEN);
      await rendered((v) => v.title === 'jobs' && v.output !== null, 'the jobs draft');
      const client = api.connection.requireClient();
      const agent = (await client.agents.list({ search: 'Support Call QA' })).results[0];
      assert.ok(agent);
      const job = (await client.jobs.list(agent.id, { ordering: '-created_at', page_size: 1 })).results[0];
      assert.ok(job);
      await vscode.commands.executeCommand('agentWorkbench.policies.fillSummarySampleFromJob', { agentId: agent.id, jobId: job.id });
      const view = await rendered((v) => v.output?.startsWith(`Job ${job.id}`) === true, 'the render with the job');
      assert.match(view.output ?? '', new RegExp(`for ${agent.name}$`));
      const sample = JSON.parse(api.summaryPreview.currentSampleText() ?? '{}') as { job: { inputs: Record<string, unknown> } };
      assert.deepEqual(Object.keys(sample.job.inputs).sort(), [...new Set((job.job_inputs ?? []).map((i) => i.key))].sort());
      assert.equal(api.summaryPreview.previewedDocument, editor.document);
    });
  });
});
