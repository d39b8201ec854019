import * as vscode from 'vscode';
import { LIVE_CHECK_MAX_CHARS } from '../../core/documents/checkBudget';
import { lineStarts } from '../../core/textPosition';
import { LiveChecker, type TextProblem } from '../documents/liveChecker';
import { loadCore } from '../lazyCore';
import type { Connection } from '../connection/connection';
import type { ResolvedTarget, RunTargets } from '../runs/runTargets';
import { Disposable } from '../util/disposable';

/** How long the dispositions of an agent version's policy are kept before they are read again. */
const DISPOSITIONS_KEPT_MS = 60_000;
/** How long reading them may take; a check without them underlines nothing about expected values. */
const DISPOSITIONS_READ_MS = 5_000;

const isTestSet = (doc: vscode.TextDocument): boolean => /\.testset\.(jsonl|csv)$/i.test(doc.uri.path);
const SELECTOR: vscode.DocumentSelector = [{ pattern: '**/*.testset.jsonl' }, { pattern: '**/*.testset.csv' }];

/**
 * Squiggles and completion in test set files, from the agent a test set names in its header line
 * (`// agent: <id>`): its input definitions, read through the same cache as run files, and the
 * dispositions of the policy it applies, which the cases' expected values are checked against.
 */
export class TestSetEditing extends Disposable implements vscode.CompletionItemProvider {
  private readonly diagnostics = this.register(new LiveChecker('testSets'));
  private readonly dispositions = new Map<string, { until: number; names: Promise<string[] | undefined> }>();

  constructor(
    private readonly targets: RunTargets,
    private readonly connection: Connection,
  ) {
    super();
    this.register(vscode.languages.registerCompletionItemProvider(SELECTOR, this, '"'));
    this.register(this.diagnostics.watch({ matches: isTestSet, check: (text, doc) => this.check(doc, text), maxChars: LIVE_CHECK_MAX_CHARS.testSets }));
    this.register(connection.onDidChange(() => this.dispositions.clear()));
  }

  private async target(text: string): Promise<ResolvedTarget | undefined> {
    const agentId = loadCore().testSetAgentId(text);
    if (!agentId) return undefined;
    try {
      return await this.targets.resolve(agentId, undefined);
    } catch {
      return undefined;
    }
  }

  private async inputKeys(text: string): Promise<string[] | undefined> {
    return (await this.target(text))?.definitions.map((d) => d.key);
  }

  /** The dispositions of the policy a version applies, kept a minute; undefined when they cannot be read in time. */
  private dispositionsOf(target: ResolvedTarget): Promise<string[] | undefined> {
    const key = `${target.agent.id}/${target.version.id}`;
    const kept = this.dispositions.get(key);
    if (kept && kept.until > Date.now()) return kept.names;
    let client;
    try {
      client = this.connection.requireClient();
    } catch {
      return Promise.resolve(undefined);
    }
    const names = loadCore().versionDispositions(client, target.version, AbortSignal.timeout(DISPOSITIONS_READ_MS));
    this.dispositions.set(key, { until: Date.now() + DISPOSITIONS_KEPT_MS, names });
    // A failed read is not kept: the next check tries again.
    void names.then((value) => value === undefined && this.dispositions.get(key)?.names === names && this.dispositions.delete(key));
    return names;
  }

  private async check(doc: vscode.TextDocument, text: string): Promise<TextProblem[]> {
    const target = await this.target(text);
    const dispositions = target ? await this.dispositionsOf(target) : undefined;
    const problems = loadCore().checkTestSet(doc.uri.path, text, target?.definitions.map((d) => d.key), dispositions);
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
