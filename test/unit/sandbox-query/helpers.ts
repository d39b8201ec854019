import * as assert from 'node:assert/strict';
import type { QueryEngine, QueryOutcome, QueryResult } from '../../../src/sandbox/query';

/** The single result of a successful outcome; fails the test with the error otherwise. */
export function resultOf(outcome: QueryOutcome): QueryResult {
  if (outcome.status !== 'SUCCESS') assert.fail(`expected SUCCESS, got FAILURE: ${outcome.error}`);
  assert.equal(outcome.results.length, 1);
  const [result] = outcome.results;
  assert.ok(result);
  return result;
}

/** The error text of a failed outcome; fails the test if the query succeeded. */
export function errorOf(outcome: QueryOutcome): string {
  if (outcome.status !== 'FAILURE') assert.fail(`expected FAILURE, got ${outcome.results[0]?.row_count} rows`);
  return outcome.error;
}

/** Runs a query expected to succeed and returns its rows. */
export async function rowsOf(engine: QueryEngine, sql: string): Promise<(string | null)[][]> {
  return resultOf(await engine.run(sql)).result_rows;
}

/** A recursive CTE that never ends on its own. */
export const RUNAWAY_QUERY = 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r';

/** 100,000 generated rows of 12 columns of mixed types. */
export const HUNDRED_THOUSAND_ROWS = `WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 100000)
SELECT n AS id, n * 2 AS doubled, n * 1.5 AS ratio, 'row ' || n AS label,
  datetime(1735689600 + n * 60, 'unixepoch') AS created_at, date(1735689600 + n * 86400, 'unixepoch') AS day,
  CASE WHEN n % 7 = 0 THEN NULL ELSE n % 13 END AS bucket, hex(n) AS hex_id, n % 3 = 0 AS divisible,
  printf('%08d', n) AS padded, upper('x' || n) AS code, n / 3.0 AS third
FROM g`;
