import * as vscode from 'vscode';
import { liveCheckCollectionName, overBudgetNote } from '../../core/documents/checkBudget';
import { lineStarts, positionOf } from '../../core/textPosition';

/** Problems found in a document's text, with their place as character offsets. */
export interface TextProblem {
  message: string;
  offset: number;
  length: number;
  /** Default `error`; a warning does not stop anything, information only informs. */
  severity?: 'error' | 'warning' | 'information';
}

/** What a {@link LiveChecker} checks while the user types, and how. */
export interface LiveCheck {
  /** The documents it is given; every other document is left alone. */
  matches(document: vscode.TextDocument): boolean;
  /** The problems of a text; undefined to leave the marks as they are. Must be linear in the text. */
  check(text: string, document: vscode.TextDocument, token: vscode.CancellationToken): readonly TextProblem[] | undefined | Promise<readonly TextProblem[] | undefined>;
  /** Above this many characters the document is plain text, with one note saying checks are off. */
  maxChars: number;
  /** Pause after a change before checking (an open or a save is checked at once). */
  delayMs?: number;
}

const SEVERITY = { error: vscode.DiagnosticSeverity.Error, warning: vscode.DiagnosticSeverity.Warning, information: vscode.DiagnosticSeverity.Information } as const;

/**
 * The one way documents are checked while typing: owns the problem collection `agentWorkbench.<kind>`,
 * checks only the documents its check matches, waits for a pause in typing, drops a check a newer one
 * superseded (its token is cancelled and its answer ignored), and keeps every check in budget — a
 * document larger than the check's size cap is plain text with one note, never a blocked editor.
 */
export class LiveChecker implements vscode.Disposable {
  private readonly collection: vscode.DiagnosticCollection;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly pending = new Map<string, { timer?: NodeJS.Timeout; cancel: vscode.CancellationTokenSource }>();
  private spec: LiveCheck | undefined;

  constructor(kind: string) {
    this.collection = vscode.languages.createDiagnosticCollection(liveCheckCollectionName(kind));
    this.subscriptions.push(
      vscode.workspace.onDidCloseTextDocument((doc) => {
        this.cancel(doc.uri);
        this.collection.delete(doc.uri);
      }),
    );
  }

  /** Starts checking the documents `spec` matches: those open now, and each one as it opens, changes or is saved. */
  watch(spec: LiveCheck): vscode.Disposable {
    this.spec = spec;
    const events = [
      vscode.workspace.onDidOpenTextDocument((doc) => this.recheck(doc)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length) this.recheck(e.document, spec.delayMs ?? 300);
      }),
      vscode.workspace.onDidSaveTextDocument((doc) => this.recheck(doc)),
    ];
    this.subscriptions.push(...events);
    this.recheckAll();
    return new vscode.Disposable(() => {
      for (const e of events) e.dispose();
      if (this.spec === spec) this.spec = undefined;
    });
  }

  /** Checks every open document it is given again (what they depend on changed). */
  recheckAll(): void {
    for (const doc of vscode.workspace.textDocuments) this.recheck(doc);
  }

  /** Checks a document after `delayMs`, superseding any check of it still waiting or running. */
  recheck(document: vscode.TextDocument, delayMs = 0): void {
    const spec = this.spec;
    if (!spec || !spec.matches(document)) return;
    this.cancel(document.uri);
    const cancel = new vscode.CancellationTokenSource();
    const entry: { timer?: NodeJS.Timeout; cancel: vscode.CancellationTokenSource } = { cancel };
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      void this.run(spec, document, cancel.token).catch(() => undefined);
    }, delayMs);
    this.pending.set(document.uri.toString(), entry);
  }

  /** Whether a document is above its check's size cap (plain text: no checks, completion or hover). */
  overBudget(document: vscode.TextDocument): boolean {
    return !!this.spec && document.getText().length > this.spec.maxChars;
  }

  /** Shows problems of a text (from the check, or from the service after a refused save or run). */
  set(uri: vscode.Uri, text: string, problems: readonly TextProblem[]): void {
    const starts = lineStarts(text);
    const position = (offset: number): vscode.Position => {
      const p = positionOf(text, offset, starts);
      return new vscode.Position(p.line - 1, p.column - 1);
    };
    this.collection.set(
      uri,
      problems.map((p) => {
        const d = new vscode.Diagnostic(new vscode.Range(position(p.offset), position(p.offset + p.length)), p.message, SEVERITY[p.severity ?? 'error']);
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
    for (const key of [...this.pending.keys()]) this.cancel(vscode.Uri.parse(key));
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
  }

  private async run(spec: LiveCheck, document: vscode.TextDocument, token: vscode.CancellationToken): Promise<void> {
    if (document.isClosed || token.isCancellationRequested) return;
    const text = document.getText();
    const version = document.version;
    const note = overBudgetNote(text.length, spec.maxChars);
    if (note) {
      this.set(document.uri, text, [{ message: note, offset: 0, length: 0, severity: 'information' }]);
      return;
    }
    const problems = await spec.check(text, document, token);
    // A newer check, an edit or a close came in meanwhile: this answer is about text that is gone.
    if (token.isCancellationRequested || document.isClosed || document.version !== version || problems === undefined) return;
    if (problems.length) this.set(document.uri, text, problems);
    else this.clear(document.uri);
  }

  private cancel(uri: vscode.Uri): void {
    const key = uri.toString();
    const entry = this.pending.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.cancel.cancel();
    entry.cancel.dispose();
    this.pending.delete(key);
  }
}
