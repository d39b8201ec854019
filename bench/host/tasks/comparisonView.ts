// The comparison view: a comparison file (made by the orchestrator) written into the workspace and
// opened in the comparison view the way a user opens it (VS Code's openWith); its page is then watched
// and scrolled from the browser side.
import * as vscode from 'vscode';
import type { ComparisonFileArgs } from '../protocol';

/** Writes the comparison file the orchestrator made into the workspace, answering its URI. */
export async function writeComparison(args: ComparisonFileArgs): Promise<string> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('The bench window has no workspace folder.');
  const uri = vscode.Uri.joinPath(folder.uri, args.name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(args.text));
  return uri.toString();
}

/** Opens the file in the comparison view; answers Date.now() just before (the browser reads the same clock). */
export async function openComparison(uri: string): Promise<number> {
  const openedAt = Date.now();
  await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.parse(uri), 'agentWorkbench.comparison', { preview: false });
  return openedAt;
}
