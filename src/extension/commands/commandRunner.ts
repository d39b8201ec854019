import * as vscode from 'vscode';
import type { Log } from '../log';
import { isCancellation, messageOf } from '../util/errors';

/**
 * Registers a command through one wrapper: cancellation is silent, any other failure becomes one clear
 * sentence (with "Show Log") and its details go to the log. Returns the handler's result to callers.
 */
export function registerCommand(log: Log, id: string, handler: (...args: any[]) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (isCancellation(error)) return undefined;
      log.error(`Command ${id} failed`, error);
      void vscode.window.showErrorMessage(messageOf(error), 'Show Log').then((choice) => {
        if (choice === 'Show Log') log.show();
      });
      return undefined;
    }
  });
}
