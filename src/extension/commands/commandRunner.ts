import * as vscode from 'vscode';
import type { Log } from '../log';
import { isOutcomeUnknown, outcomeUnknownMessage } from '../../core/outcomeUnknown';
import { Commands } from '../constants';
import { isCancellation, messageOf, NotConnectedError } from '../util/errors';
import { passesTrustGate } from './workspaceTrust';

let readAgain: (() => void) | undefined;

/** The commands registered through `registerCommand` and not disposed (what still needs a stand-in until first use). */
const registered = new Set<string>();

/** The commands registered through `registerCommand` now. */
export function registeredCommands(): ReadonlySet<string> {
  return new Set(registered);
}

/** What to do when a write may or may not have happened: read the views again, so they show the truth. */
export function onOutcomeUnknown(refresh: () => void): vscode.Disposable {
  readAgain = refresh;
  return new vscode.Disposable(() => (readAgain = undefined));
}

/** The client's word for an endpoint this server does not offer (a 404/405 where the call names its feature). */
function isUnsupportedEndpoint(error: unknown): boolean {
  return (error as { kind?: unknown } | null)?.kind === 'unsupported';
}

/**
 * Registers a command through one wrapper: cancellation is silent, any other failure becomes one clear
 * sentence (with "Show Log") and its details go to the log; an endpoint the server does not offer is said
 * so, as a warning; a write whose outcome is unknown (the
 * connection was cut after it was sent) says so and the views are read again — it is never repeated
 * on its own. Known secrets are masked in what is shown. Returns the handler's result to callers.
 */
// Handlers declare the arguments VS Code passes them (a tree node, a URI…): `never[]` accepts any parameter list.
export function registerCommand(log: Log, id: string, handler: (...args: never[]) => unknown): vscode.Disposable {
  const registration = vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    if (!passesTrustGate(id)) return undefined;
    try {
      return await handler(...(args as never[]));
    } catch (error) {
      if (isCancellation(error)) return undefined;
      if (error instanceof NotConnectedError) {
        void vscode.window.showWarningMessage(error.message, 'Sign In…', 'Start Local Sandbox').then((choice) => {
          if (choice === 'Sign In…') void vscode.commands.executeCommand(Commands.signIn);
          if (choice === 'Start Local Sandbox') void vscode.commands.executeCommand(Commands.startSandbox);
        });
        return undefined;
      }
      if (isUnsupportedEndpoint(error)) {
        // Not a failure of the command: this server lacks the endpoint, which the message says.
        log.info(`${id}: ${messageOf(error)}`);
        void vscode.window.showWarningMessage(log.redact(messageOf(error)));
        return undefined;
      }
      log.error(`Command ${id} failed`, error);
      const unknown = isOutcomeUnknown(error);
      if (unknown) readAgain?.();
      const message = unknown ? outcomeUnknownMessage({ happened: 'this change was made', readAgain: 'the views' }, error) : messageOf(error);
      void vscode.window.showErrorMessage(log.redact(message), 'Show Log').then((choice) => {
        if (choice === 'Show Log') log.show();
      });
      return undefined;
    }
  });
  registered.add(id);
  return new vscode.Disposable(() => {
    registered.delete(id);
    registration.dispose();
  });
}
