import * as vscode from 'vscode';
import { loadCore } from '../lazyCore';
import { Disposable } from '../util/disposable';

/**
 * Follows the test set of an open comparison, so its labels are the ones shown: the open document's
 * text as it is edited (unsaved edits included), else the file whenever it changes on disk (another
 * window labelling, a checkout). Only a test set inside the workspace is read.
 */
export class TestSetFollower extends Disposable {
  private readonly file: vscode.Uri | undefined;

  constructor(comparison: vscode.Uri, testSet: string, private readonly take: (text: string) => void) {
    super();
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const found = loadCore().testSetFileOf(comparison.fsPath, testSet, folders);
    this.file = found.ok ? vscode.Uri.file(found.path) : undefined;
    const file = this.file;
    if (!file) return;
    this.register(vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.uri.toString() === file.toString()) take(e.document.getText());
    }));
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(file, '..'), file.path.split('/').pop()!));
    this.register(watcher);
    this.register(watcher.onDidChange(() => void this.readNow()));
    this.register(watcher.onDidCreate(() => void this.readNow()));
    void this.readNow();
  }

  /** Reads the test set now: the open document's text, else the file's (a missing file changes nothing). */
  async readNow(): Promise<void> {
    if (!this.file) return;
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === this.file!.toString());
    if (open) return this.take(open.getText());
    const bytes = await vscode.workspace.fs.readFile(this.file).then((b) => b, () => undefined);
    if (bytes && !this.isDisposed) this.take(new TextDecoder().decode(bytes));
  }
}
