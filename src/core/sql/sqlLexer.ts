/**
 * A tolerant SQL tokenizer for the editor: it never fails, keeps comments and strings as tokens (so
 * completion can stay silent inside them) and lets an unterminated string or comment run to the end
 * of the text, which is what the text at the cursor often is while typing.
 */

export type SqlTokenKind = 'word' | 'quoted' | 'string' | 'number' | 'comment' | 'dot' | 'comma' | 'open' | 'close' | 'semicolon' | 'operator';

export interface SqlToken {
  kind: SqlTokenKind;
  text: string;
  start: number;
  end: number;
  /** A string, quoted name or comment whose closing mark is missing. */
  open?: boolean;
}

/** Every token of the text, comments included, whitespace left out. */
export function tokenize(text: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const start = i;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '-' && text[i + 1] === '-') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
      tokens.push({ kind: 'comment', text: text.slice(start, i), start, end: i, open: nl < 0 });
      continue;
    }
    if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 2;
      tokens.push({ kind: 'comment', text: text.slice(start, i), start, end: i, open: close < 0 });
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') {
      const end = quotedEnd(text, i, ch);
      i = end.end;
      tokens.push({ kind: ch === "'" ? 'string' : 'quoted', text: text.slice(start, i), start, end: i, open: end.open });
      continue;
    }
    if (/[0-9]/.test(ch)) {
      while (i < text.length && /[0-9A-Za-z_.]/.test(text[i]!)) i++;
      tokens.push({ kind: 'number', text: text.slice(start, i), start, end: i });
      continue;
    }
    if (isWordChar(ch)) {
      while (i < text.length && (isWordChar(text[i]!) || /[0-9$]/.test(text[i]!))) i++;
      tokens.push({ kind: 'word', text: text.slice(start, i), start, end: i });
      continue;
    }
    i++;
    tokens.push({ kind: PUNCT[ch] ?? 'operator', text: ch, start, end: i });
  }
  return tokens;
}

const PUNCT: Record<string, SqlTokenKind> = { '.': 'dot', ',': 'comma', '(': 'open', ')': 'close', ';': 'semicolon' };

function isWordChar(ch: string): boolean {
  return /[A-Za-z_]/.test(ch) || ch.charCodeAt(0) >= 128;
}

function quotedEnd(text: string, start: number, quote: string): { end: number; open: boolean } {
  let j = start + 1;
  for (;;) {
    const close = text.indexOf(quote, j);
    if (close < 0) return { end: text.length, open: true };
    if (text[close + 1] !== quote) return { end: close + 1, open: false };
    j = close + 2;
  }
}

/** The name a word or quoted identifier stands for (quotes removed); undefined for other tokens. */
export function nameOf(token: SqlToken | undefined): string | undefined {
  if (!token) return undefined;
  if (token.kind === 'word') return token.text;
  if (token.kind !== 'quoted') return undefined;
  const q = token.text[0]!;
  let inner = token.text.slice(1);
  if (!token.open && inner.endsWith(q)) inner = inner.slice(0, -1);
  return inner.split(q + q).join(q);
}

/** True for a word token that is this keyword (any case). */
export function isKeyword(token: SqlToken | undefined, ...words: string[]): boolean {
  return token?.kind === 'word' && words.includes(token.text.toUpperCase());
}
