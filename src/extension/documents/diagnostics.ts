import * as vscode from 'vscode';
import { lineStarts, positionOf } from '../../core/textPosition';

/** Problems found in a document's text, with their place as character offsets. */
export interface TextProblem {
  message: string;
  offset: number;
  length: number;
  /** Default `error`; a warning does not stop anything. */
  severity?: 'error' | 'warning';
}

/** Shows problems of our documents as errors in the editor (underlined, listed in Problems). */
export class DocumentDiagnostics implements vscode.Disposable {
  private readonly collection: vscode.DiagnosticCollection;
  private readonly closing: vscode.Disposable;

  constructor(name: string) {
    this.collection = vscode.languages.createDiagnosticCollection(name);
    this.closing = vscode.workspace.onDidCloseTextDocument((doc) => this.collection.delete(doc.uri));
  }

  set(uri: vscode.Uri, text: string, problems: TextProblem[]): void {
    const starts = lineStarts(text);
    const position = (offset: number): vscode.Position => {
      const p = positionOf(text, offset, starts);
      return new vscode.Position(p.line - 1, p.column - 1);
    };
    this.collection.set(
      uri,
      problems.map((p) => {
        const d = new vscode.Diagnostic(new vscode.Range(position(p.offset), position(p.offset + p.length)), p.message, p.severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error);
        d.source = 'Agent Workbench';
        return d;
      }),
    );
  }

  clear(uri: vscode.Uri): void {
    this.collection.delete(uri);
  }

  get(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  dispose(): void {
    this.closing.dispose();
    this.collection.dispose();
  }
}

/** "2 problems: a: …; b: …." */
export function problemsSummary(problems: { message: string }[]): string {
  const shown = problems.slice(0, 3).map((p) => p.message).join('; ');
  const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
  return `${problems.length} problem${problems.length === 1 ? '' : 's'}: ${shown}${more}.`;
}
