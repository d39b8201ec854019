import * as vscode from 'vscode';
import type { JsonCheck } from '../../core/documents/jsonProblems';
import type { DocumentDiagnostics } from './diagnostics';

/**
 * Keeps the problem marks of one kind of document in step with its text: checked when opened and at
 * every change (a fix, an undo, a revert), so Problems and the tab never show marks of text that is gone.
 */
export function checkWhileTyping(diagnostics: DocumentDiagnostics, matches: (uri: vscode.Uri) => boolean, check: (text: string) => JsonCheck<unknown>): vscode.Disposable {
  const update = (doc: vscode.TextDocument): void => {
    if (!matches(doc.uri)) return;
    const text = doc.getText();
    const result = check(text);
    if (result.ok) diagnostics.clear(doc.uri);
    else diagnostics.set(doc.uri, text, result.problems);
  };
  for (const doc of vscode.workspace.textDocuments) update(doc);
  return vscode.Disposable.from(
    vscode.workspace.onDidOpenTextDocument(update),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length) update(e.document);
    }),
  );
}
