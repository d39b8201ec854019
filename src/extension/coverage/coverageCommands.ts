import * as vscode from 'vscode';
import { registerCommand } from '../commands/commandRunner';
import type { ComparisonEditors } from '../comparison/comparisonEditors';
import { CoverageCommands } from '../constants';
import { CancelledError } from '../util/errors';
import type { RuleArgs } from './coverageLenses';
import type { RuleCoverageDeps, RuleCoverageParts } from './coverageEditor';
import { findCases } from './findCases';
import { isPolicyDocument, type PolicyCoverage } from './policyCoverage';
import { answerTrialCoverageWith } from './trialCoverage';

/**
 * The commands of rule coverage: Choose Test Set, Find Cases, Open Case, Show Cases (loaded with the
 * other commands on first use; the lenses, marks and hovers are the editor's, registered at activation in
 * coverageEditor.ts).
 */
export function registerRuleCoverageCommands(parts: RuleCoverageParts, deps: RuleCoverageDeps): vscode.Disposable[] {
  const { log, prompts } = deps;
  const { coverage } = parts;
  return [
    answerTrialCoverageWith(prompts),
    registerCommand(log, CoverageCommands.chooseTestSet, (arg?: unknown, args?: { testSet?: vscode.Uri }) => chooseTestSet(coverage, arg, args?.testSet)),
    registerCommand(log, CoverageCommands.findCases, (arg?: unknown) => findCases({ connection: deps.connection, coverage, answers: prompts }, arg)),
    registerCommand(log, CoverageCommands.openCase, (arg?: unknown) => openCase(deps.comparisons, arg)),
    registerCommand(log, CoverageCommands.showCases, (arg?: unknown) => showCases(coverage, deps.comparisons, arg)),
  ];
}

/** Choose Test Set for Rule Coverage…: of the policy of the document given (a header lens), or of the active editor. */
async function chooseTestSet(coverage: PolicyCoverage, arg: unknown, given: vscode.Uri | undefined): Promise<vscode.Uri> {
  const document = await policyDocument(arg);
  const shown = await coverage.of(document);
  if (shown?.kind !== 'policy') throw new Error(shown?.sentence ?? 'This document names no policy: a policy file needs its "policyId".');
  if (given) {
    await coverage.testSets.set(shown.policyId, given);
    return given;
  }
  return coverage.testSets.choose(shown.policyId, shown.policyName);
}

/** The policy document a command is given (a URI, or `{ document }` from a lens), else the active editor's. */
async function policyDocument(arg: unknown): Promise<vscode.TextDocument> {
  const named = (arg as { document?: unknown } | undefined)?.document;
  const uri = arg instanceof vscode.Uri ? arg : typeof named === 'string' ? vscode.Uri.parse(named, true) : vscode.window.activeTextEditor?.document.uri;
  if (!uri || !isPolicyDocument(uri)) throw new Error('Open a policy first: a version from the Policies view, or a *.policy.json file.');
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ?? vscode.workspace.openTextDocument(uri);
}

/** Opens a case of a comparison (a hover's link): `{ comparison, index, target }`, checked. */
async function openCase(comparisons: ComparisonEditors, arg: unknown): Promise<void> {
  const a = (arg ?? {}) as { comparison?: unknown; index?: unknown; target?: unknown };
  if (typeof a.comparison !== 'string' || !/\.comparison\.json$/i.test(a.comparison) || typeof a.index !== 'number' || !Number.isInteger(a.index) || a.index < 0) {
    throw new Error('Open a case from a rule’s hover in a policy editor.');
  }
  await comparisons.openCase(vscode.Uri.parse(a.comparison, true), a.index, typeof a.target === 'string' ? a.target : undefined);
}

/** The cases that reach a rule (a rule's lens): the one chosen opens in its comparison. */
async function showCases(coverage: PolicyCoverage, comparisons: ComparisonEditors, arg: unknown): Promise<void> {
  const a = arg as Partial<RuleArgs> | undefined;
  const shown = await coverage.of(await policyDocument(arg));
  const rule = shown?.kind === 'policy' ? shown.rules.find((r) => r.spot.rule.number === a?.number) : undefined;
  if (shown?.kind !== 'policy' || !shown.comparison || !shown.coverage || !rule?.row) throw new Error('This rule’s coverage is not known any more: the policy or its comparison changed.');
  const items = rule.row.cases.map((c) => ({ label: c.name, description: c.expected !== undefined ? `expects ${c.expected}` : c.labelled ? 'labelled' : 'not labelled', index: c.index }));
  const pick = await vscode.window.showQuickPick(items, { title: `${rule.spot.rule.number} ${rule.spot.rule.title}: the cases that reach it`, placeHolder: 'Open a case in its comparison' });
  if (!pick) throw new CancelledError();
  await comparisons.openCase(shown.comparison.uri, pick.index, shown.coverage.target.id);
}
