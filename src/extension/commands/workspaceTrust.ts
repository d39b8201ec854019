import * as vscode from 'vscode';
import type { TestPrompts } from '../testing/testPrompts';
import { TRUSTED_COMMANDS } from '../constants';

const gated: ReadonlySet<string> = new Set(TRUSTED_COMMANDS);

// The gate runs inside every command's wrapper, which has no owner to hand it in: activate installs the
// answers here (only the test build reads them).
let answers: TestPrompts | undefined;

/** Lets tests answer whether the workspace is trusted (the test build only), until disposed. */
export function answerTrustWith(prompts: TestPrompts): vscode.Disposable {
  answers = prompts;
  return new vscode.Disposable(() => {
    if (answers === prompts) answers = undefined;
  });
}

/** Whether the workspace is trusted; the one place trust is read (tests answer it in the test build). */
export function isWorkspaceTrusted(): boolean {
  if (__TEST_HOOKS__ && answers?.workspaceTrusted !== undefined) return answers.workspaceTrusted;
  return vscode.workspace.isTrusted;
}

/** The sentence shown when a command that needs trust is invoked in Restricted Mode. */
export const RESTRICTED_MESSAGE = 'This workspace is in Restricted Mode: running agents, starting or cancelling jobs, running queries and uploading files need a trusted workspace, since files from a repository could otherwise send your files or spend credits. Nothing was sent.';

/**
 * Commands of {@link TRUSTED_COMMANDS} are disabled in Restricted Mode (package.json `enablement` has
 * `isWorkspaceTrusted`); invoked anyway (a code lens, a keybinding, another extension) they say why and
 * do nothing. True when `id` may run now; otherwise tells the user why not (with a way to trust the workspace) and returns false. */
export function passesTrustGate(id: string): boolean {
  if (!gated.has(id) || isWorkspaceTrusted()) return true;
  void vscode.window.showWarningMessage(RESTRICTED_MESSAGE, 'Manage Workspace Trust').then((choice) => {
    if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
  });
  return false;
}
