import * as vscode from 'vscode';
import { Disposable } from '../util/disposable';
import { isPolicyDocument, type PolicyCoverage } from './policyCoverage';

/** Pause after typing before the marks follow the text (lenses follow on their own). */
const TYPING_MS = 300;

/**
 * A mark in the gutter (and the overview ruler) on the title of each rule no case reaches, in the visible
 * editors of policy documents; the icon follows the theme's kind (light or dark).
 */
export class CoverageMarks extends Disposable {
  private readonly unreached: vscode.TextEditorDecorationType;
  /** The ranges of unreached rules last marked in each document (tests read them). */
  readonly marked = new Map<string, vscode.Range[]>();
  private timer: NodeJS.Timeout | undefined;

  constructor(extensionUri: vscode.Uri, private readonly coverage: PolicyCoverage) {
    super();
    const icon = (theme: 'light' | 'dark') => vscode.Uri.joinPath(extensionUri, 'media', 'coverage', `unreached-${theme}.svg`);
    this.unreached = this.register(vscode.window.createTextEditorDecorationType({
      light: { gutterIconPath: icon('light') },
      dark: { gutterIconPath: icon('dark') },
      gutterIconSize: '80%',
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.warningForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }));
    this.register(coverage.onDidChange(() => this.markVisible()));
    this.register(vscode.window.onDidChangeVisibleTextEditors(() => this.markVisible()));
    this.register(vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length && isPolicyDocument(e.document.uri)) this.markLater();
    }));
    this.register(new vscode.Disposable(() => clearTimeout(this.timer)));
    this.markVisible();
  }

  private markLater(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.markVisible(), TYPING_MS);
  }

  private markVisible(): void {
    for (const editor of vscode.window.visibleTextEditors) if (isPolicyDocument(editor.document.uri)) void this.mark(editor);
  }

  private async mark(editor: vscode.TextEditor): Promise<void> {
    const version = editor.document.version;
    const shown = await this.coverage.of(editor.document);
    // Typing went on meanwhile: the next mark is of newer text.
    if (editor.document.version !== version || this.isDisposed) return;
    const ranges = shown?.kind === 'policy' && shown.coverage ? shown.rules.filter((r) => r.row && r.row.cases.length === 0).map((r) => r.range) : [];
    this.marked.set(editor.document.uri.toString(), ranges);
    editor.setDecorations(this.unreached, ranges);
  }
}
