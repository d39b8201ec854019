/**
 * Why a case changed: where the outputs say which rules matched (the sandbox's `matched_rules`; a live
 * engine's structured output of the same kind), the rules whose result differs between two targets.
 * Read defensively: an output that is not such a list gives nothing, never an error.
 */
import type { RunOutput } from './comparisonRecord';

/** A rule matched on one side and not on the other. */
export interface RuleChange {
  rule: string;
  /** Matched by the baseline's run (and not by the other), or the other way round. */
  matchedBy: 'baseline' | 'other';
}

/** Output keys that list matched rules. */
const RULE_KEYS = /^(matched_rules|rules_matched|matched_rule_ids|rules|flags_raised)$/i;
/** The most rule names one side is read for. */
const MAX_RULES = 500;

/**
 * A rule an output says matched: its name (a title, the way the sandbox's engine and the policy name it),
 * and its category when the output gives one (the sandbox's does: it tells apart rules named twice).
 */
export interface MatchedRule {
  name: string;
  category?: string;
}

/**
 * The rules an output list says matched, in the order it lists them, or undefined when it says nothing
 * about rules (no such output, or one that is not a list or object of rules). The one reading of them:
 * why a case changed (below) and rule coverage (coverage/ruleCoverage.ts) both use it.
 */
export function matchedRuleList(outputs: readonly RunOutput[] | null | undefined): MatchedRule[] | undefined {
  const output = outputs?.find((o) => RULE_KEYS.test(o.key));
  if (!output || typeof output.value !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(output.value);
  } catch {
    return undefined;
  }
  const rules: MatchedRule[] = [];
  const seen = new Set<string>();
  const add = (name: unknown, category?: unknown): void => {
    if (typeof name !== 'string' || !name.trim() || rules.length >= MAX_RULES) return;
    const rule: MatchedRule = { name: name.trim().slice(0, 300) };
    if (typeof category === 'string' && category.trim()) rule.category = category.trim().slice(0, 300);
    const key = `${rule.category ?? ''}\u0000${rule.name}`;
    if (!seen.has(key)) rules.push(rule);
    seen.add(key);
  };
  if (Array.isArray(parsed)) {
    for (const item of parsed) {
      if (typeof item === 'string') add(item);
      else if (item && typeof item === 'object') {
        const record = item as Record<string, unknown>;
        if (record.matched === false) continue;
        add(record.rule ?? record.title ?? record.name ?? record.id, record.category);
      }
    }
    return rules;
  }
  if (parsed && typeof parsed === 'object') {
    // { "rule name": true | {matched: true} }
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
      const matched = value === true || (value !== null && typeof value === 'object' && (value as { matched?: unknown }).matched === true);
      if (matched) add(name, value !== null && typeof value === 'object' ? (value as { category?: unknown }).category : undefined);
    }
    return rules;
  }
  return undefined;
}

/** The names of the rules an output list says matched, or undefined when it says nothing about rules. */
export function matchedRules(outputs: readonly RunOutput[] | null | undefined): Set<string> | undefined {
  const rules = matchedRuleList(outputs);
  return rules && new Set(rules.map((r) => r.name));
}

/** The rules whose result differs between the baseline's outputs and another target's, in a stable order. */
export function ruleChanges(baseline: readonly RunOutput[] | null | undefined, other: readonly RunOutput[] | null | undefined): RuleChange[] {
  const before = matchedRules(baseline);
  const after = matchedRules(other);
  if (!before || !after) return [];
  const changes: RuleChange[] = [];
  for (const rule of before) if (!after.has(rule)) changes.push({ rule, matchedBy: 'baseline' });
  for (const rule of after) if (!before.has(rule)) changes.push({ rule, matchedBy: 'other' });
  return changes.sort((a, b) => a.rule.localeCompare(b.rule));
}

/** One line naming the changed rules: "Rules: “A” matched by Before only; “B” by Now only." */
export function ruleChangesText(changes: readonly RuleChange[], baselineLabel: string, otherLabel: string, max = 3): string | null {
  if (!changes.length) return null;
  const shown = changes.slice(0, max).map((c) => `“${c.rule}” matched by ${c.matchedBy === 'baseline' ? baselineLabel : otherLabel} only`);
  const more = changes.length > max ? ` and ${changes.length - max} more` : '';
  return `Why: ${shown.join('; ')}${more}.`;
}
