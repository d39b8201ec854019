// Most commands are not needed to draw the views: their code (and what only it uses) is in
// dist/commands.js, loaded the first time one of them runs. Until then each has a stand-in that loads
// the bundle, lets it register the real commands, and runs the real one with the same arguments.
import * as vscode from 'vscode';
import type { Log } from '../log';
import { registeredCommands } from './commandRunner';

/**
 * Registers a stand-in for each of `ids` not registered already; the first call of any loads the real
 * commands (`register`, whose disposables go to `owner`) and runs the command it stood in for.
 */
export function registerOnFirstUse(ids: readonly string[], register: () => vscode.Disposable[], owner: vscode.Disposable[], log: Log): vscode.Disposable {
  const before = registeredCommands();
  const waiting = ids.filter((id) => !before.has(id));
  let standIns: vscode.Disposable[] = [];
  let loaded = false;
  const load = (): void => {
    if (loaded) return;
    loaded = true;
    for (const standIn of standIns) standIn.dispose();
    standIns = [];
    const earlier = registeredCommands();
    owner.push(...register());
    const now = registeredCommands();
    // Either is a slip in the list of ids: a command not found before its bundle loaded, or never.
    const unannounced = [...now].filter((id) => !earlier.has(id) && !waiting.includes(id));
    const missing = waiting.filter((id) => !now.has(id));
    if (unannounced.length) log.error(`Commands loaded on first use without a stand-in before: ${unannounced.join(', ')}`);
    if (missing.length) log.error(`Commands with a stand-in that their bundle does not register: ${missing.join(', ')}`);
  };
  standIns = waiting.map((id) =>
    vscode.commands.registerCommand(id, (...args: unknown[]) => {
      load();
      return vscode.commands.executeCommand<unknown>(id, ...args);
    }),
  );
  return new vscode.Disposable(() => {
    for (const standIn of standIns) standIn.dispose();
  });
}
