import * as vscode from 'vscode';
import type { ComparisonRecord } from '../core';
import { loadCore } from '../lazyCore';

const SAVE_MS = 500;

/** Writes a comparison record to its file: debounced after changes, at once when asked, one write at a time. */
export interface ComparisonFileSaver {
  /** Writes soon (changes come in bursts while jobs finish). */
  schedule(): void;
  /** Writes now and waits for it (before a request that writes). */
  flush(): Promise<void>;
  /** Whether this text is what we last wrote (an edit of ours, not the user's). */
  isOurs(text: string): boolean;
}

/**
 * Saves through the open text document (an edit, then Save), so an editor showing the file as text
 * stays in step and VS Code never sees the file changed behind its back. `mayWrite` throws when this
 * window may not write the file (another one holds it).
 */
export function comparisonFileSaver(document: vscode.TextDocument, record: () => ComparisonRecord, mayWrite: () => Promise<void>): ComparisonFileSaver {
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();
  let written = document.getText();
  const write = async (): Promise<void> => {
    const text = loadCore().serializeComparison(record());
    if (text === written && !document.isDirty) return;
    // One writer per file: a window that no longer holds it writes nothing (and says who does).
    await mayWrite();
    written = text;
    if (document.getText() !== text) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), text);
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The comparison could not be written to ${document.uri.fsPath}.`);
    }
    if (!(await document.save())) {
      throw new Error(`The comparison could not be saved to ${document.uri.fsPath}: VS Code refused to save it (the file changed on disk since this window read it, or it is read-only).`);
    }
  };
  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    chain = chain.catch(() => undefined).then(write);
    return chain;
  };
  return {
    schedule: () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        void flush().catch(() => undefined);
      }, SAVE_MS);
    },
    flush,
    isOurs: (text) => text === written,
  };
}
