// The extension under test as the bench runner reaches it from inside the extension host: the
// extension object, its test API (AGENT_WORKBENCH_TEST_API=1), signing in, and bounded waiting.
import * as vscode from 'vscode';
import type { AgentWorkbenchApi } from '../../src/extension/extension';
import type { HostState, ServiceConnection } from './protocol';

export const EXTENSION_ID = 'agent-workbench.agent-workbench';

/** The installed extension (not necessarily active). */
export function ourExtension(): vscode.Extension<AgentWorkbenchApi | undefined> {
  const extension = vscode.extensions.getExtension<AgentWorkbenchApi | undefined>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not installed in this extension host.`);
  return extension;
}

/** The extension's main file, as VS Code will require it. */
export function mainFile(): string {
  const extension = ourExtension();
  const main = String((extension.packageJSON as { main?: string }).main ?? './dist/extension.js');
  return vscode.Uri.joinPath(extension.extensionUri, main).fsPath;
}

/** Activates the extension if needed and returns its test API. */
export async function workbenchApi(): Promise<AgentWorkbenchApi> {
  const api = await ourExtension().activate();
  if (!api) throw new Error('The extension returned no test API: AGENT_WORKBENCH_TEST_API=1 must reach the extension host.');
  return api;
}

/** Polls until `check` returns something truthy; fails with what it waited for. */
export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Signs in through the extension's own command (token checked with the service, stored as a secret). */
export async function connect(connection: ServiceConnection): Promise<void> {
  const api = await workbenchApi();
  // Already signed in there (the benchmark before did it): signing in again rewrites settings and secrets for nothing.
  const state = api.connection.state;
  if (state.kind === 'connected' && state.info.baseUrl === connection.baseUrl && readOrganization() === connection.organizationId) return;
  await vscode.commands.executeCommand('agentWorkbench.signIn', connection);
  await waitFor(() => api.connection.state.kind === 'connected' && api.connection.state.info.baseUrl === connection.baseUrl, `the connection to ${connection.baseUrl}`);
}

function readOrganization(): string | undefined {
  return vscode.workspace.getConfiguration('agentWorkbench').get<string>('organizationId');
}

/** What the host looks like right now; never activates the extension. */
export function hostState(): HostState {
  const extension = ourExtension();
  const api = extension.isActive ? extension.exports : undefined;
  return {
    pid: process.pid,
    extensionActive: extension.isActive,
    windowFocused: vscode.window.state.focused,
    connected: api?.connection.state.kind === 'connected',
    rssBytes: process.memoryUsage.rss(),
  };
}

/**
 * Closes every editor. An editor with unsaved changes (a document a benchmark typed into) is reverted
 * and closed first: otherwise VS Code asks whether to save it, and the window waits for an answer.
 */
export async function closeAllEditors(): Promise<null> {
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (!tab.isDirty) continue;
      if (tab.input instanceof vscode.TabInputText || tab.input instanceof vscode.TabInputCustom) {
        await vscode.commands.executeCommand('vscode.open', tab.input.uri, { viewColumn: group.viewColumn, preview: false });
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      }
    }
  }
  const dirty = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.isDirty).map((t) => t.label);
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Closing the editors did not finish within 20 s (unsaved: ${dirty.join(', ') || 'none'}).`)), 20_000);
  });
  try {
    await Promise.race([vscode.commands.executeCommand('workbench.action.closeAllEditors'), stuck]);
  } finally {
    clearTimeout(timer);
  }
  return null;
}
