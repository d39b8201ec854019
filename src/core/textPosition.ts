/** Line and column of a place in a text, both counted from 1, as people read them. */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * Offsets where each line starts. `\r\n`, `\r` and `\n` all end a line, as the Handlebars lexer
 * counts them, so template positions and offsets agree whatever line endings the template has.
 */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    if (c === 10 || c === 13) starts.push(i + 1);
  }
  return starts;
}

/** The offset of a (1-based line, 0-based column) place, clamped to the text. */
export function offsetOf(text: string, line: number, column: number, starts: number[] = lineStarts(text)): number {
  const start = starts[Math.min(Math.max(line, 1), starts.length) - 1] ?? 0;
  const next = starts[Math.min(Math.max(line, 1), starts.length)] ?? text.length + 1;
  return Math.min(start + Math.max(column, 0), next - 1, text.length);
}

/** The 1-based line and column of an offset. */
export function positionOf(text: string, offset: number, starts: number[] = lineStarts(text)): TextPosition {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
}
