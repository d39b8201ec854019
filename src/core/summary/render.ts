import Handlebars from 'handlebars/dist/cjs/handlebars';
import { lineStarts, offsetOf, positionOf, type TextPosition } from '../textPosition';

/** Where a template went wrong: offsets into the template text, and the same place as people read it. */
export interface TemplateError {
  message: string;
  /** False when Handlebars gave no place; the error then points at the start of the template. */
  located: boolean;
  offset: number;
  length: number;
  start: TextPosition;
}

export type RenderResult = { ok: true; output: string; truncated: boolean } | { ok: false; error: TemplateError };

/** Output past this many characters is cut: a preview, not a report generator. */
export const MAX_OUTPUT_CHARS = 200_000;

type Hbs = typeof Handlebars;
type Loc = { start: { line: number; column: number }; end?: { line: number; column: number } };

/** Errors thrown inside a helper get the place of the innermost helper call that saw them. */
const helperPlaces = new WeakMap<object, Loc>();

/**
 * An isolated Handlebars instance: only the built-in helpers (none touches the file system), no
 * partials, prototype access left disabled (Handlebars' default). Each built-in helper is wrapped so a
 * runtime error ("Must pass iterator to #each", "Missing helper") learns where in the template it happened.
 */
function createInstance(): Hbs {
  const hb = Handlebars.create();
  for (const [name, helper] of Object.entries(hb.helpers)) {
    hb.helpers[name] = function (this: unknown, ...args: unknown[]) {
      try {
        return (helper as (...a: unknown[]) => unknown).apply(this, args);
      } catch (error) {
        const loc = (args.at(-1) as { loc?: Loc } | undefined)?.loc;
        if (error && typeof error === 'object' && loc?.start && !helperPlaces.has(error)) helperPlaces.set(error, loc);
        throw error;
      }
    };
  }
  return hb;
}

let instance: Hbs | undefined;
let cached: { template: string; run: Handlebars.TemplateDelegate } | undefined;

/**
 * Renders a summary template against sample data, like the service would (Handlebars, `strict: false`,
 * HTML-escaping `{{…}}`, raw `{{{…}}}`). Never throws: problems come back with their place in the template.
 */
export function renderTemplate(template: string, data: unknown): RenderResult {
  instance ??= createInstance();
  const hb = instance;
  try {
    if (cached?.template !== template) {
      // Parsing first makes syntax errors surface here (compile() is lazy) with the lexer's position.
      hb.parse(template);
      cached = { template, run: hb.compile(template, { strict: false }) };
    }
    const output = cached.run(data);
    return output.length > MAX_OUTPUT_CHARS ? { ok: true, output: output.slice(0, MAX_OUTPUT_CHARS), truncated: true } : { ok: true, output, truncated: false };
  } catch (error) {
    return { ok: false, error: describeError(hb, template, error) };
  }
}


function describeError(hb: Hbs, template: string, error: unknown): TemplateError {
  const e = (error ?? {}) as { message?: unknown; lineNumber?: unknown; column?: unknown; endLineNumber?: unknown; endColumn?: unknown };
  const raw = typeof e.message === 'string' ? e.message : String(error);
  const starts = lineStarts(template);
  const at = (loc: Loc, message: string): TemplateError => {
    const offset = offsetOf(template, loc.start.line, loc.start.column, starts);
    const end = loc.end ? offsetOf(template, loc.end.line, loc.end.column, starts) : offset;
    return { message, located: true, offset, length: Math.max(end - offset, 1), start: positionOf(template, offset, starts) };
  };
  if (/^(Parse|Lexical) error on line \d+/.test(raw)) {
    const place = at(lexerPlace(hb, template), '');
    return { ...place, message: syntaxMessage(raw, template.slice(place.offset, place.offset + place.length)) };
  }
  const message = raw.replace(/ - \d+:\d+$/, '').replace(/^(\S+) doesn't match (\S+)$/, '"{{#$1}}" is closed by "{{/$2}}"');
  if (typeof e.lineNumber === 'number' && typeof e.column === 'number') {
    const end = typeof e.endLineNumber === 'number' && typeof e.endColumn === 'number' ? { line: e.endLineNumber, column: e.endColumn } : undefined;
    return at({ start: { line: e.lineNumber, column: e.column }, end }, message);
  }
  const loc = (error && typeof error === 'object' ? helperPlaces.get(error) : undefined) ?? partialPlace(hb, template, message);
  const explained = explain(message);
  if (loc) return at(loc, explained);
  return { message: explained, located: false, offset: 0, length: Math.min(1, template.length), start: { line: 1, column: 1 } };
}

/**
 * The token the parser stopped at. Handlebars' parser reports it only in the text of the message (with
 * newlines removed from the excerpt), but its lexer keeps the exact place of the last token read.
 */
function lexerPlace(hb: Hbs, template: string): Loc {
  const lexer = (hb as unknown as { Parser?: { lexer?: { yylloc?: { first_line: number; first_column: number; last_line: number; last_column: number } } } }).Parser?.lexer;
  const l = lexer?.yylloc;
  if (l && Number.isInteger(l.first_line) && Number.isInteger(l.first_column)) {
    return { start: { line: l.first_line, column: l.first_column }, end: { line: l.last_line, column: l.last_column } };
  }
  return { start: { line: 1, column: 0 }, end: { line: 1, column: Math.min(1, template.length) } };
}

/** Says why a helper or partial the service may know is missing here. */
function explain(message: string): string {
  if (message.startsWith('Missing helper:')) return `${message} (the preview knows only Handlebars' built-in helpers: if, unless, each, with, lookup, log)`;
  const partial = /^The partial (.+) could not be found$/.exec(message)?.[1];
  return partial === undefined ? message : `The partial "${partial}" could not be found (the preview has no partials)`;
}

/** Where a missing partial is used (partials are not available in a preview). */
function partialPlace(hb: Hbs, template: string, message: string): Loc | undefined {
  const name = /^The partial (.+) could not be found$/.exec(message)?.[1];
  if (name === undefined) return undefined;
  let found: Loc | undefined;
  const visit = (node: unknown): void => {
    if (found || !node || typeof node !== 'object') return;
    const n = node as { type?: string; name?: { original?: unknown }; loc?: Loc };
    if ((n.type === 'PartialStatement' || n.type === 'PartialBlockStatement') && String(n.name?.original) === name && n.loc) {
      found = n.loc;
      return;
    }
    for (const value of Object.values(node) as unknown[]) {
      if (!value || typeof value !== 'object' || value === n.loc) continue;
      if (Array.isArray(value)) value.forEach(visit);
      else visit(value);
    }
  };
  visit(hb.parse(template));
  return found;
}

const TOKEN_TEXT: Record<string, string> = {
  EOF: 'the end of the template',
  CLOSE: '"}}"',
  CLOSE_UNESCAPED: '"}}}"',
  OPEN: '"{{"',
  OPEN_BLOCK: '"{{#"',
  OPEN_ENDBLOCK: '"{{/"',
  OPEN_INVERSE: '"{{^"',
  INVERSE: '"{{else}}"',
  OPEN_INVERSE_CHAIN: '"{{else …}}"',
  OPEN_PARTIAL: '"{{>"',
  OPEN_SEXPR: '"("',
  CLOSE_SEXPR: '")"',
  ID: 'a name',
  STRING: 'a string',
  NUMBER: 'a number',
  SEP: '"." or "/"',
  EQUALS: '"="',
};

/** "Parse error on line 3: … Expecting 'ID', …, got 'CLOSE'" → 'Syntax error: unexpected "}}"; expected a name'. */
function syntaxMessage(raw: string, found: string): string {
  if (raw.startsWith('Lexical error')) return 'Syntax error: Handlebars cannot read the text here (an unclosed comment or mustache?)';
  const got = /got '([^']+)'\s*$/.exec(raw)?.[1];
  const expected = /Expecting (.+), got/s.exec(raw)?.[1]?.split(', ').map((t) => t.replace(/'/g, '')) ?? [];
  const readable = [...new Set(expected.map((t) => TOKEN_TEXT[t]).filter((t): t is string => t !== undefined))];
  const unexpected =
    got === 'EOF' ? 'the template ends too early (a block is not closed?)' : found.trim() ? `unexpected ${JSON.stringify(found)}` : `unexpected ${got ? (TOKEN_TEXT[got] ?? got) : 'text'}`;
  const wanted = readable.length && readable.length <= 4 ? `; expected ${readable.join(' or ')}` : '';
  return `Syntax error: ${unexpected}${wanted}`;
}
