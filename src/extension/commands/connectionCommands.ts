import * as vscode from 'vscode';
import { Commands } from '../constants';
import type { Connection } from '../connection/connection';
import { signIn } from '../connection/signIn';
import type { Log } from '../log';
import type { LocalSandbox } from '../sandbox/localSandbox';
import type { SignedInUser } from '../connection/signedInUser';
import { registerCommand } from './commandRunner';

/** Sign in/out, the local sandbox, the log and the connection menu. */
export function registerConnectionCommands(connection: Connection, sandbox: LocalSandbox, user: SignedInUser, log: Log): vscode.Disposable[] {
  return [
    registerCommand(log, Commands.signIn, (given?: { baseUrl: string; organizationId: string; token: string }) => signIn(connection, given?.token ? given : undefined)),
    registerCommand(log, Commands.signOut, async () => {
      await connection.signOut();
      void vscode.window.showInformationMessage('Signed out. The token was removed from secret storage.');
    }),
    registerCommand(log, Commands.startSandbox, () => sandbox.start()),
    registerCommand(log, Commands.stopSandbox, () => sandbox.stop()),
    registerCommand(log, Commands.showLog, () => log.show()),
    registerCommand(log, Commands.showConnectionMenu, () => showConnectionMenu(connection, sandbox, user)),
  ];
}

async function showConnectionMenu(connection: Connection, sandbox: LocalSandbox, user: SignedInUser): Promise<void> {
  type Item = vscode.QuickPickItem & { command: string; args?: unknown[] };
  const state = connection.state;
  const items: Item[] = [];
  if (state.kind === 'connected') {
    items.push({ label: '$(sign-out) Sign Out', description: [user.label, state.info.host].filter(Boolean).join(' · '), command: Commands.signOut });
    items.push({ label: '$(key) Sign In to Another Service…', command: Commands.signIn });
  } else {
    items.push({ label: '$(sign-in) Sign In…', command: Commands.signIn });
  }
  if (sandbox.isRunning) items.push({ label: '$(debug-stop) Stop Local Sandbox', command: Commands.stopSandbox });
  else items.push({ label: '$(beaker) Start Local Sandbox', description: 'try everything locally, no account needed', command: Commands.startSandbox });
  items.push({ label: '$(output) Show Log', command: Commands.showLog });
  items.push({ label: '$(settings-gear) Open Settings', command: 'workbench.action.openSettings', args: [`@ext:agent-workbench.agent-workbench`] });
  const who = state.kind === 'connected' && user.label ? `${user.label} on ` : '';
  const title = state.kind === 'connected' ? `Agent Workbench — ${who}${state.info.baseUrl} · organization ${state.info.organizationId}` : 'Agent Workbench — not connected';
  const pick = await vscode.window.showQuickPick(items, { title, placeHolder: 'Choose an action' });
  if (pick) await vscode.commands.executeCommand(pick.command, ...(pick.args ?? []));
}

