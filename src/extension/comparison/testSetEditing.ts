import * as vscode from 'vscode';
import { LIVE_CHECK_MAX_CHARS } from '../../core/documents/checkBudget';
import { lineStarts } from '../../core/textPosition';
import { LiveChecker, type TextProblem } from '../documents/liveChecker';
import { loadCore } from '../lazyCore';
import type { RunTargets } from '../runs/runTargets';
import { Disposable } from '../util/disposable';

const isTestSet = (doc: vscode.TextDocument): boolean => /\.testset\.(jsonl|csv)$/i.test(doc.uri.path);
const SELECTOR: vscode.DocumentSelector = [{ pattern: '**/*.testset.jsonl' }, { pattern: '**/*.testset.csv' }];

/**
 * Squiggles and completion in test set files, from the input definitions of the agent a test set names
 * in its header line (`// agent: <id>`), read through the same cache as run files.
 */
export class TestSetEditing extends Disposable implements vscode.CompletionItemProvider {
  private readonly diagnostics = this.register(new LiveChecker('testSets'));

  constructor(private readonly targets: RunTargets) {
    super();
    this.register(vscode.languages.registerCompletionItemProvider(SELECTOR, this, '"'));
    this.register(this.diagnostics.watch({ matches: isTestSet, check: (text, doc) => this.check(doc, text), maxChars: LIVE_CHECK_MAX_CHARS.testSets }));
  }

  private async inputKeys(text: string): Promise<string[] | undefined> {
    const agentId = loadCore().testSetAgentId(text);
    if (!agentId) return undefined;
    try {
      return (await this.targets.resolve(agentId, undefined)).definitions.map((d) => d.key);
    } catch {
      return undefined;
    }
  }

  private async check(doc: vscode.TextDocument, text: string): Promise<TextProblem[]> {
    const problems = loadCore().checkTestSet(doc.uri.path, text, await this.inputKeys(text));
    const starts = lineStarts(text);
    return problems.map((p) => {
      const start = starts[p.line - 1] ?? 0;
      const end = (starts[p.line] ?? text.length + 1) - 1;
      const lineText = text.slice(start, end).replace(/\r$/, '');
      const at = p.term ? lineText.indexOf(p.term) : -1;
      return { message: `Line ${p.line}: ${p.message}`, offset: start + Math.max(0, at), length: at >= 0 && p.term ? p.term.length : lineText.length, severity: p.severity };
    });
  }

  /** Input keys of the agent inside `"inputs": {…}` of a JSONL case. */
  async provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[]> {
    if (this.diagnostics.overBudget(doc)) return [];
    const before = doc.lineAt(position.line).text.slice(0, position.character);
    if (!/"inputs"\s*:\s*\{[^}]*$/.test(before)) return [];
    const keys = await this.inputKeys(doc.getText());
    return (keys ?? []).map((key) => {
      const item = new vscode.CompletionItem(key, vscode.CompletionItemKind.Property);
      item.detail = 'input of the agent';
      return item;
    });
  }
}
