// The integration harness itself: these fail when the suite is not really running inside an
// extension host that has the Agent Workbench extension installed.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'agent-workbench.agent-workbench';
const COMMANDS = [
  'agentWorkbench.signIn',
  'agentWorkbench.signOut',
  'agentWorkbench.startSandbox',
  'agentWorkbench.stopSandbox',
];

describe('The integration harness', () => {
  it('runs inside an extension host that has Agent Workbench installed', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed in this extension host`);
    assert.equal((extension.packageJSON as { name: string }).name, 'agent-workbench');
  });

  it('activates the extension without an error', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it('registers the sign-in and sandbox commands', async () => {
    const commands = new Set(await vscode.commands.getCommands(true));
    const missing = COMMANDS.filter((command) => !commands.has(command));
    assert.deepEqual(missing, [], `commands not registered: ${missing.join(', ')}`);
  });

  it('hands the harness environment to the extension host', function () {
    // Only the code-server harness sets this; under @vscode/test-electron there is nothing to check.
    if (process.env.AGENT_WORKBENCH_TEST_RESULTS === undefined) this.skip();
    assert.equal(process.env.AGENT_WORKBENCH_TEST_PROBE, 'reached-extension-host');
  });
});
