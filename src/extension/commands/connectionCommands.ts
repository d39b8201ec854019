import * as vscode from 'vscode';
import { hostOf } from '../../core/connectionSettings';
import { Commands, EXTENSION_ID } from '../constants';
import type { Connection } from '../connection/connection';
import { same, type SavedConnection } from '../connection/savedConnections';
import { signIn } from '../connection/signIn';
import type { Log } from '../log';
import type { LocalSandbox } from '../sandbox/localSandbox';
import type { SignedInUser } from '../connection/signedInUser';
import { registerCommand } from './commandRunner';

/** Sign in/out, switching connections, the local sandbox, the log and the connection menu. */
export function registerConnectionCommands(connection: Connection, sandbox: LocalSandbox, user: SignedInUser, log: Log): vscode.Disposable[] {
  return [
    registerCommand(log, Commands.signIn, (given?: { baseUrl: string; organizationId: string; token: string }) => signIn(connection, given?.token ? given : undefined)),
    registerCommand(log, Commands.signOut, async () => {
      await connection.signOut();
      void vscode.window.showInformationMessage('Signed out. The token was removed from secret storage.');
    }),
    registerCommand(log, Commands.switchConnection, (target?: SavedConnection) => switchConnection(connection, target)),
    registerCommand(log, Commands.startSandbox, () => sandbox.start()),
    registerCommand(log, Commands.stopSandbox, () => sandbox.stop()),
    registerCommand(log, Commands.showLog, () => log.show()),
    registerCommand(log, Commands.showConnectionMenu, () => showConnectionMenu(connection, sandbox, user)),
  ];
}

/** Switches to a kept connection; asks for its token only when secret storage has none for that service. */
async function switchConnection(connection: Connection, target?: SavedConnection): Promise<void> {
  const chosen = target ?? (await pickConnection(connection));
  if (!chosen) return;
  await connection.switchTo(chosen);
  if (!(await connection.hasToken(chosen.baseUrl))) await signIn(connection);
}

const forgetButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Forget this connection' };

type Item = vscode.QuickPickItem & { run?: () => Thenable<unknown>; saved?: SavedConnection };

/** The connection menu (status bar): the kept connections first — one click switches — then the actions. */
async function showConnectionMenu(connection: Connection, sandbox: LocalSandbox, user: SignedInUser): Promise<void> {
  const state = connection.state;
  const current = state.kind === 'connected' && !state.info.isSandbox ? state.info : undefined;
  const items: Item[] = connectionItems(connection, current);
  items.push({ label: 'Actions', kind: vscode.QuickPickItemKind.Separator });
  const command = (id: string, ...args: unknown[]) => () => vscode.commands.executeCommand(id, ...args);
  if (state.kind === 'connected' && !state.info.isSandbox) items.push({ label: '$(sign-out) Sign Out', description: [user.label, state.info.host].filter(Boolean).join(' · '), run: command(Commands.signOut) });
  items.push({ label: '$(add) Sign In to Another Service…', run: () => signIn(connection, undefined, { askService: true }) });
  if (sandbox.isRunning) items.push({ label: '$(debug-stop) Stop Local Sandbox', run: command(Commands.stopSandbox) });
  else items.push({ label: '$(beaker) Start Local Sandbox', description: 'try everything locally, no account needed', run: command(Commands.startSandbox) });
  items.push({ label: '$(output) Show Log', run: command(Commands.showLog) });
  items.push({ label: '$(book) Get Started', description: 'the walkthrough', run: command('workbench.action.openWalkthrough', `${EXTENSION_ID}#gettingStarted`, false) });
  items.push({ label: '$(settings-gear) Open Settings', run: command('workbench.action.openSettings', `@ext:${EXTENSION_ID}`) });
  // Who is signed in, when the service said (the current user is read once per connection).
  const who = state.kind === 'connected' && user.label ? `${user.label} on ` : '';
  const title = state.kind === 'connected' ? `Agent Workbench — ${who}${state.info.baseUrl} · organization ${state.info.organizationId}` : 'Agent Workbench — not connected';

  const pick = await new Promise<Item | undefined>((resolve) => {
    const qp = vscode.window.createQuickPick<Item>();
    qp.title = title;
    qp.placeholder = 'Switch to a connection, or choose an action';
    qp.items = items;
    qp.onDidTriggerItemButton((e) => {
      const saved = e.item.saved;
      if (!saved) return;
      qp.items = qp.items.filter((item) => item !== e.item);
      void connection.saved.forget(saved); // the token stays: it belongs to the service, which other connections may share
    });
    qp.onDidAccept(() => {
      resolve(qp.selectedItems[0]);
      qp.hide();
    });
    qp.onDidHide(() => {
      resolve(undefined);
      qp.dispose();
    });
    qp.show();
  });
  if (pick?.saved) await switchConnection(connection, pick.saved);
  else if (pick?.run) await pick.run();
}

/** One item per kept connection, the current one marked. */
function connectionItems(connection: Connection, current: SavedConnection | undefined): Item[] {
  const saved = connection.saved.list();
  if (saved.length === 0) return [];
  return [
    { label: 'Connections', kind: vscode.QuickPickItemKind.Separator },
    ...saved.map((c): Item => {
      const isCurrent = current !== undefined && same(c, current);
      return {
        label: `${isCurrent ? '$(check)' : '$(cloud)'} ${hostOf(c.baseUrl)}`,
        description: `organization ${c.organizationId}${isCurrent ? ' · current' : ''}`,
        detail: c.baseUrl,
        saved: c,
        buttons: isCurrent ? [] : [forgetButton],
      };
    }),
  ];
}

async function pickConnection(connection: Connection): Promise<SavedConnection | undefined> {
  const state = connection.state;
  const items = connectionItems(connection, state.kind === 'connected' ? state.info : undefined).filter((i) => i.saved);
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No connections are kept yet: sign in to a service first.');
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { title: 'Switch Connection', placeHolder: 'Choose a service and organization' }))?.saved;
}
