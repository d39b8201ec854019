import * as vscode from 'vscode';

/**
 * Why each document is being saved. Saving one of our documents creates a version in the service, so
 * only an explicit save (Ctrl+S, Save, an API call) may do that — never auto save after a delay or on
 * focus change.
 */
export class SaveReasons implements vscode.Disposable {
  private readonly reasons = new Map<string, vscode.TextDocumentSaveReason>();
  private readonly subscription = vscode.workspace.onWillSaveTextDocument((e) => this.reasons.set(e.document.uri.toString(), e.reason));

  /** True when the save of this document now under way was asked for explicitly (or its reason is unknown). */
  isExplicit(uri: vscode.Uri): boolean {
    const reason = this.reasons.get(uri.toString());
    this.reasons.delete(uri.toString());
    return reason === undefined || reason === vscode.TextDocumentSaveReason.Manual;
  }

  dispose(): void {
    this.subscription.dispose();
    this.reasons.clear();
  }
}

/** The message of a refused auto save. */
export const AUTO_SAVE_REFUSED = 'Not saved automatically: saving creates a new version in the service, so it happens only when you save explicitly (Ctrl+S).';
