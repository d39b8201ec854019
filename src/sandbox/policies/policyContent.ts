import { randomUUID } from 'node:crypto';
import Handlebars from 'handlebars';

const FLAGS = new Set(['GREEN_FLAG', 'RED_FLAG']);
/** Sub-rules nest; a bound keeps a hostile body from recursing forever. */
const MAX_RULE_DEPTH = 8;

type Problems = string[];

/**
 * Checks policy content against the shape of interface section 2 (all sections optional, unknown
 * keys kept): categories and rules with titles, GREEN_FLAG/RED_FLAG flags, nested sub-rules,
 * classifications with names, text instructions, and a summary template that Handlebars can parse.
 * Answers the problems as `path: message` lines (empty when the content is fine).
 */
export function policyContentProblems(content: unknown): Problems {
  const problems: Problems = [];
  if (!isObject(content)) return [`Expected a JSON object but got ${describe(content)}.`];
  if (content.guidelines !== undefined) checkGuidelines(content.guidelines, problems);
  if (content.instructions !== undefined && content.instructions !== null && typeof content.instructions !== 'string') {
    problems.push('instructions: Not a valid string.');
  }
  if (content.dispositions !== undefined) checkDispositions(content.dispositions, problems);
  if (content.summary_template !== undefined) checkTemplate(content.summary_template, problems);
  return problems;
}

function checkGuidelines(guidelines: unknown, problems: Problems): void {
  if (!isObject(guidelines)) return void problems.push(`guidelines: Expected an object but got ${describe(guidelines)}.`);
  const categories = guidelines.categories;
  if (categories === undefined) return;
  if (!Array.isArray(categories)) return void problems.push(`guidelines.categories: Expected a list but got ${describe(categories)}.`);
  categories.forEach((category, i) => {
    const at = `guidelines.categories[${i}]`;
    if (!isObject(category)) return void problems.push(`${at}: Expected an object but got ${describe(category)}.`);
    requireText(category, 'title', at, problems);
    optionalText(category, 'description', at, problems);
    if (category.rules !== undefined) checkRules(category.rules, `${at}.rules`, 1, problems);
  });
}

function checkRules(rules: unknown, at: string, depth: number, problems: Problems): void {
  if (!Array.isArray(rules)) return void problems.push(`${at}: Expected a list but got ${describe(rules)}.`);
  if (depth > MAX_RULE_DEPTH) return void problems.push(`${at}: Sub-rules may nest at most ${MAX_RULE_DEPTH} levels deep.`);
  rules.forEach((rule, i) => {
    const here = `${at}[${i}]`;
    if (!isObject(rule)) return void problems.push(`${here}: Expected an object but got ${describe(rule)}.`);
    requireText(rule, 'title', here, problems);
    optionalText(rule, 'description', here, problems);
    if (rule.flag !== undefined && rule.flag !== null && !FLAGS.has(rule.flag as string)) {
      problems.push(`${here}.flag: ${JSON.stringify(rule.flag)} is not a valid choice (GREEN_FLAG or RED_FLAG).`);
    }
    if (rule.sub_rules !== undefined && rule.sub_rules !== null) checkRules(rule.sub_rules, `${here}.sub_rules`, depth + 1, problems);
  });
}

function checkDispositions(dispositions: unknown, problems: Problems): void {
  if (!isObject(dispositions)) return void problems.push(`dispositions: Expected an object but got ${describe(dispositions)}.`);
  const list = dispositions.classifications;
  if (list === undefined) return;
  if (!Array.isArray(list)) return void problems.push(`dispositions.classifications: Expected a list but got ${describe(list)}.`);
  list.forEach((item, i) => {
    const at = `dispositions.classifications[${i}]`;
    if (!isObject(item)) return void problems.push(`${at}: Expected an object but got ${describe(item)}.`);
    requireText(item, 'name', at, problems);
    optionalText(item, 'description', at, problems);
    optionalText(item, 'prompt', at, problems);
  });
}

function checkTemplate(summary: unknown, problems: Problems): void {
  if (!isObject(summary)) return void problems.push(`summary_template: Expected an object but got ${describe(summary)}.`);
  const template = summary.template;
  if (template === undefined || template === null) return;
  if (typeof template !== 'string') return void problems.push('summary_template.template: Not a valid string.');
  try {
    Handlebars.parse(template);
  } catch (error) {
    const first = String((error as Error).message).split('\n')[0];
    problems.push(`summary_template.template: Not a valid Handlebars template (${first}).`);
  }
}

function requireText(object: Record<string, unknown>, key: string, at: string, problems: Problems): void {
  const value = object[key];
  if (value === undefined || value === null) problems.push(`${at}.${key}: This field is required.`);
  else if (typeof value !== 'string') problems.push(`${at}.${key}: Not a valid string.`);
  else if (value.trim() === '') problems.push(`${at}.${key}: This field may not be blank.`);
}

function optionalText(object: Record<string, unknown>, key: string, at: string, problems: Problems): void {
  const value = object[key];
  if (value !== undefined && value !== null && typeof value !== 'string') problems.push(`${at}.${key}: Not a valid string.`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * The content as a new version stores it: like the live service, every category, rule and sub-rule
 * gets a fresh id on each create, and ids sent are ignored. Other keys stay as sent.
 */
export function withFreshIds(content: unknown): unknown {
  if (!isObject(content) || !isObject(content.guidelines) || !Array.isArray(content.guidelines.categories)) return content;
  const categories = (content.guidelines.categories as unknown[]).map<unknown>((category) =>
    isObject(category) ? { ...freshId(category), ...(Array.isArray(category.rules) ? { rules: freshRules(category.rules) } : {}) } : category,
  );
  return { ...content, guidelines: { ...content.guidelines, categories } };
}

function freshRules(rules: unknown[]): unknown[] {
  return rules.map<unknown>((rule) => (isObject(rule) ? { ...freshId(rule), ...(Array.isArray(rule.sub_rules) ? { sub_rules: freshRules(rule.sub_rules) } : {}) } : rule));
}

/** A copy with a new `id` (first when it had none, in its place when it had one). */
function freshId(item: Record<string, unknown>): Record<string, unknown> {
  return 'id' in item ? { ...item, id: randomUUID() } : { id: randomUUID(), ...item };
}
