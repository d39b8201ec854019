/**
 * A modal question with its actions: the one place the questions that pick a write's target are asked
 * (a confirmation naming the target, "not a trial of yours"), so tests can answer them.
 */
import * as vscode from 'vscode';
import type { TestPrompts } from '../testing/testPrompts';

let answers: TestPrompts | undefined;

/** Lets the integration tests answer modal questions (the test build only reads them). */
export function answerModalsWith(prompts: TestPrompts): vscode.Disposable {
  answers = prompts;
  return new vscode.Disposable(() => {
    if (answers === prompts) answers = undefined;
  });
}

/** Asks a modal question; answers the action taken, or undefined when the user dismissed it. */
export async function askModal(message: string, detail: string | undefined, ...actions: string[]): Promise<string | undefined> {
  if (__TEST_HOOKS__ && answers?.modal) return answers.modal({ message, detail: detail ?? '', actions });
  return vscode.window.showWarningMessage(message, { modal: true, detail }, ...actions);
}
