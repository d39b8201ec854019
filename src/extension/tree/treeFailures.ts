import * as vscode from 'vscode';
import type { Log } from '../log';
import { messageOf } from '../util/errors';

let log: Log | undefined;

/** Sends every failure a tree meets to this log (until disposed): a view that shows an error node also says why in the log. */
export function logTreeFailuresTo(target: Log): vscode.Disposable {
  log = target;
  return new vscode.Disposable(() => {
    if (log === target) log = undefined;
  });
}

/** Writes a failure of a view to the log: where it happened and the error with its details. */
export function reportTreeFailure(where: string, error: unknown): void {
  log?.error(`${where}: ${messageOf(error)}`, error instanceof Error ? error : undefined);
}

/** Notes something a view corrected on its own (an item the service listed twice). */
export function reportTreeWarning(message: string): void {
  log?.warn(message);
}
