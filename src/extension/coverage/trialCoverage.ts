import * as vscode from 'vscode';
import type { ServiceClient } from '../../core/client';
import type { CostEstimate, EditReach, RuleEdit } from '../core';
import { confirmCost, confirmStart } from '../comparison/comparisonPrompts';
import { CoverageCommands } from '../constants';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import type { TestPrompts } from '../testing/testPrompts';
import type { EditSource } from '../trials/tryThisEdit';
import { CancelledError } from '../util/errors';
import { coveragePrompts } from './coveragePrompts';
import { readNewestComparison } from './newestComparisons';
import type { TrialRuleArgs } from './ruleToFind';

let answers: TestPrompts | undefined;

/** Lets the integration tests answer the question before an uncovered trial (the test build only reads them). */
export function answerTrialCoverageWith(prompts: TestPrompts): vscode.Disposable {
  answers = prompts;
  return new vscode.Disposable(() => {
    if (answers === prompts) answers = undefined;
  });
}

/** How long reading the version an edit began from may take before the question goes without the rules. */
const BASE_MS = 10_000;

/**
 * The rules an edit changes and how many cases of the test set reach each, read from the test set's newest
 * comparison on the version the edit began from; undefined when that cannot be worked out (the question
 * then asks as it did before, without them).
 */
export async function editReachOf(client: ServiceClient, source: EditSource, testSet: vscode.Uri, log: Log): Promise<EditReach | undefined> {
  try {
    const core = loadCore();
    const name = testSet.path.split('/').pop() ?? 'the test set';
    const base = source.baseVersionId ? (await client.policies.getVersion(source.policyId, source.baseVersionId, { signal: AbortSignal.timeout(BASE_MS) })).content : {};
    const edits = core.ruleEdits(base, source.content);
    const newest = await readNewestComparison(testSet);
    if (newest.kind === 'none') return { known: false, testSet: name, sentence: newest.sentence };
    return core.editReach(edits, core.ruleCoverage(base, newest.record, { targetId: core.baseTargetId(newest.record) }), name);
  } catch (error) {
    log.warn(`Rule coverage of the edit could not be read: ${String(error)}`);
    return undefined;
  }
}

/**
 * Asks before a trial starts. When no case reaches the rules the edit changes (the question then offers
 * a next step), the answers are to start anyway (the cost ceiling still asked about), to find cases for a
 * rule it changes instead (nothing starts), or neither.
 */
export async function confirmTrialStart(question: { message: string; detail: string; button: string; alternative?: string }, estimate: CostEstimate, o: { source: EditSource; reach?: EditReach; testSet: vscode.Uri }): Promise<boolean> {
  // A test that answers only the start question gets it, as it did before the rules were said.
  const testAnswersStart = __TEST_HOOKS__ && answers?.start !== undefined && answers.coverage?.uncoveredTrial === undefined;
  if (!question.alternative || !o.reach?.known || testAnswersStart) return confirmStart({ ...question, estimate });
  const answer = await coveragePrompts(answers).uncoveredTrial({ message: question.message, detail: question.detail, button: question.button, alternative: question.alternative });
  if (answer === 'start') return confirmCost(estimate);
  if (answer === 'alternative') await vscode.commands.executeCommand(CoverageCommands.findCases, await ruleToFindOf(o.source, o.reach, o.testSet));
  return false;
}

/** The unreached rule the edit changes to find cases for: the only one, or the user's pick. */
async function ruleToFindOf(source: EditSource, reach: EditReach, testSet: vscode.Uri): Promise<TrialRuleArgs> {
  const core = loadCore();
  const edits = core.unreachedEdits(reach);
  let edit: RuleEdit | undefined = edits[0];
  if (edits.length > 1) {
    const choices = edits.map((e) => ({ label: core.editedRuleName(e), description: e.kind, number: (e.after ?? e.before)!.number }));
    const number = await coveragePrompts(answers).rule(choices, 'Find Cases: for which rule the edit changes?');
    edit = edits.find((e) => (e.after ?? e.before)!.number === number);
  }
  if (!edit) throw new CancelledError();
  // Outputs name a rule as the version they ran on had it: the rule before the edit, unless it is new.
  const rule = edit.before ?? edit.after!;
  // The words for a search by text: the rule as edited (a removed rule's title alone).
  const text = edit.after ? core.ruleSearchText(source.content, edit.after) : rule.title;
  return { policyId: source.policyId, policyName: source.policyName, rule: { number: rule.number, title: rule.title, category: rule.category, text }, isNew: !edit.before, testSet: testSet.toString() };
}
