import * as vscode from 'vscode';
import { LIVE_CHECK_MAX_CHARS } from '../../core/documents/checkBudget';
import type { ComparisonRecord, KnownCoverage, RuleCoverageRow, RuleSpot } from '../core';
import { parsePolicyEditUri, parseViewUri } from '../documents/documentUris';
import { loadCore } from '../lazyCore';
import { Disposable } from '../util/disposable';
import type { NewestComparisons } from './newestComparisons';
import type { PolicyTestSets } from './policyTestSets';

/** A rule of the document: where its title is, and its coverage when it is known. */
export interface RuleView {
  spot: RuleSpot;
  range: vscode.Range;
  row?: RuleCoverageRow;
}

/** What the editor shows of a policy document's rule coverage. */
export type DocCoverage =
  /** Too large to read while typing: one sentence, no rules. */
  | { kind: 'off'; sentence: string }
  | {
      kind: 'policy';
      policyId: string;
      policyName: string;
      /** The policy's content as the text holds it now (what a rule's words are read from). */
      content: unknown;
      rules: RuleView[];
      testSet?: vscode.Uri;
      comparison?: { uri: vscode.Uri; record: ComparisonRecord };
      coverage?: KnownCoverage;
      /** Why no coverage is shown although a test set is chosen (no comparison, outputs that say nothing of rules). */
      sentence?: string;
    };

/** The documents that hold a policy version: an editable or read-only version of the service, or a `*.policy.json`. */
export function isPolicyDocument(uri: vscode.Uri): boolean {
  return policyIdOfUri(uri) !== undefined || isPolicyFile(uri);
}

function isPolicyFile(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' && /\.policy\.json$/i.test(uri.path);
}

function policyIdOfUri(uri: vscode.Uri): string | undefined {
  const view = parseViewUri(uri);
  return parsePolicyEditUri(uri)?.policyId ?? (view?.kind === 'policyVersion' ? view.policyId : undefined);
}

/** "Customer Call Quality Standard" from a tab title "Customer Call Quality Standard · version 3.json". */
function nameFromTitle(uri: vscode.Uri): string {
  return (uri.path.split('/').pop() ?? '').replace(/\.json$/i, '').split(' · ')[0] || 'this policy';
}

/**
 * The rule coverage of open policy documents: their rules (read from the text, so lenses and marks follow
 * typing), the test set chosen for their policy and its newest comparison. Worked out once per version of
 * a document and kept until a comparison or a choice of test set changes; a document larger than the
 * checkers' size cap is not read while typing.
 */
export class PolicyCoverage extends Disposable {
  private readonly known = new Map<string, { version: number; generation: number; coverage: Promise<DocCoverage | undefined> }>();
  private generation = 0;
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  /** What the editors show may have changed (a comparison, a choice of test set). */
  readonly onDidChange = this.changed.event;

  constructor(
    readonly testSets: PolicyTestSets,
    private readonly comparisons: NewestComparisons,
  ) {
    super();
    const again = (): void => {
      this.generation++;
      this.changed.fire();
    };
    this.register(comparisons.onDidChange(again));
    this.register(testSets.onDidChange(again));
    this.register(vscode.workspace.onDidCloseTextDocument((doc) => this.known.delete(doc.uri.toString())));
  }

  /** The coverage shown in a document, or undefined for a document that holds no policy. */
  of(document: vscode.TextDocument): Promise<DocCoverage | undefined> {
    if (!isPolicyDocument(document.uri)) return Promise.resolve(undefined);
    const key = document.uri.toString();
    const kept = this.known.get(key);
    if (kept && kept.version === document.version && kept.generation === this.generation) return kept.coverage;
    const coverage = this.read(document).catch(() => undefined);
    this.known.set(key, { version: document.version, generation: this.generation, coverage });
    return coverage;
  }

  private async read(document: vscode.TextDocument): Promise<DocCoverage | undefined> {
    const text = document.getText();
    const max = LIVE_CHECK_MAX_CHARS.json;
    if (text.length > max) return { kind: 'off', sentence: `Rule coverage is off while you type: this document has more than ${max.toLocaleString('en-US')} characters.` };
    const core = loadCore();
    const file = isPolicyFile(document.uri);
    const read = core.policyText(text, { file });
    const policyId = file ? read.file?.policyId : policyIdOfUri(document.uri);
    if (!policyId) return undefined;
    const rules: RuleView[] = read.spots.map((spot) => ({ spot, range: new vscode.Range(document.positionAt(spot.offset), document.positionAt(spot.offset + spot.length)) }));
    const shown: Extract<DocCoverage, { kind: 'policy' }> = { kind: 'policy', policyId, policyName: read.file?.name ?? nameFromTitle(document.uri), content: read.content, rules };
    const testSet = this.testSets.get(policyId);
    if (!testSet) return shown;
    shown.testSet = testSet;
    const newest = await this.comparisons.newest(testSet);
    if (newest.kind === 'none') return { ...shown, sentence: newest.sentence };
    shown.comparison = { uri: newest.uri, record: newest.record };
    let coverage;
    try {
      coverage = core.ruleCoverage(read.content, newest.record);
    } catch (error) {
      return { ...shown, sentence: error instanceof Error ? error.message : String(error) };
    }
    if (!coverage.known) return { ...shown, sentence: coverage.sentence };
    // The rows come in the order of the rules read, which is the order of the spots.
    rules.forEach((rule, i) => (rule.row = coverage.rules[i]));
    return { ...shown, coverage };
  }
}
