import * as vscode from 'vscode';
import { DocumentCommands, Schemes } from '../constants';
import { Disposable } from '../util/disposable';

/**
 * Says in the status bar that the active policy or draft has edits not yet saved to the service (auto
 * save never saves them); clicked, it offers to save them as a new version or to try the edit first.
 */
export class UnsavedStatus extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem('agentWorkbench.unsavedDocument', vscode.StatusBarAlignment.Left, 50));

  constructor() {
    super();
    this.item.name = 'Agent Workbench: Unsaved Document';
    this.item.command = DocumentCommands.unsavedMenu;
    this.register(vscode.window.onDidChangeActiveTextEditor(() => this.update()));
    this.register(vscode.workspace.onDidChangeTextDocument((e) => e.document === vscode.window.activeTextEditor?.document && this.update()));
    this.register(vscode.workspace.onDidSaveTextDocument(() => this.update()));
    this.update();
  }

  private update(): void {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || doc.uri.scheme !== Schemes.edit || !doc.isDirty) {
      this.item.hide();
      return;
    }
    const what = doc.uri.path.startsWith('/drafts/') ? 'draft' : 'policy';
    this.item.text = `$(circle-filled) Unsaved ${what}`;
    const agentDraft = doc.uri.path.startsWith('/drafts/agents/');
    const tryFirst = what === 'policy' ? ' Click to save, or to try the edit on copies first.' : agentDraft ? ' Click to save, or to try the draft on a copy of the agent first.' : '';
    this.item.tooltip = `Not saved to the service. Save (Ctrl+S) creates a new version; auto save never does.${tryFirst}`;
    this.item.show();
  }
}
