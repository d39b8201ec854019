/**
 * Complete statements read by node-sql-parser (its PostgreSQL grammar: double-quoted names, CTEs,
 * subqueries, table functions), for the tables a statement really reads. The warehouse speaks
 * ClickHouse, which the parser does not know: a statement it cannot read (or text still being typed)
 * gets undefined, and the caller falls back to the tolerant scope analysis.
 */
import { Parser } from 'node-sql-parser/build/postgresql';

export interface ParsedTables {
  /** Names read in FROM/JOIN (CTE names among them). */
  tables: string[];
  /** Names the statement's WITH declares. */
  ctes: string[];
}

const OPTIONS = { database: 'postgresql' };
let parser: Parser | undefined;
let parsedChars = 0;

/** How many characters the parser has been given so far: tests count work with it, not time. */
export function parserCharCount(): number {
  return parsedChars;
}

/** The tables and CTE names of one statement, or undefined when the parser cannot read it. */
export function parsedTables(sql: string): ParsedTables | undefined {
  parser ??= new Parser();
  parsedChars += sql.length;
  try {
    const { tableList, ast } = parser.parse(sql, OPTIONS);
    const statements = Array.isArray(ast) ? ast : [ast];
    const ctes = statements.flatMap((s) => ((s as { with?: Array<{ name?: { value?: unknown } }> | null }).with ?? []).map((w) => (typeof w.name?.value === 'string' ? w.name.value : '')));
    // Entries read `select::schema::table`; the table is the last part.
    const tables = tableList.map((entry) => entry.split('::').slice(2).join('::'));
    return { tables, ctes };
  } catch {
    return undefined;
  }
}
