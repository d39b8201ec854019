// Signing in and out, and the local sandbox the extension starts itself.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { connect, startSandbox, waitFor, workbench, type TestSandbox } from './support/workbench';

const secretKey = (baseUrl: string): string => `agentWorkbench.token:${new URL(baseUrl).origin}`;

describe('Connection', function () {
  let sandbox: TestSandbox;

  before(async () => {
    sandbox = await startSandbox();
  });

  after(async () => {
    await sandbox.stop();
  });

  it('keeps the token in secret storage after sign-in, and never in settings', async () => {
    const api = await workbench();
    await connect(sandbox);
    assert.equal(await api.secrets.get(secretKey(sandbox.baseUrl)), sandbox.token);
    const settings = JSON.stringify(vscode.workspace.getConfiguration('agentWorkbench'));
    assert.ok(!settings.includes(sandbox.token), 'the token appears in the settings');
    const config = vscode.workspace.getConfiguration('agentWorkbench');
    assert.equal(config.get('baseUrl'), sandbox.baseUrl);
    assert.equal(config.get('organizationId'), sandbox.organizationId);
  });

  it('refuses a token the service rejects, and stores nothing', async () => {
    const api = await workbench();
    const other = await startSandbox();
    try {
      await vscode.commands.executeCommand('agentWorkbench.signIn', { baseUrl: other.baseUrl, organizationId: other.organizationId, token: 'not-a-real-token' });
      assert.equal(await api.secrets.get(secretKey(other.baseUrl)), undefined);
      assert.equal(api.connection.state.kind === 'connected' && api.connection.state.info.baseUrl, sandbox.baseUrl, 'still connected to the previous service');
    } finally {
      await other.stop();
    }
  });

  it('removes the token on sign-out and shows the signed-out state', async () => {
    const api = await workbench();
    await connect(sandbox);
    await vscode.commands.executeCommand('agentWorkbench.signOut');
    assert.equal(await api.secrets.get(secretKey(sandbox.baseUrl)), undefined);
    assert.equal(api.connection.state.kind, 'signedOut');
  });

  it('starts the bundled local sandbox, connects to it, and stops it again restoring the previous settings', async function () {
    this.timeout(90_000);
    const api = await workbench();
    await connect(sandbox);
    await vscode.commands.executeCommand('agentWorkbench.startSandbox');
    const state = await waitFor(() => api.connection.state.kind === 'connected' && api.connection.state.info.isSandbox && api.connection.state, 'the local sandbox connection', 60_000);
    assert.notEqual(state.info.baseUrl, sandbox.baseUrl);
    assert.ok(api.sandbox.isRunning);
    const agents = await api.connection.requireClient().agents.list({ page_size: 1 });
    assert.ok(agents.count > 0, 'the local sandbox has the demo data');
    await vscode.commands.executeCommand('agentWorkbench.stopSandbox');
    assert.equal(api.sandbox.isRunning, false);
    await waitFor(() => vscode.workspace.getConfiguration('agentWorkbench').get('baseUrl') === sandbox.baseUrl, 'the previous base URL to come back');
    // The previous service's token was kept, so the user is connected to it again.
    await waitFor(() => api.connection.state.kind === 'connected' && api.connection.state.info.baseUrl === sandbox.baseUrl, 'the previous connection');
  });
});
