import * as vscode from 'vscode';
import { DocumentDiagnostics } from '../documents/diagnostics';
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
  private readonly diagnostics = this.register(new DocumentDiagnostics('agentWorkbench.testSets'));
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly targets: RunTargets) {
    super();
    this.register(vscode.workspace.onDidOpenTextDocument((doc) => this.schedule(doc)));
    this.register(vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)));
    this.register(vscode.languages.registerCompletionItemProvider(SELECTOR, this, '"'));
    this.register({ dispose: () => this.timers.forEach((t) => clearTimeout(t)) });
    for (const doc of vscode.workspace.textDocuments) this.schedule(doc);
  }

  private schedule(doc: vscode.TextDocument): void {
    if (!isTestSet(doc)) return;
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => void this.check(doc), 300));
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

  private async check(doc: vscode.TextDocument): Promise<void> {
    const text = doc.getText();
    const problems = loadCore().checkTestSet(doc.uri.path, text, await this.inputKeys(text));
    if (doc.isClosed || doc.getText() !== text) return;
    const lines = text.split('\n');
    let offset = 0;
    const starts = lines.map((l) => {
      const start = offset;
      offset += l.length + 1;
      return start;
    });
    this.diagnostics.set(
      doc.uri,
      text,
      problems.map((p) => {
        const lineText = lines[p.line - 1] ?? '';
        const at = p.term ? Math.max(0, lineText.indexOf(p.term)) : 0;
        return { message: `Line ${p.line}: ${p.message}`, offset: (starts[p.line - 1] ?? 0) + at, length: p.term && lineText.includes(p.term) ? p.term.length : lineText.length, severity: p.severity };
      }),
    );
  }

  /** Input keys of the agent inside `"inputs": {…}` of a JSONL case. */
  async provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[]> {
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
