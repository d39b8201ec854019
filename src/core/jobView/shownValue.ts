import { isMarkdownType } from './markdownBlocks';
import type { ShownValue } from './model';

/** The most characters of one value the page is given; the raw JSON document always has all of it. */
export const MAX_SHOWN_CHARS = 500_000;

/**
 * A service value as the job view shows it: JSON (declared by the data type, or text that is a JSON
 * object or array) pretty-printed, Markdown (declared by the data type) to be rendered, anything else
 * as text. Values past `MAX_SHOWN_CHARS` are cut, and say so.
 */
export function shownValue(value: unknown, dataType?: string | null): ShownValue {
  if (value === null || value === undefined) return text('');
  if (typeof value !== 'string') return json(value);
  if (isMarkdownType(dataType) && value.trim()) return { ...text(value), kind: 'markdown' };
  const trimmed = value.trim();
  const declared = /json/i.test(dataType ?? '');
  if (declared || /^[[{]/.test(trimmed)) {
    try {
      return json(JSON.parse(trimmed));
    } catch {
      // Not JSON after all (or cut short): shown as the text it is.
    }
  }
  return text(value);
}

/** Two values are the same answer when their shown forms match (JSON compared by content, not spacing). */
export function sameValue(a: ShownValue, b: ShownValue): boolean {
  return a.kind === b.kind && a.text === b.text;
}

function json(value: unknown): ShownValue {
  const pretty = JSON.stringify(value, null, 2) ?? String(value);
  // A JSON string is text to read, not a JSON document to fold.
  if (typeof value === 'string') return text(value);
  return { ...text(pretty), kind: 'json' };
}

function text(value: string): ShownValue {
  const cut = value.length > MAX_SHOWN_CHARS;
  const shown = cut ? `${value.slice(0, MAX_SHOWN_CHARS)}\n… (${(value.length - MAX_SHOWN_CHARS).toLocaleString('en-US')} more characters: open the raw JSON to see all)` : value;
  return { kind: 'text', text: shown, lines: countLines(shown) };
}

function countLines(value: string): number {
  let lines = 1;
  for (let i = value.indexOf('\n'); i >= 0; i = value.indexOf('\n', i + 1)) lines++;
  return lines;
}
