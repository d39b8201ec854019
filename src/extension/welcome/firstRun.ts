import * as vscode from 'vscode';

const SHOWN_KEY = 'agentWorkbench.walkthrough.shown';
const WALKTHROUGH_ID = 'gettingStarted';
/** Set by `npm run demo`: the extension was installed from the command line, so VS Code did not open its walkthrough. */
export const OPEN_WALKTHROUGH_ENV = 'AGENT_WORKBENCH_OPEN_WALKTHROUGH';

/**
 * VS Code opens the walkthrough of an extension installed from the Extensions view by itself; one
 * installed from the command line (as `npm run demo` does) gets nothing. For that window the demo
 * asks, and the walkthrough opens the first time the extension runs in the profile, never again.
 */
export function openWalkthroughOnFirstRun(context: vscode.ExtensionContext): void {
  if (process.env[OPEN_WALKTHROUGH_ENV] !== '1' || context.globalState.get<boolean>(SHOWN_KEY)) return;
  void context.globalState.update(SHOWN_KEY, true);
  void vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#${WALKTHROUGH_ID}`, false);
}
