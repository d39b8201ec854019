import * as vscode from 'vscode';
import { ComparisonCommands, CoverageCommands, Schemes } from '../constants';
import { loadCore } from '../lazyCore';
import { Disposable } from '../util/disposable';
import type { DocCoverage, PolicyCoverage, RuleView } from './policyCoverage';

/** Where lenses and hovers are offered: policy versions of the service (editable or not) and policy files. */
// Documents of our schemes are told apart by their path in PolicyCoverage (drafts share the scheme).
export const POLICY_SELECTOR: vscode.DocumentSelector = [{ scheme: Schemes.edit }, { scheme: Schemes.view }, { scheme: 'file', pattern: '**/*.policy.json' }];

/** The most cases a rule's hover lists. */
const HOVER_CASES = 20;

/** The arguments of Find Cases and Show Cases from a document: the document and the rule's number. */
export interface RuleArgs {
  document: string;
  number: string;
}

/**
 * Rule coverage in the policy editor: the totals and the test set on the first line, each rule's cases (or
 * that none reaches it) above its title, and on a rule's title a hover listing the cases that reach it,
 * each a link that opens the case in its comparison.
 */
export class CoverageLenses extends Disposable implements vscode.CodeLensProvider, vscode.HoverProvider {
  readonly onDidChangeCodeLenses: vscode.Event<void>;

  constructor(private readonly coverage: PolicyCoverage) {
    super();
    this.onDidChangeCodeLenses = coverage.onDidChange;
    this.register(vscode.languages.registerCodeLensProvider(POLICY_SELECTOR, this));
    this.register(vscode.languages.registerHoverProvider(POLICY_SELECTOR, this));
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const shown = await this.coverage.of(document);
    if (!shown) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    if (shown.kind === 'off') return [lens(top, `$(checklist) ${shown.sentence}`)];
    const lenses = headerLenses(shown, document.uri).map(([title, command, args, tooltip]) => lens(top, title, command, args, tooltip));
    if (!shown.coverage) return lenses;
    for (const rule of shown.rules) {
      if (!rule.row) continue;
      const args: RuleArgs = { document: document.uri.toString(), number: rule.spot.rule.number };
      const reached = rule.row.cases.length > 0;
      const tooltip = reached ? 'The cases of the test set that reach this rule: open one in its comparison' : 'Find past jobs that reach this rule and add them to the test set as cases';
      lenses.push(lens(rule.range, loadCore().ruleLensText(rule.row), reached ? CoverageCommands.showCases : CoverageCommands.findCases, [args], tooltip));
    }
    return lenses;
  }

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const shown = await this.coverage.of(document);
    if (shown?.kind !== 'policy' || !shown.coverage || !shown.comparison || !shown.testSet) return undefined;
    const rule = shown.rules.find((r) => r.range.start.line === position.line);
    if (!rule?.row) return undefined;
    return new vscode.Hover(hoverText(rule, document.uri, { testSet: name(shown.testSet), comparison: shown.comparison.uri, target: shown.coverage.target }), rule.range);
  }
}

type LensSpec = [title: string, command?: string, args?: unknown[], tooltip?: string];

/** The lenses of the first line: the totals (or why there are none) and the test set, changeable. */
function headerLenses(shown: Extract<DocCoverage, { kind: 'policy' }>, uri: vscode.Uri): LensSpec[] {
  const choose: LensSpec = ['change test set', CoverageCommands.chooseTestSet, [{ document: uri.toString() }], 'Choose the test set whose coverage this policy shows'];
  if (!shown.testSet) return [['$(checklist) Rule coverage: choose a test set…', CoverageCommands.chooseTestSet, [{ document: uri.toString() }], 'Which rules of this policy the cases of a test set reach']];
  if (!shown.comparison) return [[`$(checklist) ${shown.sentence ?? ''}`], ['Run Comparison…', ComparisonCommands.runComparison, [shown.testSet], `Run ${name(shown.testSet)}: its comparison says which rules its cases reach`], choose];
  if (!shown.coverage) return [[`$(checklist) Rule coverage not known: ${shown.sentence ?? ''}`, ComparisonCommands.openComparison, [shown.comparison.uri]], choose];
  const totals = `$(checklist) ${loadCore().coverageTotals(shown.coverage)} by ${name(shown.testSet)}`;
  const tooltip = `Read from ${vscode.workspace.asRelativePath(shown.comparison.uri)}, the outputs of “${shown.coverage.target.label}”: open the comparison`;
  return [[totals, ComparisonCommands.openComparison, [shown.comparison.uri], tooltip], choose];
}

function lens(range: vscode.Range, title: string, command = '', args?: unknown[], tooltip?: string): vscode.CodeLens {
  return new vscode.CodeLens(range, { title, command, arguments: args, tooltip });
}

function name(uri: vscode.Uri): string {
  return uri.path.split('/').pop() ?? '';
}

/** A rule's hover: who reaches it (each case a link into its comparison), or that nobody does and the way to find cases. */
function hoverText(rule: RuleView, document: vscode.Uri, o: { testSet: string; comparison: vscode.Uri; target: { id: string; label: string } }): vscode.MarkdownString {
  const row = rule.row!;
  const core = loadCore();
  const text = new vscode.MarkdownString('', true);
  text.isTrusted = { enabledCommands: [CoverageCommands.openCase, CoverageCommands.findCases] };
  text.appendMarkdown(`**${escape(`${rule.spot.rule.number} ${rule.spot.rule.title}`)}**\n\n`);
  if (row.cases.length === 0) {
    const args: RuleArgs = { document: document.toString(), number: rule.spot.rule.number };
    text.appendMarkdown(`No case of ${escape(o.testSet)} reaches this rule: a trial of an edit to it cannot show its effect.\n\n`);
    text.appendMarkdown(`[$(search) Find Cases for This Rule…](${commandLink(CoverageCommands.findCases, args)})`);
    return text;
  }
  const labelled = core.labelledText(row);
  text.appendMarkdown(`Reached by ${row.cases.length} case${row.cases.length === 1 ? '' : 's'} of ${escape(o.testSet)}${labelled === '—' ? ', none labelled' : `; labelled: ${escape(labelled)}`}.\n\n`);
  for (const c of row.cases.slice(0, HOVER_CASES)) {
    const link = commandLink(CoverageCommands.openCase, { comparison: o.comparison.toString(), index: c.index, target: o.target.id });
    text.appendMarkdown(`- [${escape(c.name)}](${link}) — ${c.expected !== undefined ? `expects ${escape(c.expected)}` : c.labelled ? 'labelled' : 'not labelled'}\n`);
  }
  if (row.cases.length > HOVER_CASES) text.appendMarkdown(`- and ${row.cases.length - HOVER_CASES} more\n`);
  text.appendMarkdown(`\n_Read from ${escape(vscode.workspace.asRelativePath(o.comparison))}, the outputs of “${escape(o.target.label)}”._`);
  return text;
}

function commandLink(command: string, args: unknown): string {
  return `command:${command}?${encodeURIComponent(JSON.stringify([args]))}`;
}

/** Text shown as it is in Markdown, inside a line (names and outcomes come from files). */
function escape(text: string): string {
  return text.replace(/[\\`*_[\]()#|<>~$]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}
