// The token stays in secret storage: not in settings, the log, webview pages or messages, nor in errors shown.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { useConnectedSandbox, waitFor, workbench } from './support/workbench';

describe('Token safety', function () {
  this.timeout(90_000);
  const sandbox = useConnectedSandbox();

  it('never writes the token to the log, settings, webviews or shown errors while the extension is used', async () => {
    const api = await workbench();
    const client = api.connection.requireClient();
    // Use a good part of the extension: trees, documents, a query in the grid, a summary preview, failures.
    const agents = (await api.agents.provider.getChildren()) ?? [];
    assert.ok(agents.length > 0);
    const policies = (await api.policies.provider.getChildren()) ?? [];
    const policy = policies.find((n) => n.kind === 'policy') as unknown as { policy: { id: string; name: string; current_version_id: string } };
    const version = await client.policies.getVersion(policy.policy.id, policy.policy.current_version_id);
    await api.policyDocuments.open(policy.policy as never, version);
    await api.summaryPreview.open();
    await waitFor(() => api.summaryPreview.lastShown, 'the summary preview to show');
    const submitted = await client.database.submitQuery('SELECT id, name FROM customers LIMIT 5');
    await vscode.commands.executeCommand('agentWorkbench.queries.openResult', submitted.worksheet_query_id);
    await waitFor(() => JSON.stringify(api.results.debugState(submitted.worksheet_query_id)?.lastReport ?? '').includes('rendered'), 'the grid to render');
    await vscode.commands.executeCommand('agentWorkbench.queries.openResult', '00000000-0000-4000-8000-000000000000');
    await vscode.commands.executeCommand('agentWorkbench.agents.duplicate', agents[0], '');

    const token = sandbox().token;
    const logFile = path.join(api.logUri.fsPath, 'Agent Workbench.log');
    const log = await waitFor(() => fs.existsSync(logFile) && fs.readFileSync(logFile, 'utf8'), 'the log file');
    assert.ok(log.includes('GET /v1/agents/'), 'the log records requests');
    assert.ok(!log.includes(token), 'the token is in the log');
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration()).includes(token), 'the token is in the settings');
    const webviewTraffic = JSON.stringify([api.summaryPreview.lastRender, api.summaryPreview.lastShown, api.results.debugState(submitted.worksheet_query_id)]);
    assert.ok(!webviewTraffic.includes(token), 'the token reached a webview');
    assert.ok(!api.log.redact(`Bearer ${token} and ${token}`).includes(token), 'shown messages mask the token');
  });
});
