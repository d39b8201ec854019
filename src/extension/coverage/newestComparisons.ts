import * as vscode from 'vscode';
import type { ComparisonRecord } from '../core';
import { loadCore } from '../lazyCore';
import { Disposable } from '../util/disposable';

/** A test set's newest comparison, none yet, or why it could not be read. */
export type NewestComparison = { kind: 'found'; uri: vscode.Uri; record: ComparisonRecord } | { kind: 'none'; sentence: string };

/** How long after the last change of a comparison file (a running comparison writes often) the editors read it again. */
const SETTLE_MS = 1000;

/**
 * The newest comparison of each test set, read the one way the core reads it (beside the test set, named
 * after it by its record, created last) and kept until a comparison file of its folder changes: then the
 * editors that show coverage are told, once the file has settled.
 */
export class NewestComparisons extends Disposable {
  private readonly read = new Map<string, Promise<NewestComparison>>();
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  /** A comparison file was created, changed or deleted (after it settled). */
  readonly onDidChange = this.changed.event;
  private timer: NodeJS.Timeout | undefined;

  constructor() {
    super();
    const watcher = this.register(vscode.workspace.createFileSystemWatcher('**/*.comparison.json'));
    for (const event of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete]) this.register(event((uri) => this.forgetFolderOf(uri)));
    this.register(new vscode.Disposable(() => clearTimeout(this.timer)));
  }

  /** The newest comparison of a test set (read once, then kept until its folder's comparisons change). */
  newest(testSet: vscode.Uri): Promise<NewestComparison> {
    const key = testSet.toString();
    let found = this.read.get(key);
    if (!found) {
      found = readNewestComparison(testSet);
      this.read.set(key, found);
    }
    return found;
  }

  /** Forgets every test set of the folder of a comparison file, and says so once changes stop. */
  private forgetFolderOf(comparison: vscode.Uri): void {
    const folder = vscode.Uri.joinPath(comparison, '..').toString();
    for (const key of [...this.read.keys()]) if (vscode.Uri.joinPath(vscode.Uri.parse(key), '..').toString() === folder) this.read.delete(key);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.changed.fire(), SETTLE_MS);
  }
}

/** Reads a test set's newest comparison now (the core's one way: beside it, named after it by its record, created last). */
export async function readNewestComparison(testSet: vscode.Uri): Promise<NewestComparison> {
  const name = testSet.path.split('/').pop() ?? 'the test set';
  const root = vscode.workspace.getWorkspaceFolder(testSet);
  if (!root || testSet.scheme !== 'file') return { kind: 'none', sentence: `${name} is not in a folder of the workspace, so its comparisons are not read.` };
  try {
    const found = await loadCore().findNewestComparison(root.uri.fsPath, testSet.fsPath);
    if (found.newest) return { kind: 'found', uri: vscode.Uri.file(found.newest.file), record: found.newest.record };
    return { kind: 'none', sentence: `${name} has no comparison yet, so which rules its cases reach is not known.` };
  } catch (error) {
    return { kind: 'none', sentence: error instanceof Error ? error.message : String(error) };
  }
}
