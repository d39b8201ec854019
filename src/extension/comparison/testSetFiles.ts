import * as vscode from 'vscode';
import type { TestCase } from '../core';
import { loadCore } from '../lazyCore';
import { CancelledError } from '../util/errors';

const TEST_SET_GLOB = '**/*.{testset.jsonl,testset.csv}';

export { agentFileSlug as slug } from '../../core/runs/runFilePath';

/** `<folder>/<base><suffix>`, numbered (`-2`, `-3`…) past files that exist. */
export async function freeFileUri(folder: vscode.Uri, base: string, suffix: string): Promise<vscode.Uri> {
  for (let attempt = 1; ; attempt++) {
    const candidate = vscode.Uri.joinPath(folder, `${base}${attempt > 1 ? `-${attempt}` : ''}${suffix}`);
    try {
      await vscode.workspace.fs.stat(candidate);
    } catch {
      return candidate;
    }
  }
}

/** Picks a test set of the workspace; one whose name starts with `prefer` comes first (and is taken alone if it is the only one). */
export async function pickTestSet(title: string, prefer?: string): Promise<vscode.Uri> {
  const files = await vscode.workspace.findFiles(TEST_SET_GLOB, '**/node_modules/**', 500);
  if (!files.length) throw new Error('No test set in the workspace (*.testset.jsonl or *.testset.csv). Create one from jobs with Create Test Set from Jobs…, or write one by hand.');
  const name = (uri: vscode.Uri): string => uri.path.split('/').pop() ?? '';
  const preferred = prefer ? files.filter((f) => name(f).startsWith(prefer)) : [];
  if (preferred.length === 1 && preferred[0]) return preferred[0];
  const ordered = [...preferred, ...files.filter((f) => !preferred.includes(f))];
  const pick = await vscode.window.showQuickPick(ordered.map((uri) => ({ label: name(uri), description: vscode.workspace.asRelativePath(uri), uri })), { title });
  if (!pick) throw new CancelledError();
  return pick.uri;
}

/**
 * Reads a test set. Lines that cannot be read are named with their line number; the user may go on
 * with the rest (`quiet` goes on without asking, for commands given their arguments).
 */
export async function readTestSet(uri: vscode.Uri, quiet: boolean): Promise<{ name: string; cases: TestCase[]; agentId?: string }> {
  const name = uri.path.split('/').pop() ?? 'test set';
  const doc = await vscode.workspace.openTextDocument(uri);
  const { cases, problems } = loadCore().parseTestSet(name, doc.getText());
  if (!cases.length) {
    const first = problems[0];
    throw new Error(`${name} has no case to run${first ? ` (line ${first.line}: ${first.message})` : ''}.`);
  }
  if (problems.length && !quiet) {
    const go = `Run ${cases.length} Cases`;
    const detail = problems.slice(0, 5).map((p) => `Line ${p.line}: ${p.message}`).join('\n');
    const answer = await vscode.window.showWarningMessage(`${problems.length} line${problems.length === 1 ? '' : 's'} of ${name} could not be read; the other ${cases.length} cases can run.`, { modal: true, detail }, go);
    if (answer !== go) throw new CancelledError();
  }
  return { name, cases, agentId: loadCore().testSetAgentId(doc.getText()) };
}
