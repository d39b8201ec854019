import * as vscode from 'vscode';
import { registerCommand } from '../commands/commandRunner';
import { freeFileUri, slug } from '../comparison/testSetFiles';
import { ComparisonCommands, DocumentCommands, Schemes, TrialCommands } from '../constants';
import { parsePolicyEditUri } from '../documents/documentUris';
import { loadCore } from '../lazyCore';
import { policyOf } from '../policies/policyManagement';
import { PolicyVersionNode } from '../policies/policyNodes';
import { CancelledError } from '../util/errors';
import { discardThisTrial, publishThisEdit, type EndArgs } from './trialEnding';
import { cleanUpTrials, type CleanUpArgs } from './trialCleanUp';
import { tryThisDraft } from './tryThisDraft';
import { tryThisEdit, type TrialDeps, type TryArgs } from './tryThisEdit';
import { draftIds } from '../agents/versionDrafts';

/** Try This Edit…, Try This Draft…, Publish This Edit, Discard Trial, Clean Up Trials…, Export Policy to Workspace, and the Unsaved-policy menu. */
export function registerTrialCommands(deps: TrialDeps): vscode.Disposable[] {
  const { log } = deps;
  return [
    registerCommand(log, TrialCommands.tryThisEdit, async (arg?: unknown, args?: TryArgs) => {
      // One entry point for "what does my edit do": the live version itself is tested on the real agent, an agent version draft on a copy of its agent, anything else on copies.
      if (!args?.source && isVersionDraft(arg)) return tryThisDraft(deps, arg, args ?? {});
      const live = !args?.source && (await liveVersionEditor(deps, arg));
      return live ? vscode.commands.executeCommand(ComparisonCommands.testThisChange, live) : tryThisEdit(deps, arg, args ?? {});
    }),
    registerCommand(log, TrialCommands.tryThisDraft, (arg?: unknown, args?: TryArgs) => tryThisDraft(deps, arg, args ?? {})),
    registerCommand(log, TrialCommands.publishThisEdit, (arg?: unknown, args?: EndArgs) => publishThisEdit(deps, arg, args ?? {})),
    registerCommand(log, TrialCommands.discardTrial, (arg?: unknown, args?: EndArgs) => discardThisTrial(deps, arg, args ?? {})),
    registerCommand(log, TrialCommands.cleanUpTrials, (args?: CleanUpArgs) => cleanUpTrials(deps, args ?? {})),
    registerCommand(log, TrialCommands.exportPolicy, (arg?: unknown) => exportPolicy(deps, arg)),
    registerCommand(log, DocumentCommands.unsavedMenu, () => unsavedMenu()),
  ];
}

/** True when the command was given (or the active editor shows) an agent version draft. */
function isVersionDraft(arg: unknown): boolean {
  const uri = arg instanceof vscode.Uri ? arg : arg === undefined ? vscode.window.activeTextEditor?.document.uri : undefined;
  return uri !== undefined && draftIds(uri) !== undefined;
}

/** The policy editor's document when it shows the policy's current version unedited (what production runs now). */
async function liveVersionEditor(deps: TrialDeps, arg: unknown): Promise<vscode.Uri | undefined> {
  const uri = arg instanceof vscode.Uri ? arg : arg === undefined ? vscode.window.activeTextEditor?.document.uri : undefined;
  const ids = uri && parsePolicyEditUri(uri);
  if (!uri || !ids || vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.isDirty !== false) return undefined;
  const policy = await deps.connection.requireClient().policies.get(ids.policyId);
  return policy.current_version_id === ids.versionId ? uri : undefined;
}

/**
 * Export Policy to Workspace: `<policy>.policy.json` in the workspace folder, the file the command line's
 * `try` and Try This Edit… read. From an open policy editor it holds the editor's text (saved or not) and
 * the version it was opened from; from the Policies view, the version chosen or the current one.
 */
async function exportPolicy(deps: TrialDeps, arg: unknown): Promise<vscode.Uri> {
  const client = deps.connection.requireClient();
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) throw new Error('Open a folder first: the policy is written as a file of the workspace.');
  const editorUri = arg instanceof vscode.Uri ? arg : arg === undefined ? vscode.window.activeTextEditor?.document.uri : undefined;
  const ids = editorUri && parsePolicyEditUri(editorUri);
  let policyId: string;
  let versionId: string | null;
  let content: unknown;
  if (editorUri && ids) {
    const text = (await vscode.workspace.openTextDocument(editorUri)).getText();
    try {
      content = JSON.parse(text);
    } catch {
      throw new Error('This policy text is not valid JSON: fix the underlined parts before exporting it.');
    }
    ({ policyId, versionId } = ids);
  } else {
    const version = arg instanceof PolicyVersionNode ? arg.version : undefined;
    const policy = arg instanceof PolicyVersionNode ? arg.policy : await policyOf(deps.policies, arg, 'Export Policy to Workspace');
    policyId = policy.id;
    versionId = version?.id ?? policy.current_version_id ?? null;
    content = version?.content ?? (versionId ? (await client.policies.getVersion(policyId, versionId)).content : {});
  }
  const policy = await client.policies.get(policyId);
  const uri = await freeFileUri(folder, slug(policy.name), '.policy.json');
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(loadCore().policyFileText(policy, versionId, content)));
  await vscode.window.showTextDocument(uri, { preview: false });
  void vscode.window.showInformationMessage(`Exported “${policy.name}” to ${vscode.workspace.asRelativePath(uri)}: Try This Edit… runs it on copies, and “agent-workbench try --policy” in CI.`);
  return uri;
}

/** The status bar's "Unsaved policy": save as a new version now, or try the edit on copies first. */
async function unsavedMenu(): Promise<void> {
  const document = vscode.window.activeTextEditor?.document;
  const isPolicy = document?.uri.scheme === Schemes.edit && parsePolicyEditUri(document.uri) !== undefined;
  const isDraft = document !== undefined && draftIds(document.uri) !== undefined;
  const items = [
    { label: '$(save) Save as New Version', description: 'the new version becomes current', command: DocumentCommands.saveAsNewVersion },
    ...(isPolicy ? [{ label: '$(beaker) Try This Edit…', description: 'run a test set on copies first; nothing changes until you publish', command: TrialCommands.tryThisEdit }] : []),
    ...(isDraft ? [{ label: '$(beaker) Try This Draft…', description: 'run a test set on a copy of the agent first; its current version stays until you publish', command: TrialCommands.tryThisDraft }] : []),
  ];
  const pick = await vscode.window.showQuickPick(items, { title: isPolicy ? 'Unsaved policy' : 'Unsaved draft' });
  if (!pick) throw new CancelledError();
  await vscode.commands.executeCommand(pick.command, document?.uri);
}
