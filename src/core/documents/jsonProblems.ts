import { findNodeAtLocation, parseTree, type Node, type ParseError } from 'jsonc-parser';
import { syntaxWords } from './jsonSyntax';
import type * as z from 'zod/mini';
import { nestingProblem } from './jsonNesting';

export { MAX_JSON_DEPTH, nestingProblem } from './jsonNesting';

/** A problem in a JSON document, with where it is (character offsets) and the path of the field. */
export interface JsonProblem {
  path: (string | number)[];
  message: string;
  offset: number;
  length: number;
}

export type JsonCheck<T> = { ok: true; value: T } | { ok: false; problems: JsonProblem[] };

let parses = 0;
/** How many documents this module has parsed so far: tests and benchmarks count work with it, not time. */
export function jsonParseCount(): number {
  return parses;
}

/** Places messages at field paths of one text, parsed once however many problems are placed. */
export type FieldLocator = (path: (string | number)[], message: string) => JsonProblem;

/** A {@link FieldLocator} for a text (parsed here, once). */
export function fieldLocator(text: string): FieldLocator {
  const root = parseOnce(text);
  return (path, message) => locate(text, root, path, message);
}

function parseOnce(text: string, errors?: ParseError[]): Node | undefined {
  if (nestingProblem(text)) return undefined;
  parses++;
  return parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
}

/**
 * Parses a JSON document and validates it with a schema; every problem comes with its place in the
 * text, so the editor can underline it. Comments and trailing commas are refused: the service takes JSON.
 * `keepDocument` returns the parsed document rather than zod's copy of it (for schemas that only check).
 */
export function checkJson<T>(text: string, schema: z.ZodMiniType<T>, options: { keepDocument?: boolean } = {}): JsonCheck<T> {
  const deep = nestingProblem(text);
  if (deep) return { ok: false, problems: [deep] };
  const errors: ParseError[] = [];
  const root = parseOnce(text, errors);
  if (errors.length || !root) {
    const problems = errors.map((e) => ({ path: [], message: `JSON syntax: ${syntaxMessage(e)}`, offset: e.offset, length: Math.max(1, e.length) }));
    return { ok: false, problems: problems.length ? problems : [{ path: [], message: 'The document is empty: it must hold a JSON object.', offset: 0, length: 1 }] };
  }
  const value: unknown = JSON.parse(text);
  const result = schema.safeParse(value, { reportInput: true });
  // zod rebuilds records key by key, and a `__proto__` key then sets a prototype instead of a field:
  // where the schema only checks (strict objects, no transforms), the parsed document itself is the value.
  if (result.success) return { ok: true, value: options.keepDocument ? (value as T) : result.data };
  return { ok: false, problems: result.error.issues.map((issue) => locate(text, root, issue.path as (string | number)[], issueMessage(issue as unknown as Issue))) };
}

/** Places field errors of the service (`{"name": ["…"]}`) on the fields they name, when they are in the text. */
export function locateFieldErrors(text: string, fieldErrors: Record<string, string[]>): JsonProblem[] {
  const at = fieldLocator(text);
  const problems: JsonProblem[] = [];
  for (const [field, messages] of Object.entries(fieldErrors)) {
    const path = field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
    for (const message of messages) problems.push(at(path, `${field}: ${message}`));
  }
  return problems;
}

/** The problem at a path: on the property name when the field exists, else on its closest existing parent. */
function locate(text: string, root: Node | undefined, path: (string | number)[], message: string): JsonProblem {
  for (let depth = path.length; depth >= 0 && root; depth--) {
    const node = findNodeAtLocation(root, path.slice(0, depth));
    if (!node) continue;
    const target = depth === path.length && node.parent?.type === 'property' ? node.parent : node;
    // Underline the key of a property (short and visible) rather than a whole nested object.
    const key = target.type === 'property' ? target.children?.[0] : undefined;
    const span = key ?? (node.type === 'object' || node.type === 'array' ? { offset: node.offset, length: 1 } : node);
    return { path, message: withPath(path, message), offset: span.offset, length: Math.max(1, span.length) };
  }
  return { path, message: withPath(path, message), offset: 0, length: Math.min(1, text.length) };
}

function withPath(path: (string | number)[], message: string): string {
  return path.length && !message.includes(':') ? `${formatPath(path)}: ${message}` : message;
}

/** `guidelines.categories[0].rules[2].flag` */
export function formatPath(path: readonly (string | number | symbol)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
}

interface Issue {
  code: string;
  message?: string;
  expected?: string;
  input?: unknown;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  values?: unknown[];
  keys?: string[];
}

/** A sentence for a validation issue (zod/mini ships no English messages). */
export function issueMessage(issue: Issue): string {
  const unit = issue.origin === 'string' ? 'characters' : issue.origin === 'array' ? 'items' : '';
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `required (${issue.expected})` : `must be ${article(issue.expected ?? 'value')}, not ${kindOf(issue.input)}`;
    case 'too_small':
      return issue.origin === 'string' && Number(issue.minimum) === 1 ? 'must not be empty' : `must have at least ${issue.minimum} ${unit}`.trim();
    case 'too_big':
      return `must have at most ${issue.maximum} ${unit}`.trim();
    case 'invalid_value':
      return `must be one of ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown field${(issue.keys?.length ?? 0) > 1 ? 's' : ''} ${(issue.keys ?? []).map((k) => `"${k}"`).join(', ')}`;
    case 'invalid_union':
      return 'has a form that is not allowed here';
    default:
      return issue.message && issue.message !== 'Invalid input' ? issue.message : 'is not valid';
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return article(typeof value);
}

function syntaxMessage(e: ParseError): string {
  return syntaxWords(e);
}
