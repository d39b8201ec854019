// Decides whether a query may run: exactly one statement, and a read-only one. The demo database
// is also opened with `PRAGMA query_only = ON`, and the worker checks SQLite's own idea of where
// the statement ends; this check comes first so users get a clear sentence instead of an SQLite code.

import { splitStatements, tokenizeSql, type SqlToken } from './sqlTokens';

export type GuardVerdict = { ok: true; tokens: SqlToken[] } | { ok: false; error: string };

/** Statements a `WITH` clause can lead into; only the first two read. */
const WITH_TARGETS = new Set(['SELECT', 'VALUES', 'INSERT', 'REPLACE', 'UPDATE', 'DELETE']);
const READ_TARGETS = new Set(['SELECT', 'VALUES']);

/** Accepts one `SELECT` or `WITH ... SELECT` statement; anything else gets a reason a user can act on. */
export function checkReadOnlyQuery(sql: string): GuardVerdict {
  const statements = splitStatements(tokenizeSql(sql));
  const [statement] = statements;
  if (!statement) return { ok: false, error: 'The query is empty: write one SELECT statement.' };
  if (statements.length > 1) {
    return {
      ok: false,
      error: `Only one statement can be run at a time, and this query holds ${statements.length}. Run them one by one.`,
    };
  }
  const verb = keyword(statement[0]);
  if (verb !== 'SELECT' && verb !== 'WITH') {
    const what = verb ? `${article(verb)} ${verb} statement` : 'not a SELECT statement';
    return { ok: false, error: `Only read-only SELECT or WITH queries can be run; this is ${what}.` };
  }
  if (verb === 'WITH') {
    const target = withTarget(statement);
    if (target && !READ_TARGETS.has(target)) {
      return { ok: false, error: `Only read-only queries can be run; this WITH query ends in ${article(target)} ${target} statement.` };
    }
  }
  return { ok: true, tokens: statement };
}

/** How many statements the text holds (comments and stray semicolons do not count). */
export function countStatements(sql: string): number {
  return splitStatements(tokenizeSql(sql)).length;
}

/** The statement a WITH clause leads into: the first such keyword outside the parentheses of its CTEs. */
function withTarget(tokens: readonly SqlToken[]): string | undefined {
  let depth = 0;
  for (const token of tokens) {
    if (token.kind === 'open') depth++;
    else if (token.kind === 'close') depth--;
    else if (depth === 0) {
      const word = keyword(token);
      if (word && WITH_TARGETS.has(word)) return word;
    }
  }
  return undefined;
}

function article(word: string): string {
  return /^[AEIOU]/.test(word) ? 'an' : 'a';
}

function keyword(token: SqlToken | undefined): string | undefined {
  return token?.kind === 'word' ? token.text.toUpperCase() : undefined;
}
