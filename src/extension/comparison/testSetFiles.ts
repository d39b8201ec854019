import * as vscode from 'vscode';
import type { TestCase } from '../core';
import { loadCore } from '../lazyCore';
import { ComparisonCommands } from '../constants';
import { CancelledError } from '../util/errors';
import { offer } from './comparisonPrompts';

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

/** The test set open in the active editor, if one is. */
export function activeTestSet(): vscode.Uri | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri && uri.scheme === 'file' && /\.testset\.(jsonl|csv)$/i.test(uri.path) ? uri : undefined;
}

/** Where Open the Demo Test Set writes the demo's labelled test set (as the demo workspace has it). */
const DEMO_TEST_SET = { folder: 'tests', base: 'support-call-qa' } as const;

/**
 * No test set in the workspace: says so and offers Create Test Set from Jobs… and, connected to the
 * local sandbox (`demo`), Open the Demo Test Set (not an error: a first test set is the next step).
 * Ends the command quietly either way.
 */
export function offerTestSet(what: string, demo = false): Promise<never> {
  const text = `${what} needs a test set, and the workspace has none (*.testset.jsonl or *.testset.csv). Make one from an agent's past jobs: their inputs, and the reviewers' corrections as what is expected.`;
  const actions = [{ label: 'Create Test Set from Jobs…', act: () => vscode.commands.executeCommand(ComparisonCommands.testSetFromJobs) }];
  if (demo) actions.push({ label: 'Open the Demo Test Set', act: () => openDemoTestSet() });
  // The offer stays in the notifications; the command ends now, without an error.
  offer(text, actions);
  return Promise.reject(new CancelledError());
}

/** Writes the demo's labelled test set of Support Call QA into the workspace (beside any file of that name) and opens it. */
export async function openDemoTestSet(): Promise<vscode.Uri> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!root) throw new Error('Open a folder first: a test set is a file of the workspace.');
  const core = loadCore();
  const folder = vscode.Uri.joinPath(root, DEMO_TEST_SET.folder);
  await vscode.workspace.fs.createDirectory(folder);
  const uri = await freeFileUri(folder, DEMO_TEST_SET.base, '.testset.jsonl');
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(core.demoTestSetText(core.DEMO_LOOP_TRANSCRIPT)));
  await vscode.window.showTextDocument(uri, { preview: false });
  return uri;
}

/** Picks a test set of the workspace: the one open in the editor, else one whose name starts with `prefer` when it is the only one, else the user's pick. */
export async function pickTestSet(title: string, prefer?: string): Promise<vscode.Uri> {
  const open = activeTestSet();
  if (open) return open;
  const files = await vscode.workspace.findFiles(TEST_SET_GLOB, '**/node_modules/**', 500);
  if (!files.length) return offerTestSet(title.split(':')[0] ?? 'This command');
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
