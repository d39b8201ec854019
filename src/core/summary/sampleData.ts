import { parse, type ParseError } from 'jsonc-parser';
import { syntaxWords } from '../documents/jsonSyntax';
import { positionOf, type TextPosition } from '../textPosition';

export interface SampleProblem {
  message: string;
  offset: number;
  start: TextPosition;
}

export type SampleParse = { ok: true; value: unknown } | { ok: false; problem: SampleProblem };

/**
 * Reads the sample the user edits: strict JSON (what the service would hand a template), an empty
 * text meaning no data at all. Problems come with their line and column.
 */
export function parseSample(text: string): SampleParse {
  if (!text.trim()) return { ok: true, value: {} };
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return { ok: true, value };
  const what = syntaxWords(first);
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? 's' : ''})` : '';
  return { ok: false, problem: { message: `The sample is not valid JSON: ${what}${more}`, offset: first.offset, start: positionOf(text, first.offset) } };
}
