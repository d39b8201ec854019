/** A policy's content read the way the sandbox's engine applies it: rules in order, classifications, template. */

export type RuleFlag = 'GREEN_FLAG' | 'RED_FLAG';

/** One rule of the guidelines; sub-rules follow their parent, each a rule of its own. */
export interface PolicyRule {
  category: string;
  title: string;
  description: string;
  flag: RuleFlag | null;
  /** Sub-rules of the rule at this position (kept for the template's nested view). */
  subRules: PolicyRule[];
}

export interface PolicyCategory {
  title: string;
  description: string;
  rules: PolicyRule[];
}

export interface PolicyClassification {
  name: string;
  description: string;
  prompt: string;
}

/** What the engine takes from a policy version's content; anything it cannot read is left out, never an error. */
export interface ReadPolicy {
  categories: PolicyCategory[];
  /** Every rule, sub-rules right after their parent. */
  rules: PolicyRule[];
  classifications: PolicyClassification[];
  template: string | undefined;
}

/** Reads guidelines, dispositions and the summary template out of a policy version's content. */
export function readPolicy(content: unknown): ReadPolicy {
  const categories = records(at(content, 'guidelines', 'categories')).map((category) => {
    const title = text(category.title) || 'Untitled category';
    return { title, description: text(category.description), rules: records(category.rules).map((rule) => readRule(rule, title)) };
  });
  const classifications = records(at(content, 'dispositions', 'classifications'))
    .map((c) => ({ name: text(c.name).trim(), description: text(c.description), prompt: text(c.prompt) }))
    .filter((c) => c.name !== '');
  const template = at(content, 'summary_template', 'template');
  return {
    categories,
    rules: categories.flatMap((c) => flatten(c.rules)),
    classifications,
    template: typeof template === 'string' && template.trim() !== '' ? template : undefined,
  };
}

function readRule(rule: Record<string, unknown>, category: string): PolicyRule {
  const flag = rule.flag === 'GREEN_FLAG' || rule.flag === 'RED_FLAG' ? rule.flag : null;
  return {
    category,
    title: text(rule.title) || 'Untitled rule',
    description: text(rule.description),
    flag,
    subRules: records(rule.sub_rules).map((sub) => readRule(sub, category)),
  };
}

function flatten(rules: readonly PolicyRule[]): PolicyRule[] {
  return rules.flatMap((rule) => [rule, ...flatten(rule.subRules)]);
}

function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) current = current && typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, unknown>)[key] : undefined;
  return current;
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)) : [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
