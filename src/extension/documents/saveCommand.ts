import * as vscode from 'vscode';
import { registerCommand } from '../commands/commandRunner';
import { DocumentCommands, Schemes } from '../constants';
import type { Log } from '../log';
import type { EditableFileSystem } from './editableFileSystem';
import type { SaveOutcome } from './newVersionSave';

const SAVE_AGAIN = 'Save Again';
const SHOW_LOG = 'Show Log';

/**
 * Save as New Version (Ctrl+S in our documents): the new-version flow runs before VS Code's own save,
 * so a cancelled question says nothing, and a failure is one sentence naming the document, with the
 * actions that apply — not VS Code's "Unable to write file" with Save As and Revert.
 */
export function registerSaveCommand(fs: EditableFileSystem, log: Log): vscode.Disposable {
  const save = async (uri?: vscode.Uri): Promise<SaveOutcome | undefined> => {
    const document = uri ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) : vscode.window.activeTextEditor?.document;
    if (!document || document.uri.scheme !== Schemes.edit) {
      await vscode.commands.executeCommand('workbench.action.files.save');
      return undefined;
    }
    if (!document.isDirty) return undefined;
    const outcome = await fs.saveExplicitly(document);
    report(outcome, document.uri);
    return outcome;
  };

  const report = (outcome: SaveOutcome, uri: vscode.Uri): void => {
    if (outcome.kind === 'cancelled') return;
    if (outcome.kind === 'saved' || outcome.kind === 'unchanged') {
      if (outcome.message) void vscode.window.showInformationMessage(outcome.message);
      return;
    }
    if (outcome.comparing) {
      void vscode.window.showInformationMessage(outcome.message);
      return;
    }
    log.warn(outcome.message);
    const actions = outcome.unknown ? [SHOW_LOG] : [SAVE_AGAIN, SHOW_LOG];
    void vscode.window.showErrorMessage(log.redact(outcome.message), ...actions).then((choice) => {
      if (choice === SAVE_AGAIN) void vscode.commands.executeCommand(DocumentCommands.saveAsNewVersion, uri);
      if (choice === SHOW_LOG) log.show();
    });
  };

  return registerCommand(log, DocumentCommands.saveAsNewVersion, save);
}
