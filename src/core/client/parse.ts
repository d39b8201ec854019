/** Turning a 2xx body into a typed value, or into a sentence that names the operation and the field. */
import * as z from 'zod/mini';

/** A 2xx answer that is not what the operation promises; the gateway turns it into a `parse` ServiceError. */
export class ParseProblem extends Error {}

type Schema<T> = z.ZodMiniType<T>;
type PathKey = PropertyKey;

interface Issue {
  code: string;
  path: PathKey[];
  expected?: string;
  values?: unknown[];
  errors?: Issue[][];
  origin?: string;
}

// Each schema is compiled to a generated parser the first time it is used: about ten times faster than
// the interpreter on list pages, and paid once per schema rather than at load (activation stays quick).
let compiled = new WeakMap<Schema<unknown>, Schema<unknown>>();

/** Forgets every compiled parser, as a fresh process would have none (tests reset it between tests). */
export function resetParserCache(): void {
  compiled = new WeakMap();
}

function fast<T>(schema: Schema<T>): Schema<T> {
  let parser = compiled.get(schema);
  if (parser === undefined) {
    parser = z.compile(schema);
    compiled.set(schema, parser);
  }
  return parser as Schema<T>;
}

// Parts of the answer being parsed that were left out because they could not be read (see noteLeftOut).
const leftOut: string[] = [];

/**
 * Called by a schema that leaves an unreadable part out instead of failing the whole answer (a tag of
 * an agent): the gateway logs the note with the operation once. `what` names the part.
 */
export function noteLeftOut(what: string, issues: readonly unknown[], input: unknown): void {
  const issue = issues[0] as Issue | undefined;
  leftOut.push(`${what} was left out (${issue ? describeIssue(issue, [], input) : 'unreadable'})`);
}

/** The notes of the last {@link parseBody}, emptied. */
export function takeLeftOut(): string[] {
  return leftOut.splice(0);
}

/** Parses the body text of a 2xx answer against the operation's schema. */
export function parseBody<T>(schema: Schema<T>, text: string, contentType: string | string[] | undefined, operation: string): T {
  leftOut.length = 0;
  const type = String(contentType ?? '');
  if (type.includes('html')) throw new ParseProblem(`${operation}: the service answered with a web page (${type.split(';')[0]}) instead of JSON; check the service URL.`);
  if (text.length === 0) throw new ParseProblem(`${operation}: the service answered with an empty body where JSON was expected.`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ParseProblem(`${operation}: the answer is not valid JSON${type ? ` (${type.split(';')[0]})` : ''}.`);
  }
  const result = fast(schema).safeParse(data);
  if (result.success) return result.data;
  const issues = result.error.issues as unknown as Issue[];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more ${issues.length === 2 ? 'problem' : 'problems'})` : '';
  throw new ParseProblem(`${operation}: ${describeIssue(issues[0] as Issue, [], data)}${more}`);
}

/** `results[3].created_at: expected string, got null`. */
export function describeIssue(issue: Issue, base: PathKey[], root: unknown): string {
  const path = [...base, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors?.length) {
    // The branch that got deepest is the form the value was meant to have: report its problem.
    const branches = issue.errors;
    const deepest = branches.reduce<Issue[] | undefined>((best, b) => (depth(b) > (best ? depth(best) : 0) ? b : best), undefined);
    if (deepest) return describeIssue(deepest[0] as Issue, path, root);
    const expected = [...new Set(branches.map((b) => b[0]?.expected).filter(Boolean))];
    return `${formatPath(path)}: expected ${expected.join(' or ') || 'another form'}, got ${kindOf(valueAt(root, path))}`;
  }
  return `${formatPath(path)}: ${issueText(issue, valueAt(root, path))}`;
}

function issueText(issue: Issue, value: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return value === undefined ? `expected ${issue.expected}, but it is missing` : `expected ${issue.expected}, got ${kindOf(value)}`;
    case 'invalid_value':
      return `expected one of ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(value)}`;
    case 'too_small':
      return `${issue.origin ?? 'value'} is too small or too short`;
    case 'too_big':
      return `${issue.origin ?? 'value'} is too big or too long`;
    default:
      return `does not have the expected form (${issue.code})`;
  }
}

function depth(branch: Issue[]): number {
  return Math.max(...branch.map((i) => i.path.length));
}

function valueAt(root: unknown, path: PathKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** `['results', 3, 'created_at']` → `results[3].created_at`; the root is `(response)`. */
export function formatPath(path: PathKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return out || '(response)';
}
