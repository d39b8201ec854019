/**
 * The disposition a job ends with, chosen among the policy's classifications from the rules that
 * matched (docs/service.md, "The sandbox's engine"):
 * 1. a matched red-flag rule that names a classification (its name in the rule's title or description)
 *    gives that classification; any other matched red-flag rule gives the last classification;
 * 2. else a matched rule that names a classification gives it (the first such rule in policy order);
 * 3. else, when the policy has green-flag rules and fewer than half of them matched, the middle
 *    classification (only with three or more classifications);
 * 4. else the first classification.
 */
import type { PolicyClassification, PolicyRule } from './policyRules';
import type { RuleMatch } from './ruleMatching';

/** The chosen name, and the step of the rule above that chose it, in words. */
export interface Disposition {
  name: string;
  reason: string;
}

/** Chooses among `names` (the policy's classifications, else the engine's verdicts, best first). */
export function chooseDisposition(rules: readonly PolicyRule[], matches: readonly RuleMatch[], names: readonly string[]): Disposition {
  if (names.length === 0) return { name: 'Done', reason: 'The policy has no classifications.' };
  const red = matches.filter((m) => m.rule.flag === 'RED_FLAG');
  if (red.length > 0) {
    const named = firstNamed(red, names);
    if (named) return { name: named.name, reason: `Red flag “${named.match.rule.title}” matched and names this classification.` };
    return { name: names[names.length - 1]!, reason: `Red flag “${red[0]!.rule.title}” matched.` };
  }
  const named = firstNamed(matches, names);
  if (named) return { name: named.name, reason: `Rule “${named.match.rule.title}” matched and names this classification.` };
  const greens = rules.filter((r) => r.flag === 'GREEN_FLAG').length;
  const greenMatched = matches.filter((m) => m.rule.flag === 'GREEN_FLAG').length;
  if (greens > 0 && greenMatched * 2 < greens && names.length >= 3) {
    return { name: names[Math.floor((names.length - 1) / 2)]!, reason: `Only ${greenMatched} of ${greens} green-flag rules matched.` };
  }
  return { name: names[0]!, reason: greens > 0 ? `No red flag matched; ${greenMatched} of ${greens} green-flag rules matched.` : 'No red flag matched.' };
}

/** The names a disposition is chosen from: the policy's classifications, else the given fallback. */
export function dispositionNames(classifications: readonly PolicyClassification[], fallback: readonly string[]): string[] {
  return classifications.length > 0 ? classifications.map((c) => c.name) : [...fallback];
}

function firstNamed(matches: readonly RuleMatch[], names: readonly string[]): { name: string; match: RuleMatch } | undefined {
  for (const match of matches) {
    const text = `${match.rule.title}\n${match.rule.description}`.toLowerCase();
    let earliest: { name: string; at: number } | undefined;
    for (const name of names) {
      const at = indexOfWhole(text, name.toLowerCase());
      if (at >= 0 && (!earliest || at < earliest.at)) earliest = { name, at };
    }
    if (earliest) return { name: earliest.name, match };
  }
  return undefined;
}

/** Where `name` occurs as whole words in `text`, or -1. */
function indexOfWhole(text: string, name: string): number {
  let from = 0;
  for (;;) {
    const at = text.indexOf(name, from);
    if (at < 0) return -1;
    const before = at === 0 ? '' : text[at - 1]!;
    const after = text[at + name.length] ?? '';
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return at;
    from = at + 1;
  }
}
