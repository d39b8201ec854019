// A small SQLite tokenizer: just enough to tell statements apart and find keywords, so that
// comments and quoted text (`SELECT ';'`, `-- DROP TABLE x`) can never pass for SQL.

export type TokenKind = 'word' | 'quoted' | 'string' | 'number' | 'semicolon' | 'open' | 'close' | 'other';

export interface SqlToken {
  kind: TokenKind;
  text: string;
  start: number;
  end: number;
}

/** Splits SQL into tokens; whitespace and comments are dropped, an unterminated quote runs to the end. */
export function tokenizeSql(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql.charCodeAt(i);
    if (isSpace(c)) {
      i++;
    } else if (c === DASH && sql.charCodeAt(i + 1) === DASH) {
      const newline = sql.indexOf('\n', i);
      i = newline < 0 ? sql.length : newline + 1;
    } else if (c === SLASH && sql.charCodeAt(i + 1) === STAR) {
      // SQLite accepts a block comment left open at the end of the text.
      const close = sql.indexOf('*/', i + 2);
      i = close < 0 ? sql.length : close + 2;
    } else {
      const [kind, end] = readToken(sql, i, c);
      tokens.push({ kind, text: sql.slice(i, end), start: i, end });
      i = end;
    }
  }
  return tokens;
}

/** Groups tokens into statements (separated by `;`); empty statements are left out. */
export function splitStatements(tokens: readonly SqlToken[]): SqlToken[][] {
  const statements: SqlToken[][] = [];
  let current: SqlToken[] = [];
  for (const token of tokens) {
    if (token.kind === 'semicolon') {
      if (current.length > 0) statements.push(current);
      current = [];
    } else {
      current.push(token);
    }
  }
  if (current.length > 0) statements.push(current);
  return statements;
}

/** The name an identifier token stands for: quotes removed, doubled quotes undone. */
export function identifierName(token: SqlToken): string | undefined {
  if (token.kind === 'word') return token.text;
  if (token.kind !== 'quoted') return undefined;
  const open = token.text[0] ?? '';
  const close = open === '[' ? ']' : open;
  let inner = token.text.slice(1);
  if (inner.endsWith(close)) inner = inner.slice(0, -1);
  return open === '[' ? inner : inner.split(open + open).join(open);
}

const DASH = 45;
const SLASH = 47;
const STAR = 42;

function readToken(sql: string, i: number, c: number): [TokenKind, number] {
  const ch = sql[i];
  if (ch === "'") return ['string', quotedEnd(sql, i, "'")];
  if (ch === '"' || ch === '`') return ['quoted', quotedEnd(sql, i, ch)];
  if (ch === '[') {
    const close = sql.indexOf(']', i + 1);
    return ['quoted', close < 0 ? sql.length : close + 1];
  }
  if (ch === ';') return ['semicolon', i + 1];
  if (ch === '(') return ['open', i + 1];
  if (ch === ')') return ['close', i + 1];
  if (isDigit(c) || (ch === '.' && isDigit(sql.charCodeAt(i + 1)))) return ['number', numberEnd(sql, i)];
  if (isWordStart(c)) return ['word', wordEnd(sql, i + 1)];
  return ['other', i + 1];
}

/** End of a quoted run; a doubled quote character stands for itself. */
function quotedEnd(sql: string, start: number, quote: string): number {
  let j = start + 1;
  for (;;) {
    const close = sql.indexOf(quote, j);
    if (close < 0) return sql.length;
    if (sql[close + 1] !== quote) return close + 1;
    j = close + 2;
  }
}

function numberEnd(sql: string, start: number): number {
  let j = start;
  while (j < sql.length) {
    const c = sql.charCodeAt(j);
    const exponentSign = (c === 43 || c === 45) && /[eE]/.test(sql[j - 1] ?? '') && !/^0[xX]/.test(sql.slice(start, j));
    if (!(isWordChar(c) || c === 46 || exponentSign)) break;
    j++;
  }
  return j;
}

function wordEnd(sql: string, j: number): number {
  while (j < sql.length && isWordChar(sql.charCodeAt(j))) j++;
  return j;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** SQLite identifiers: letters, `_`, and any non-ASCII character; digits and `$` after the first. */
function isWordStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 128;
}

function isWordChar(c: number): boolean {
  return isWordStart(c) || isDigit(c) || c === 36;
}
