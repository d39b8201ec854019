import * as vscode from 'vscode';
import type { TrialRecord } from '../core';
import { loadCore } from '../lazyCore';
import { CancelledError, messageOf } from '../util/errors';
import { COMPARISON_VIEW_TYPE } from '../comparison/comparisonPage';

const TRIAL_GLOB = '**/*.trial.json';

/** A trial file of the workspace and what it holds. */
export interface TrialFile {
  uri: vscode.Uri;
  record: TrialRecord;
  /** Writes the record to its file (awaited before every request that creates something). */
  readonly save: () => Promise<void>;
}

/** A trial record bound to its file. */
export function trialFile(uri: vscode.Uri, record: TrialRecord): TrialFile {
  return {
    uri,
    record,
    save: async () => vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(loadCore().serializeTrial(record))),
  };
}

/** Reads a trial file (checked whole); throws one sentence naming the file when it is not one. */
export async function readTrialFile(uri: vscode.Uri): Promise<TrialFile> {
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  try {
    return trialFile(uri, loadCore().parseTrial(text));
  } catch (error) {
    throw new Error(`${vscode.workspace.asRelativePath(uri)}: ${messageOf(error)}`);
  }
}

/** The trials of the workspace that were neither published nor discarded (a trial running, or one a crash interrupted). */
export async function unfinishedTrials(): Promise<TrialFile[]> {
  const found: TrialFile[] = [];
  for (const uri of await vscode.workspace.findFiles(TRIAL_GLOB, '**/node_modules/**', 200)) {
    const file = await readTrialFile(uri).catch(() => undefined);
    if (file && (file.record.state === 'started' || file.record.state === 'ready')) found.push(file);
  }
  return found;
}

/** `<folder>/<base>.trial.json` and its comparison beside it, numbered (`-2`, `-3`…) past files that exist. */
export async function freeTrialFiles(folder: vscode.Uri, base: string): Promise<{ trial: vscode.Uri; comparison: vscode.Uri }> {
  const exists = (uri: vscode.Uri): Thenable<boolean> => vscode.workspace.fs.stat(uri).then(() => true, () => false);
  for (let attempt = 1; ; attempt++) {
    const names = loadCore().trialFileNames(`${base}${attempt > 1 ? `-${attempt}` : ''}`);
    const trial = vscode.Uri.joinPath(folder, names.trial);
    const comparison = vscode.Uri.joinPath(folder, names.comparison);
    if (!(await exists(trial)) && !(await exists(comparison))) return { trial, comparison };
  }
}

/** The comparison file of a trial file (beside it). */
export function comparisonUriOf(trial: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(trial, '..', loadCore().comparisonOfTrialFile(trial.path.split('/').pop() ?? ''));
}

/**
 * The trial a command acts on: the file given (a trial file, or a trial's comparison), else the trial
 * of the comparison in the active editor, else one of the workspace's unfinished trials, picked.
 */
export async function trialOf(arg: unknown, title: string): Promise<TrialFile> {
  const given = arg instanceof vscode.Uri ? arg : activeComparison();
  if (given) {
    const name = given.path.split('/').pop() ?? '';
    const trialName = name.endsWith('.trial.json') ? name : loadCore().trialFileOfComparison(name);
    if (!trialName) throw new Error(`${vscode.workspace.asRelativePath(given)} is not a trial's comparison: only a comparison made by Try This Edit… or Try This Draft… can be published or discarded.`);
    return readTrialFile(vscode.Uri.joinPath(given, '..', trialName));
  }
  const open = await unfinishedTrials();
  if (open.length === 0) throw new Error('No trial is open in this workspace. Start one with Try This Edit… in an edited policy, or Try This Draft… in an agent version draft.');
  if (open.length === 1) return open[0]!;
  const pick = await vscode.window.showQuickPick(open.map((file) => ({ label: loadCore().trialSubjectName(file.record), description: vscode.workspace.asRelativePath(file.uri), detail: `trial of ${file.record.createdAt.slice(0, 16).replace('T', ' ')} by ${file.record.user}`, file })), { title });
  if (!pick) throw new CancelledError();
  return pick.file;
}

/** The comparison file shown in the active editor tab, if any. */
function activeComparison(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputCustom && input.viewType === COMPARISON_VIEW_TYPE ? input.uri : undefined;
}
