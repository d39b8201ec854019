/**
 * The rules of a policy version's content as a flat list, each with where it is: its number ("1.2.1":
 * category, rule, sub-rule), its titles from the category down, and its JSON path in the content (what an
 * editor needs to find it). Read defensively like the engine reads a policy: anything that is not a
 * category or a rule is left out, never an error, and titles are taken as the engine takes them.
 */

/** One rule (or sub-rule, at any depth) of a policy version. */
export interface PolicyRuleRef {
  /** "1.2.1": the category's number, then the rule's, then each sub-rule's (1-based, in this version). */
  number: string;
  /**
   * "Identity verification › Verifies the caller… › Asks for the PIN…": the category and the titles down
   * to this rule. Stable while titles stay (reordering keeps it); two rules of one title in two
   * categories have two paths.
   */
  path: string;
  category: string;
  title: string;
  /** 0 for a rule of a category, 1 for its sub-rule, and so on. */
  depth: number;
  flag?: 'GREEN_FLAG' | 'RED_FLAG';
  /** Where it is in the content: `['guidelines', 'categories', 0, 'rules', 1, 'sub_rules', 0]`. */
  jsonPath: (string | number)[];
}

/** The separator of a rule's path. */
export const PATH_SEPARATOR = ' › ';

/** Every rule of a policy version's content, sub-rules right after their parent (the engine's order). */
export function policyRuleList(content: unknown): PolicyRuleRef[] {
  const out: PolicyRuleRef[] = [];
  const categories = at(content, 'guidelines', 'categories');
  records(categories).forEach(({ value: category, index }, c) => {
    // The engine's own defaults, so that an output naming "Untitled rule" finds it here too.
    const title = text(category.title) || 'Untitled category';
    walk(category.rules, { category: title, number: String(c + 1), titles: [title], jsonPath: ['guidelines', 'categories', index, 'rules'], depth: 0 }, out);
  });
  return out;
}

interface Place {
  category: string;
  number: string;
  titles: string[];
  jsonPath: (string | number)[];
  depth: number;
}

function walk(rules: unknown, parent: Place, out: PolicyRuleRef[]): void {
  records(rules).forEach(({ value: rule, index }, r) => {
    const title = text(rule.title) || 'Untitled rule';
    const flag = rule.flag === 'GREEN_FLAG' || rule.flag === 'RED_FLAG' ? rule.flag : undefined;
    const titles = [...parent.titles, title];
    const ref: PolicyRuleRef = { number: `${parent.number}.${r + 1}`, path: titles.join(PATH_SEPARATOR), category: parent.category, title, depth: parent.depth, jsonPath: [...parent.jsonPath, index] };
    if (flag) ref.flag = flag;
    out.push(ref);
    walk(rule.sub_rules, { ...parent, number: ref.number, titles, jsonPath: [...ref.jsonPath, 'sub_rules'], depth: parent.depth + 1 }, out);
  });
}

function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) current = current && typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, unknown>)[key] : undefined;
  return current;
}

// The objects of a list with their index in it (what a JSON path needs: items that are not objects still count).
function records(value: unknown): { value: Record<string, unknown>; index: number }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v: unknown, index) => (v && typeof v === 'object' && !Array.isArray(v) ? [{ value: v as Record<string, unknown>, index }] : []));
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}
