/**
 * Where each query of a SQL text reads from: its FROM/JOIN sources (tables, CTEs, subqueries) with
 * their aliases, the CTEs it declares, and its select list (the columns a CTE or subquery offers).
 * Works on incomplete text: it reads tokens and parentheses, never requires the statement to parse.
 */
import { isKeyword, nameOf, tokenize, type SqlToken } from './sqlLexer';

/** A token, or a parenthesized group of items. */
export type Item = { token: SqlToken } | { group: Group };

export interface Group {
  items: Item[];
  /** Offsets inside the parentheses (the whole statement for a statement). */
  start: number;
  end: number;
}

export interface Source {
  /** A table or CTE name; absent for a subquery. */
  name?: string;
  nameToken?: SqlToken;
  alias?: string;
  /** The subquery of a derived source. */
  query?: QueryBlock;
}

export interface Cte {
  name: string;
  token: SqlToken;
  columnNames?: string[];
  query?: QueryBlock;
}

export interface QueryBlock {
  start: number;
  end: number;
  parent?: QueryBlock;
  /** A FROM subquery or a CTE body: the outer query's sources are not visible in it. */
  isolated: boolean;
  sources: Source[];
  ctes: Cte[];
  /** The items of the first SELECT's list, each a list of items. */
  selectList: Item[][];
}

/** Words after which a name is not an alias. */
const RESERVED = new Set(
  ('SELECT FROM WHERE GROUP ORDER BY HAVING LIMIT OFFSET JOIN INNER LEFT RIGHT FULL OUTER CROSS NATURAL ON USING UNION ALL ' +
    'INTERSECT EXCEPT AS WITH AND OR NOT IN IS NULL LIKE BETWEEN CASE WHEN THEN ELSE END DISTINCT WINDOW QUALIFY SETTINGS FORMAT ' +
    'ASC DESC VALUES INTO ARRAY PREWHERE FINAL SAMPLE GLOBAL ANY ASOF SEMI ANTI').split(' '),
);
const CLAUSE_END = new Set(['WHERE', 'GROUP', 'ORDER', 'HAVING', 'LIMIT', 'OFFSET', 'UNION', 'INTERSECT', 'EXCEPT', 'WINDOW', 'QUALIFY', 'SETTINGS', 'FORMAT', 'PREWHERE', 'ON', 'USING']);
/** How deep queries nest before the analysis stops looking (a guard against pathological text). */
export const MAX_DEPTH = 16;

/** One statement of the text: its tokens (comments left out) and range. */
export interface Statement {
  tokens: SqlToken[];
  start: number;
  end: number;
}

/** The statements of a text, split at `;` outside parentheses. */
export function splitStatements(text: string, tokens: readonly SqlToken[] = tokenize(text)): Statement[] {
  const out: Statement[] = [];
  let current: SqlToken[] = [];
  let start = 0;
  let depth = 0;
  for (const token of tokens) {
    if (token.kind === 'comment') continue;
    if (token.kind === 'open') depth++;
    if (token.kind === 'close') depth = Math.max(0, depth - 1);
    if (token.kind === 'semicolon' && depth === 0) {
      out.push({ tokens: current, start, end: token.start });
      current = [];
      start = token.end;
      continue;
    }
    current.push(token);
  }
  out.push({ tokens: current, start, end: text.length });
  return out;
}

/** Parentheses as groups; an unclosed one runs to the end of the statement. */
export function groupTokens(statement: Statement): Group {
  const root: Group = { items: [], start: statement.start, end: statement.end };
  const stack: Group[] = [root];
  for (const token of statement.tokens) {
    const top = stack[stack.length - 1]!;
    if (token.kind === 'open') {
      const group: Group = { items: [], start: token.end, end: statement.end };
      top.items.push({ group });
      stack.push(group);
    } else if (token.kind === 'close' && stack.length > 1) {
      top.end = token.start;
      stack.pop();
    } else {
      top.items.push({ token });
    }
  }
  return root;
}

/** Every query block of a statement, outermost first. */
export function analyzeStatement(statement: Statement): QueryBlock[] {
  const blocks: QueryBlock[] = [];
  visitGroup(groupTokens(statement), undefined, false, blocks, 0);
  return blocks;
}

export const tokenOf = (item: Item | undefined): SqlToken | undefined => (item && 'token' in item ? item.token : undefined);
const groupOf = (item: Item | undefined): Group | undefined => (item && 'group' in item ? item.group : undefined);

/** A group that is a query becomes a block; any other group is searched for queries inside. */
function visitGroup(group: Group, parent: QueryBlock | undefined, isolated: boolean, blocks: QueryBlock[], depth: number): QueryBlock | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const first = tokenOf(group.items[0]);
  if (!isKeyword(first, 'SELECT', 'WITH')) {
    for (const item of group.items) {
      const inner = groupOf(item);
      if (inner) visitGroup(inner, parent, false, blocks, depth + 1);
    }
    return undefined;
  }
  const block: QueryBlock = { start: group.start, end: group.end, parent, isolated, sources: [], ctes: [], selectList: [] };
  blocks.push(block);
  let i = 0;
  if (isKeyword(first, 'WITH')) i = readCtes(group.items, block, blocks, depth);
  readBody(group.items, i, block, blocks, depth);
  return block;
}

/** `WITH [RECURSIVE] a [(x, y)] AS (…), b AS (…)`: answers the index of the main query. */
function readCtes(items: Item[], block: QueryBlock, blocks: QueryBlock[], depth: number): number {
  let i = 1;
  if (isKeyword(tokenOf(items[i]), 'RECURSIVE')) i++;
  for (;;) {
    const token = tokenOf(items[i]);
    const name = nameOf(token);
    if (!token || name === undefined || isKeyword(token, 'SELECT')) return i;
    const cte: Cte = { name, token };
    block.ctes.push(cte);
    i++;
    const columns = groupOf(items[i]);
    if (columns) {
      cte.columnNames = columns.items.map((it) => nameOf(tokenOf(it))).filter((n): n is string => n !== undefined);
      i++;
    }
    if (isKeyword(tokenOf(items[i]), 'AS')) i++;
    const body = groupOf(items[i]);
    if (!body) return i;
    cte.query = visitGroup(body, block, true, blocks, depth + 1);
    i++;
    if (tokenOf(items[i])?.kind !== 'comma') return i;
    i++;
  }
}

/** The main query: the first select list, and the sources of every FROM and JOIN at this level. */
function readBody(items: Item[], from: number, block: QueryBlock, blocks: QueryBlock[], depth: number): void {
  let state: 'none' | 'select' | 'from' = 'none';
  let expectSource = false;
  let selectDone = false;
  let current: Item[] = [];
  for (let i = from; i < items.length; i++) {
    const item = items[i]!;
    const token = tokenOf(item);
    const word = token?.kind === 'word' ? token.text.toUpperCase() : undefined;
    if (word === 'SELECT') {
      state = 'select';
      continue;
    }
    if (word === 'FROM' || word === 'JOIN') {
      if (state === 'select' && !selectDone) {
        if (current.length) block.selectList.push(current);
        selectDone = true;
      }
      state = 'from';
      expectSource = true;
      continue;
    }
    if (word && CLAUSE_END.has(word)) {
      if (state === 'select' && !selectDone && current.length) block.selectList.push(current);
      if (state === 'select') selectDone = true;
      state = 'none';
      expectSource = false;
      continue;
    }
    if (state === 'select' && !selectDone) {
      if (token?.kind === 'comma') {
        block.selectList.push(current);
        current = [];
      } else if (!(current.length === 0 && isKeyword(token, 'DISTINCT', 'ALL'))) {
        current.push(item);
      }
    }
    if (state === 'from' && expectSource) {
      const consumed = readSource(items, i, block, blocks, depth);
      if (consumed > 0) {
        i += consumed - 1;
        expectSource = false;
        continue;
      }
    }
    if (state === 'from' && token?.kind === 'comma') {
      expectSource = true;
      continue;
    }
    const inner = groupOf(item);
    if (inner) visitGroup(inner, block, false, blocks, depth + 1);
  }
  if (state === 'select' && !selectDone && current.length) block.selectList.push(current);
}

/** A source at `items[i]`: `name`, `schema.name`, or `(subquery)`, then `[AS] alias`. Answers how many items it took. */
function readSource(items: Item[], i: number, block: QueryBlock, blocks: QueryBlock[], depth: number): number {
  let j = i;
  const source: Source = {};
  const group = groupOf(items[j]);
  if (group) {
    source.query = visitGroup(group, block, true, blocks, depth + 1);
    j++;
  } else {
    const token = tokenOf(items[j]);
    if (!token || nameOf(token) === undefined || (token.kind === 'word' && RESERVED.has(token.text.toUpperCase()))) return 0;
    source.nameToken = token;
    source.name = nameOf(token);
    j++;
    // `db.table`: the last part names the table.
    while (tokenOf(items[j])?.kind === 'dot' && nameOf(tokenOf(items[j + 1])) !== undefined) {
      source.nameToken = tokenOf(items[j + 1]);
      source.name = nameOf(source.nameToken);
      j += 2;
    }
    // A table function such as numbers(10) is not a table.
    if (groupOf(items[j])) {
      source.name = undefined;
      source.nameToken = undefined;
      j++;
    }
  }
  if (isKeyword(tokenOf(items[j]), 'AS')) j++;
  const aliasToken = tokenOf(items[j]);
  if (aliasToken && nameOf(aliasToken) !== undefined && !(aliasToken.kind === 'word' && RESERVED.has(aliasToken.text.toUpperCase()))) {
    source.alias = nameOf(aliasToken);
    j++;
  }
  block.sources.push(source);
  return j - i;
}
