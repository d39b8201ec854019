import * as vscode from 'vscode';
import { loadCore } from '../lazyCore';
import { CancelledError } from '../util/errors';
import type { CoveragePrompts, RuleChoice } from './coveragePrompts';
import { isPolicyDocument, type DocCoverage, type PolicyCoverage } from './policyCoverage';

/** The rule Find Cases looks for, in which policy, and (from a trial) in which test set. */
export interface RuleToFind {
  policyId: string;
  policyName: string;
  rule: { number: string; title: string; category: string; text: string };
  /** New in an edit: no output can name it yet, so only jobs like its words are looked for. */
  isNew: boolean;
  testSet?: vscode.Uri;
}

/** What a trial's question passes: the rule itself, as the version it began from names it. */
export interface TrialRuleArgs {
  policyId: string;
  policyName: string;
  rule: { number: string; title: string; category: string; text: string };
  isNew: boolean;
  testSet: string;
}

const MAX_TEXT = 1000;

/**
 * The rule a Find Cases command means: a rule of an open policy document by its number (a lens, a hover
 * link), a rule a trial's question names, or, given nothing, the user's pick among the rules of the active
 * policy editor (those no case reaches first). Arguments may come from any caller: checked, never trusted.
 */
export async function findRule(coverage: PolicyCoverage, prompts: CoveragePrompts, arg: unknown): Promise<RuleToFind> {
  const trial = trialArgs(arg);
  if (trial) return { ...trial, testSet: vscode.Uri.parse(trial.testSet, true) };
  const given = documentArgs(arg);
  const uri = given ? vscode.Uri.parse(given.document, true) : vscode.window.activeTextEditor?.document.uri;
  if (!uri || !isPolicyDocument(uri)) throw new Error('Open a policy to find cases for one of its rules: a version from the Policies view, or a *.policy.json file.');
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ?? (await vscode.workspace.openTextDocument(uri));
  const shown = await coverage.of(document);
  if (shown?.kind !== 'policy') throw new Error(shown?.sentence ?? 'This document holds no policy whose rules can be read.');
  const number = given?.number ?? (await pickRule(shown, prompts));
  const view = shown.rules.find((r) => r.spot.rule.number === number);
  if (!view) throw new Error(`This policy has no rule ${number} any more: its rules changed since the link was made.`);
  const rule = view.spot.rule;
  return { policyId: shown.policyId, policyName: shown.policyName, rule: { number, title: rule.title, category: rule.category, text: loadCore().ruleSearchText(shown.content, rule) }, isNew: false };
}

async function pickRule(shown: Extract<DocCoverage, { kind: 'policy' }>, prompts: CoveragePrompts): Promise<string> {
  if (!shown.rules.length) throw new Error('This policy has no rules (guidelines.categories[].rules) to find cases for.');
  const reached = (r: (typeof shown.rules)[number]): boolean => (r.row?.cases.length ?? 0) > 0;
  const ordered = [...shown.rules.filter((r) => !reached(r)), ...shown.rules.filter(reached)];
  const choices = ordered.map((r): RuleChoice => ({ label: `${r.spot.rule.number} ${r.spot.rule.title}`, description: r.row ? loadCore().ruleLensText(r.row) : '', number: r.spot.rule.number }));
  const number = await prompts.rule(choices, 'Find Cases for a Rule: which rule?');
  if (!number) throw new CancelledError();
  return number;
}

function documentArgs(arg: unknown): { document: string; number: string } | undefined {
  const a = record(arg);
  return a && text(a.document) && text(a.number) ? { document: a.document as string, number: a.number as string } : undefined;
}

function trialArgs(arg: unknown): Omit<RuleToFind, 'testSet'> & { testSet: string } | undefined {
  const a = record(arg);
  const rule = record(a?.rule);
  if (!a || !rule || !text(a.policyId) || !text(a.policyName) || !text(a.testSet) || typeof a.isNew !== 'boolean') return undefined;
  if (!text(rule.number) || !text(rule.title) || !text(rule.category) || typeof rule.text !== 'string') return undefined;
  const r = rule as TrialRuleArgs['rule'];
  return { policyId: a.policyId as string, policyName: a.policyName as string, testSet: a.testSet as string, isNew: a.isNew, rule: { number: r.number, title: r.title, category: r.category, text: r.text.slice(0, MAX_TEXT) } };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function text(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TEXT;
}
