/**
 * Rule coverage: which rules of a policy version a test set exercises, read from a comparison of it —
 * per rule, the cases whose outputs say it matched (the one reading of matched rules, ruleChanges.ts),
 * how many of them are labelled and with which expected outcome, and the rules no case reaches. Pure:
 * plain data in, plain data out, so the command line, the tool and the editor share it.
 *
 * A rule is found by its title, and by its category too when the output gives one (the sandbox's
 * engine does), so two rules of one title in two categories stay apart. Policies give rules no id: a
 * rule renamed since the jobs ran is not reached under its new title, and the old title is listed with
 * the names this version does not have, never guessed onto a rule.
 */
import { runOf, type ComparisonCase, type ComparisonRecord, type ComparisonTarget } from '../comparison/comparisonRecord';
import { matchedRuleList, type MatchedRule } from '../comparison/ruleChanges';
import { caseLabel } from '../comparison/testSet';
import { TRIAL_TARGET_ID } from '../trial/trialComparison';
import { policyRuleList, type PolicyRuleRef } from './policyRuleList';

/** A case of the comparison, as coverage names it. */
export interface CoverageCase {
  /** Its index in the comparison's cases (and the test set's order). */
  index: number;
  /** Its name, or "line N". */
  name: string;
  /** Whether it has an expected outcome (a label). */
  labelled: boolean;
  /** The outcome it expects (`expected.disposition`), when labelled with one. */
  expected?: string;
}

/** One rule of the version and the cases that reach it. */
export interface RuleCoverageRow {
  rule: PolicyRuleRef;
  cases: CoverageCase[];
  /** How many of `cases` are labelled. */
  labelled: number;
  /** The labelled cases by expected outcome, most first. */
  expected: { outcome: string; cases: number }[];
}

/** A rule name the outputs give that no single rule of this version has. */
export interface UnmatchedRuleName extends MatchedRule {
  cases: CoverageCase[];
  /** For a name several rules of this version share (nothing tells them apart): their paths. */
  candidates?: string[];
}

/** The target whose outputs were read. */
export interface CoverageTargetRef {
  id: string;
  label: string;
}

/** Coverage that could not be read: one sentence says why, and nothing else is shown. */
export interface UnknownCoverage {
  known: false;
  target?: CoverageTargetRef;
  sentence: string;
}

/** Coverage read from the outputs. */
export interface KnownCoverage {
  known: true;
  target: CoverageTargetRef;
  /** Every rule of the version, in its order (sub-rules after their parent). */
  rules: RuleCoverageRow[];
  /** The rules no case reaches, in the version's order. */
  unreached: PolicyRuleRef[];
  reached: number;
  total: number;
  /** Cases of the comparison. */
  cases: number;
  /** Cases whose outputs on the target say which rules matched. */
  casesRead: number;
  /** Cases whose outputs on the target say nothing about rules (not run yet, failed, or other outputs). */
  casesWithoutRuleInformation: number;
  /** Rule names the outputs give that this version has no rule of (renamed or removed since the jobs ran). */
  notInPolicy: UnmatchedRuleName[];
  /** Rule names that several rules of this version share, with no category to tell them apart: counted for none. */
  ambiguous: UnmatchedRuleName[];
}

export type RuleCoverage = KnownCoverage | UnknownCoverage;

export interface RuleCoverageOptions {
  /** The target whose outputs count (its id in the comparison); default {@link defaultCoverageTarget}. */
  targetId?: string;
  /** The newest of the agent versions the comparison ran, when the caller knows it (the default target among versions). */
  newestVersionId?: string;
}

/**
 * The target whose outputs show the newest content: a trial's target (the edit tried), else the agent's
 * current version now, else the last target that ran and did not fail (the results before only when
 * nothing else is there). Among versions, `newestVersionId` (the caller may know it) picks one.
 */
export function defaultCoverageTarget(record: Pick<ComparisonRecord, 'targets'>, newestVersionId?: string): ComparisonTarget | undefined {
  const targets = record.targets;
  return (
    targets.find((t) => t.id === TRIAL_TARGET_ID) ??
    targets.find((t) => t.kind === 'current' && !t.agentId) ??
    targets.find((t) => t.kind === 'version' && t.agentVersionId === newestVersionId) ??
    [...targets].reverse().find((t) => t.kind !== 'baseline' && t.failed === undefined) ??
    targets[targets.length - 1]
  );
}

/** The coverage of a policy version's content by the cases of a comparison, read from one target's outputs. */
export function ruleCoverage(content: unknown, record: Pick<ComparisonRecord, 'targets' | 'cases'>, options: RuleCoverageOptions = {}): RuleCoverage {
  const target = pickTarget(record, options);
  const ref: CoverageTargetRef | undefined = target && { id: target.id, label: target.label };
  const rules = policyRuleList(content);
  if (rules.length === 0) return { known: false, target: ref, sentence: 'This policy version has no rules (guidelines.categories[].rules), so there is nothing for a test set to cover.' };
  if (!target || !ref) return { known: false, sentence: 'The comparison has no target, so no outputs say which rules matched.' };
  const index = new RuleIndex(rules);
  const rows = new Map(rules.map((rule) => [rule, [] as CoverageCase[]]));
  const notInPolicy = new Names();
  const ambiguous = new Names();
  let read = 0;
  let withOutputs = 0;
  record.cases.forEach((c, i) => {
    const run = runOf(c, target.id);
    if (run?.outputs) withOutputs++;
    const matched = matchedRuleList(run?.outputs);
    if (!matched) return;
    read++;
    const shown = coverageCase(c, i);
    for (const m of matched) {
      const found = index.find(m);
      if (found.length === 1) addOnce(rows.get(found[0]!)!, shown);
      else if (found.length === 0) notInPolicy.add(m, shown);
      else ambiguous.add(m, shown, found.map((r) => r.path));
    }
  });
  if (read === 0) {
    const sentence = withOutputs === 0
      ? `No case has outputs on “${target.label}” yet, so nothing says which rules the test set reaches.`
      : `The outputs of “${target.label}” say nothing about which rules matched (no matched_rules output), so rule coverage cannot be read from them.`;
    return { known: false, target: ref, sentence };
  }
  const coverageRows = rules.map((rule) => rowOf(rule, rows.get(rule)!));
  const unreached = coverageRows.filter((r) => r.cases.length === 0).map((r) => r.rule);
  return {
    known: true,
    target: ref,
    rules: coverageRows,
    unreached,
    reached: rules.length - unreached.length,
    total: rules.length,
    cases: record.cases.length,
    casesRead: read,
    casesWithoutRuleInformation: record.cases.length - read,
    notInPolicy: notInPolicy.list(),
    ambiguous: ambiguous.list(),
  };
}

/** The share of the version's rules reached, in percent (0–100). */
export function coveragePercent(coverage: Pick<KnownCoverage, 'reached' | 'total'>): number {
  return coverage.total === 0 ? 0 : (coverage.reached / coverage.total) * 100;
}

function pickTarget(record: Pick<ComparisonRecord, 'targets'>, { targetId, newestVersionId }: RuleCoverageOptions): ComparisonTarget | undefined {
  if (targetId === undefined) return defaultCoverageTarget(record, newestVersionId);
  const target = record.targets.find((t) => t.id === targetId);
  if (!target) throw new Error(`The comparison has no target "${targetId}"; its targets are ${record.targets.map((t) => `"${t.id}" (${t.label})`).join(', ')}.`);
  return target;
}

function coverageCase(c: ComparisonCase, index: number): CoverageCase {
  const labelled = !!c.expected && (c.expected.disposition !== undefined || Object.keys(c.expected.outputs ?? {}).length > 0);
  const shown: CoverageCase = { index, name: caseLabel(c), labelled };
  if (labelled && c.expected?.disposition !== undefined) shown.expected = c.expected.disposition;
  return shown;
}

// Cases arrive in order, so a case already added is the last one.
function addOnce(cases: CoverageCase[], c: CoverageCase): void {
  if (cases[cases.length - 1]?.index !== c.index) cases.push(c);
}

function rowOf(rule: PolicyRuleRef, cases: CoverageCase[]): RuleCoverageRow {
  const byOutcome = new Map<string, number>();
  for (const c of cases) if (c.expected !== undefined) byOutcome.set(c.expected, (byOutcome.get(c.expected) ?? 0) + 1);
  const expected = [...byOutcome].map(([outcome, n]) => ({ outcome, cases: n })).sort((a, b) => b.cases - a.cases || a.outcome.localeCompare(b.outcome));
  return { rule, cases, labelled: cases.filter((c) => c.labelled).length, expected };
}

/** The rules of a version by title, and by category and title. */
class RuleIndex {
  private readonly byTitle = new Map<string, PolicyRuleRef[]>();
  private readonly byCategory = new Map<string, PolicyRuleRef[]>();

  constructor(rules: readonly PolicyRuleRef[]) {
    for (const rule of rules) {
      push(this.byTitle, rule.title, rule);
      push(this.byCategory, categoryKey(rule.category, rule.title), rule);
    }
  }

  /** The rules a matched name can be: by category and title when the output gives a category, else by title. */
  find(m: MatchedRule): PolicyRuleRef[] {
    return (m.category === undefined ? this.byTitle.get(m.name) : this.byCategory.get(categoryKey(m.category, m.name))) ?? [];
  }
}

/** Rule names gathered with their cases, in the order first seen. */
class Names {
  private readonly names = new Map<string, UnmatchedRuleName>();

  add(m: MatchedRule, c: CoverageCase, candidates?: string[]): void {
    const key = categoryKey(m.category ?? '', m.name);
    let entry = this.names.get(key);
    if (!entry) {
      entry = { ...m, cases: [] };
      if (candidates) entry.candidates = candidates;
      this.names.set(key, entry);
    }
    addOnce(entry.cases, c);
  }

  list(): UnmatchedRuleName[] {
    return [...this.names.values()];
  }
}

function categoryKey(category: string, title: string): string {
  return `${category}\u0000${title}`;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
