import type * as vscode from 'vscode';
import { LIVE_CHECK_MAX_CHARS } from '../../core/documents/checkBudget';
import type { JsonCheck } from '../../core/documents/jsonProblems';
import type { LiveChecker } from './liveChecker';

/**
 * Keeps the problem marks of one kind of JSON document in step with its text through the one live
 * checker: checked when opened and at every change (a fix, an undo, a revert), so Problems and the tab
 * never show marks of text that is gone.
 */
export function checkWhileTyping(diagnostics: LiveChecker, matches: (uri: vscode.Uri) => boolean, check: (text: string) => JsonCheck<unknown>): vscode.Disposable {
  return diagnostics.watch({
    matches: (doc) => matches(doc.uri),
    check: (text) => {
      const result = check(text);
      return result.ok ? [] : result.problems;
    },
    maxChars: LIVE_CHECK_MAX_CHARS.json,
    delayMs: 0,
  });
}
