// POST /v1/tables/query/ and its result: a read-only statement over the organization's tables (the
// demo ones and its uploads), run by the same query engine as the database queries, capped at
// `limit` rows (1–1000, default 1000), with `truncated` when the cap was hit.

import { found, requireOrganization } from '../access';
import { type Handler, ok } from '../context';
import { readJsonObject } from '../http/body';
import { BodyFields } from '../http/fields';
import { Msg } from '../http/errors';
import { iso, newId, parseJson } from '../util';
import { rowsOf } from './tableValues';

const MAX_SQL = 65_536;
export const QUERY_LIMIT = { min: 1, max: 1000, default: 1000 };

interface StoredResult {
  columns: unknown[];
  rows: unknown[];
  row_count: number;
  truncated: boolean;
  execution_time_ms: number;
}

/** 202 `{table_query_id, status, created_at}`; the query runs behind the answer. */
export const submitTableQuery: Handler = async (ctx) => {
  const body = await readJsonObject(ctx.req, ctx.app.limits.jsonBytes);
  const orgId = requireOrganization(ctx, body.organization_id);
  const f = new BodyFields(body);
  const sql = f.string('sql', { required: true, max: MAX_SQL });
  const limit = readLimit(f);
  f.finish();
  const id = newId();
  const now = ctx.app.now();
  const { db } = ctx.app;
  db.run('INSERT INTO sandbox_table_queries (id, org_id, sql, row_limit, status, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, orgId, sql!, limit, 'PENDING', now, now]);
  const setStatus = (status: string, result: StoredResult | null, error: string | null): void => {
    try {
      db.run('UPDATE sandbox_table_queries SET status = ?, result = ?, error = ?, updated_ms = ? WHERE id = ?', [status, result ? JSON.stringify(result) : null, error, ctx.app.now(), id]);
    } catch (e) {
      ctx.app.log(`sandbox: could not record table query ${id}: ${(e as Error).message}`);
    }
  };
  void ctx.app.queries.run(sql!, { maxRows: limit, scope: ctx.app.tables.scope(orgId) }).then((outcome) => {
    if (outcome.status === 'FAILURE') return setStatus('FAILURE', null, outcome.error);
    const [first] = outcome.results;
    if (!first) return setStatus('FAILURE', null, 'The query gave no result.');
    const { columns, rows } = rowsOf(first);
    setStatus('SUCCESS', { columns, rows, row_count: rows.length, truncated: first.truncated, execution_time_ms: first.summary.elapsed_ns / 1e6 }, null);
  });
  // PENDING until the engine (one statement at a time) answers; then SUCCESS or FAILURE.
  return ok({ table_query_id: id, status: 'PENDING', created_at: iso(now) }, 202);
};

function readLimit(f: BodyFields): number {
  if (!f.has('limit') || f.body.limit === null) return QUERY_LIMIT.default;
  const value = f.body.limit;
  if (typeof value !== 'number' || !Number.isInteger(value)) f.fail('limit', Msg.integer);
  else if (value < QUERY_LIMIT.min) f.fail('limit', Msg.minValue(QUERY_LIMIT.min));
  else if (value > QUERY_LIMIT.max) f.fail('limit', Msg.maxValue(QUERY_LIMIT.max));
  else return value;
  return QUERY_LIMIT.default;
}

/** GET /v1/tables/query/{id}/result/: status, and columns, rows and counters once it succeeded. */
export const tableQueryResult: Handler = (ctx) => {
  const orgId = requireOrganization(ctx);
  const row = found(
    ctx.app.db.get<{ id: string; status: string; result: string | null; error: string | null }>(
      'SELECT id, status, result, error FROM sandbox_table_queries WHERE id = ? AND org_id = ?',
      [ctx.params.table_query_id!, orgId],
    ),
  );
  const result = parseJson<StoredResult>(row.result);
  return ok({
    table_query_id: row.id,
    status: row.status,
    error: row.error,
    columns: result?.columns ?? [],
    rows: result?.rows ?? [],
    row_count: result?.row_count ?? 0,
    truncated: result?.truncated ?? false,
    execution_time_ms: result?.execution_time_ms ?? 0,
  });
};
