/**
 * Which rules an edit of a policy changes: the rules of the edited content against those of the version
 * it began from, each added, removed, or changed in its title, category, flag or text (its description and
 * any other field but its sub-rules, which are rules of their own). Policies give rules no id, so a rule is
 * the same rule when its path of titles is the same, else when it stands at the same place (a rename);
 * moving a rule is no change (the engine reads rules one by one). Then how many cases of a test set reach
 * each changed rule, from the coverage of the version the edit began from: what a trial of the edit can
 * show. Pure: plain data in and out.
 */
import { sameJson } from '../documents/sameJson';
import { policyRuleList, type PolicyRuleRef } from './policyRuleList';
import type { RuleCoverage } from './ruleCoverage';

/** What changed in a rule kept by the edit. */
export type RuleChangeKind = 'title' | 'category' | 'flag' | 'text';

/** One rule the edit adds, removes or changes. */
export interface RuleEdit {
  kind: 'added' | 'removed' | 'changed';
  /** The rule in the version the edit began from (removed, changed). */
  before?: PolicyRuleRef;
  /** The rule in the edited content (added, changed). */
  after?: PolicyRuleRef;
  /** For a changed rule: what changed, in this order. */
  changes: RuleChangeKind[];
}

/** The rules `edited` adds, removes or changes against `base`, in the edited content's order (removed ones where they were). */
export function ruleEdits(base: unknown, edited: unknown): RuleEdit[] {
  const before = policyRuleList(base);
  const after = policyRuleList(edited);
  const pairs = pairRules(before, after);
  const paired = new Set<PolicyRuleRef>([...pairs.keys(), ...pairs.values()]);
  const edits: { edit: RuleEdit; order: number }[] = [];
  before.forEach((b, i) => {
    if (!paired.has(b)) edits.push({ edit: { kind: 'removed', before: b, changes: [] }, order: orderOf(after, b, i) });
  });
  after.forEach((a, i) => {
    const b = [...pairs].find(([, match]) => match === a)?.[0];
    if (!b) {
      edits.push({ edit: { kind: 'added', after: a, changes: [] }, order: i });
      return;
    }
    const changes = changesOf(b, a, base, edited);
    if (changes.length) edits.push({ edit: { kind: 'changed', before: b, after: a, changes }, order: i });
  });
  return edits.sort((x, y) => x.order - y.order).map((e) => e.edit);
}

/** Pairs each rule of the base with the same rule of the edit: by path of titles first, then by place. */
function pairRules(before: readonly PolicyRuleRef[], after: readonly PolicyRuleRef[]): Map<PolicyRuleRef, PolicyRuleRef> {
  const pairs = new Map<PolicyRuleRef, PolicyRuleRef>();
  const taken = new Set<PolicyRuleRef>();
  const byPath = new Map<string, PolicyRuleRef[]>();
  for (const a of after) byPath.set(a.path, [...(byPath.get(a.path) ?? []), a]);
  for (const b of before) {
    const a = byPath.get(b.path)?.find((r) => !taken.has(r));
    if (a) {
      pairs.set(b, a);
      taken.add(a);
    }
  }
  const byPlace = new Map(after.filter((a) => !taken.has(a)).map((a) => [placeKey(a), a]));
  for (const b of before) {
    if (pairs.has(b)) continue;
    const a = byPlace.get(placeKey(b));
    if (a && !taken.has(a)) {
      pairs.set(b, a);
      taken.add(a);
    }
  }
  return pairs;
}

function placeKey(rule: PolicyRuleRef): string {
  return JSON.stringify(rule.jsonPath);
}

// A removed rule goes where its place is in the edit's list: after the rules that came before it.
function orderOf(after: readonly PolicyRuleRef[], removed: PolicyRuleRef, index: number): number {
  const at = after.findIndex((a) => placeKey(a) === placeKey(removed));
  return (at < 0 ? Math.min(index, after.length) : at) - 0.5;
}

function changesOf(b: PolicyRuleRef, a: PolicyRuleRef, base: unknown, edited: unknown): RuleChangeKind[] {
  const changes: RuleChangeKind[] = [];
  if (b.title !== a.title) changes.push('title');
  if (b.category !== a.category) changes.push('category');
  if (b.flag !== a.flag) changes.push('flag');
  if (!sameJson(ownText(valueAt(base, b.jsonPath)), ownText(valueAt(edited, a.jsonPath)))) changes.push('text');
  return changes;
}

/** A rule's own fields but those compared apart (title, flag), its sub-rules and its id (the service makes ids anew on each save). */
function ownText(rule: unknown): Record<string, unknown> {
  if (!rule || typeof rule !== 'object' || Array.isArray(rule)) return {};
  const copy: Record<string, unknown> = { ...(rule as Record<string, unknown>) };
  for (const key of ['title', 'flag', 'sub_rules', 'id']) delete copy[key];
  return copy;
}

/** The value at a JSON path of some content, or undefined. */
export function valueAt(content: unknown, jsonPath: readonly (string | number)[]): unknown {
  let current = content;
  for (const key of jsonPath) {
    if (!current || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** The words of a rule a text search can look for: its title, then its description. */
export function ruleSearchText(content: unknown, rule: PolicyRuleRef): string {
  const description = (valueAt(content, rule.jsonPath) as { description?: unknown } | undefined)?.description;
  return [rule.title, typeof description === 'string' ? description.trim() : ''].filter(Boolean).join(' ').slice(0, 500);
}

/** A changed rule with how many cases reach it as it was (an added rule: none, the outputs were made before it). */
export interface RuleEditReach {
  edit: RuleEdit;
  cases: number;
}

/** What a trial of an edit can show, rule by rule: the edits with the cases that reach each, or why that is not known. */
export type EditReach = { known: true; testSet: string; rules: RuleEditReach[] } | { known: false; testSet: string; sentence: string };

/** The cases of the base version's coverage that reach each changed rule. */
export function editReach(edits: readonly RuleEdit[], coverage: RuleCoverage, testSet: string): EditReach {
  if (!coverage.known) return { known: false, testSet, sentence: coverage.sentence };
  const rows = new Map(coverage.rules.map((row) => [placeKey(row.rule), row.cases.length]));
  return { known: true, testSet, rules: edits.map((edit) => ({ edit, cases: edit.before ? (rows.get(placeKey(edit.before)) ?? 0) : 0 })) };
}

/** The changed rules no case reaches (every one of them: the trial cannot show the edit's effect on those). */
export function unreachedEdits(reach: EditReach): RuleEdit[] {
  return reach.known ? reach.rules.filter((r) => r.cases === 0).map((r) => r.edit) : [];
}

/** Whether the edit changes rules and no case reaches any of them. */
export function noChangedRuleReached(reach: EditReach): boolean {
  return reach.known && reach.rules.length > 0 && reach.rules.every((r) => r.cases === 0);
}

/** "No case of qa.testset.jsonl reaches the rules this edit changes: the trial cannot show its effect." */
export function unreachedEditSentence(reach: EditReach): string {
  const rules = reach.known && reach.rules.length === 1 ? 'the rule' : 'the rules';
  return `No case of ${reach.testSet} reaches ${rules} this edit changes: the trial cannot show its effect.`;
}

/** The rule an edit names: its number and title in the edited content (in the base for a removed one). */
export function editedRuleName(edit: RuleEdit): string {
  const rule = edit.after ?? edit.before!;
  return `${rule.number} “${rule.title}”`;
}

/** The lines of a start question: each changed rule with what changed and how many cases reach it. */
export function editReachLines(reach: EditReach): string[] {
  if (!reach.known) return [`Rule coverage: ${reach.sentence}`];
  if (reach.rules.length === 0) return ['The edit changes no rule (no title, flag or text of a rule).'];
  const n = reach.rules.length;
  return [`Rules this edit changes (${n}), and the cases of ${reach.testSet} that reach each:`, ...reach.rules.map((r) => `• ${editedRuleName(r.edit)}: ${whatChanged(r.edit)}; ${casesText(r)}.`)];
}

function whatChanged(edit: RuleEdit): string {
  if (edit.kind === 'added') return 'added';
  if (edit.kind === 'removed') return 'removed';
  const words: Record<RuleChangeKind, string> = { title: `renamed from “${edit.before?.title ?? ''}”`, category: `moved from ${edit.before?.category ?? ''}`, flag: 'flag changed', text: 'text changed' };
  return edit.changes.map((c) => words[c]).join(', ');
}

function casesText(r: RuleEditReach): string {
  if (r.edit.kind === 'added') return 'no case reaches it yet (new)';
  return r.cases === 0 ? 'no case reaches it' : `${r.cases} case${r.cases === 1 ? '' : 's'}`;
}

/** The target of a comparison whose outputs show the version an edit began from: the agent's current version now, when it ran. */
export function baseTargetId(record: { targets: readonly { id: string; kind: string; agentId?: string }[] }): string | undefined {
  return record.targets.find((t) => t.kind === 'current' && !t.agentId)?.id;
}
