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

describe('Connection: the local sandbox belongs to the window that started it', function () {
  let sandbox: TestSandbox;

  before(async () => {
    sandbox = await startSandbox();
  });

  after(async () => {
    await sandbox.stop();
  });

  afterEach(async () => {
    const api = await workbench();
    if (api.sandbox.isRunning) await vscode.commands.executeCommand('agentWorkbench.stopSandbox');
  });

  it('leaves the user settings naming the user\'s own service while this window works in the local sandbox', async function () {
    this.timeout(90_000);
    const api = await workbench();
    await connect(sandbox);
    await vscode.commands.executeCommand('agentWorkbench.startSandbox');
    const local = await waitFor(() => api.connection.state.kind === 'connected' && api.connection.state.info.isSandbox && api.connection.state, 'the local sandbox connection', 60_000);
    const inspect = vscode.workspace.getConfiguration('agentWorkbench').inspect<string>('baseUrl');
    assert.equal(inspect?.globalValue, sandbox.baseUrl, 'the user settings still name the service the user chose');
    assert.equal(inspect?.workspaceValue, undefined, 'nor is the sandbox written into the workspace settings');
    assert.notEqual(local.info.baseUrl, sandbox.baseUrl);
    await vscode.commands.executeCommand('agentWorkbench.stopSandbox');
    await waitFor(() => api.connection.state.kind === 'connected' && api.connection.state.info.baseUrl === sandbox.baseUrl, 'the user\'s own connection again');
  });

  it('offers, after a restart, to start the local sandbox this window was using, and connects to it when accepted', async function () {
    this.timeout(120_000);
    const api = await workbench();
    await connect(sandbox);
    await vscode.commands.executeCommand('agentWorkbench.startSandbox');
    await waitFor(() => api.connection.state.kind === 'connected' && api.connection.state.info.isSandbox, 'the local sandbox connection', 60_000);
    // What closing the window does: the sandbox process ends with it.
    await api.sandbox.shutdown();
    assert.equal(api.sandbox.isRunning, false);
    await waitFor(() => api.connection.state.kind === 'connected' && api.connection.state.info.baseUrl === sandbox.baseUrl, 'the user\'s own connection, not a dead port');
    // What the next start of the window does.
    const asked: string[] = [];
    api.sandbox.prompts = { restart: (message) => (asked.push(message), Promise.resolve(true)) };
    await api.sandbox.offerRestartAfterReload();
    assert.equal(asked.length, 1, 'asked once');
    assert.match(asked[0] ?? '', /local sandbox/i);
    await waitFor(() => api.sandbox.isRunning && api.connection.state.kind === 'connected' && api.connection.state.info.isSandbox, 'the sandbox started again', 60_000);
    // Declined, nothing is asked again on the next start.
    await api.sandbox.shutdown();
    api.sandbox.prompts = { restart: (message) => (asked.push(message), Promise.resolve(false)) };
    await api.sandbox.offerRestartAfterReload();
    await api.sandbox.offerRestartAfterReload();
    assert.equal(asked.length, 2, 'a declined offer is not repeated');
    assert.equal(api.sandbox.isRunning, false);
  });
});

describe('Connection: a token that stops working', function () {
  const SECOND_TOKEN = 'second-token-of-the-demo-user';
  let sandbox: TestSandbox;

  before(async () => {
    sandbox = await startSandbox(['--user', `${SECOND_TOKEN}:3f6c2a1e-8b4d-4c7a-9e15-6d2b8f0a4c91`]);
  });

  after(async () => {
    await sandbox.stop();
  });

  it('asks once to sign in again instead of filling every view with errors, and every view comes back after signing in', async function () {
    this.timeout(60_000);
    const api = await workbench();
    await connect(sandbox);
    const views = [api.agents, api.policies, api.datasets];
    for (const view of views) assert.ok(((await view.provider.getChildren()) ?? []).length > 0);
    let expiries = 0;
    const listener = api.connection.onDidChange((state) => {
      if (state.kind === 'signedOut' && state.expired) expiries++;
    });
    try {
      // The service no longer accepts the token (revoked, expired): every request answers 401.
      await sandbox.faults.set([{ path: '/v1/**', kind: 'status', status: 401, token: sandbox.token, body: { detail: 'Invalid token.' } }]);
      for (const view of views) view.reload();
      await Promise.all(views.map(async (view) => view.provider.getChildren()));
      const state = await waitFor(() => api.connection.state.kind === 'signedOut' && api.connection.state, 'the signed-out state');
      assert.equal(state.expired?.baseUrl, sandbox.baseUrl, 'it says which sign-in stopped working');
      for (const view of views) assert.deepEqual((await view.provider.getChildren()) ?? [], [], 'the view shows its welcome content (sign in), not error nodes');
      assert.equal(expiries, 1, 'asked once, not once per view');
      const origin = new URL(sandbox.baseUrl).origin;
      assert.deepEqual(await api.accounts.getSessions([origin]), [], 'the Accounts menu has no account for this service, and offers to sign in');
      await vscode.commands.executeCommand('agentWorkbench.signIn', { baseUrl: sandbox.baseUrl, organizationId: sandbox.organizationId, token: SECOND_TOKEN });
      await waitFor(() => api.connection.state.kind === 'connected', 'the connection');
      for (const view of views) {
        const children = (await view.provider.getChildren()) ?? [];
        assert.ok(children.length > 0 && children.every((node) => node.kind !== 'error'), 'the view is back');
      }
      const sessions = await api.accounts.getSessions([origin]);
      assert.deepEqual(sessions.map((s) => s.account.label), [new URL(sandbox.baseUrl).host], 'the account is back');
    } finally {
      listener.dispose();
      await sandbox.faults.clear();
    }
  });
});

describe('Connection: accounts and several connections', function () {
  let first: TestSandbox;
  let second: TestSandbox;

  before(async () => {
    [first, second] = await Promise.all([startSandbox(), startSandbox()]);
  });

  after(async () => {
    await Promise.all([first.stop(), second.stop()]);
  });

  it('keeps each connection it signed in to, and switches between them without asking for a token again', async () => {
    const api = await workbench();
    await connect(first);
    await connect(second);
    const kept = api.savedConnections.list().map((c) => c.baseUrl);
    assert.ok(kept.includes(first.baseUrl) && kept.includes(second.baseUrl), 'both connections are kept');
    await vscode.commands.executeCommand('agentWorkbench.switchConnection', { baseUrl: first.baseUrl, organizationId: first.organizationId });
    await waitFor(() => api.connection.state.kind === 'connected' && api.connection.state.info.baseUrl === first.baseUrl, 'the first connection');
    const hosts = (await api.accounts.getSessions(undefined)).map((s) => s.account.label);
    for (const service of [first, second]) assert.ok(hosts.includes(new URL(service.baseUrl).host), 'the Accounts menu lists an account per service');
  });

  it('signs out of a service from the Accounts menu: its token leaves secret storage, and this window is signed out when it was the current one', async () => {
    const api = await workbench();
    await connect(second);
    const session = (await api.accounts.getSessions(undefined)).find((s) => s.account.label === new URL(second.baseUrl).host);
    assert.ok(session);
    await api.accounts.removeSession(session.id);
    assert.equal(await api.secrets.get(secretKey(second.baseUrl)), undefined);
    await waitFor(() => api.connection.state.kind === 'signedOut', 'the signed-out state');
  });
});
