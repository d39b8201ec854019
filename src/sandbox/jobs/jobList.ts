import type { AgentRow } from '../agents/agentStore';
import { orderBySql } from '../store/ordering';
import type { RequestContext } from '../context';
import { type Envelope, type PageRequest, assertPageExists, envelope, readPage } from '../http/pagination';
import type { OrderTerm } from '../http/queryParams';
import type { SqlValue } from 'sql.js';
import { placeholders } from '../util';
import { JOB_ORDERINGS, type JobFilter, countSql, readJobFilters, whereOf } from './jobFilters';
import { JOB_COLUMNS, JOB_FROM, type JobRow, jobObject } from './jobStore';
import { rankBySimilarity } from './semantic';

const DEFAULT_ORDER: OrderTerm[] = [{ field: 'created_at', descending: true }];

/** GET /v1/agents/{agent_id}/jobs/: one page of the agent's jobs. */
export function listJobs(ctx: RequestContext, agent: AgentRow): Envelope<Record<string, unknown>> {
  const { query, app } = ctx;
  const page = readPage(query);
  const ordering = query.ordering(Object.keys(JOB_ORDERINGS));
  const byOther = ordering.length > 0 && ordering[0]!.field !== 'created_at';
  const filter = readJobFilters(app.db, query, agent.pk, agent.job_count, byOther);
  const semantic = query.string('semantic_string', 2000);
  query.finish();
  if (semantic !== undefined) return semanticPage(ctx, filter, ordering, semantic, page);
  const counting = countSql(filter);
  const count = Number(app.db.value(counting.sql, counting.params));
  assertPageExists(page, count);
  const where = whereOf(filter, true);
  const orderSql = orderBySql(ordering.length > 0 ? ordering : DEFAULT_ORDER, JOB_ORDERINGS, 'j.pk');
  const rows = app.db.all<JobRow>(`SELECT ${JOB_COLUMNS} FROM ${JOB_FROM} WHERE ${where.sql} ORDER BY ${orderSql} LIMIT ? OFFSET ?`, [
    ...where.params,
    page.pageSize,
    page.offset,
  ]);
  return envelope(ctx.req, ctx.url, page, count, rows.map(jobObject));
}

type Candidate = Record<string, SqlValue> & { pk: number; text: string };

/**
 * The `semantic_string` path: scores every job that passes the other filters (see semantic.ts),
 * keeps those above the threshold, and orders them by similarity unless `ordering` is given. Each
 * result carries its `similarity` (0 to 1).
 */
function semanticPage(ctx: RequestContext, filter: JobFilter, ordering: OrderTerm[], semantic: string, page: PageRequest): Envelope<Record<string, unknown>> {
  const { db } = ctx.app;
  const sortColumns = Object.entries(JOB_ORDERINGS).map(([field, column]) => `${column} AS ${field}`).join(', ');
  const where = whereOf(filter, false);
  const candidates = db.all<Candidate>(
    `SELECT j.pk, t.text, ${sortColumns} FROM jobs j JOIN job_text t ON t.agent_pk = j.agent_pk AND t.job_pk = j.pk WHERE ${where.sql}`,
    where.params,
  );
  const ranked = rankBySimilarity(semantic, candidates.map((c) => ({ key: c, text: c.text })));
  if (ordering.length > 0) ranked.sort((x, y) => compareByOrdering(x.key, y.key, ordering));
  assertPageExists(page, ranked.length);
  const slice = ranked.slice(page.offset, page.offset + page.pageSize);
  const pks = slice.map((r) => r.key.pk);
  const rows = pks.length === 0 ? [] : db.all<JobRow>(`SELECT ${JOB_COLUMNS} FROM ${JOB_FROM} WHERE j.pk IN (${placeholders(pks.length)})`, pks);
  const byPk = new Map(rows.map((r) => [r.pk, r]));
  const results = slice.flatMap((r) => {
    const row = byPk.get(r.key.pk);
    return row ? [{ ...jobObject(row), similarity: Math.round(r.score * 10_000) / 10_000 }] : [];
  });
  return envelope(ctx.req, ctx.url, page, ranked.length, results);
}

/** Compares like SQLite's ORDER BY: NULL before any value, then numbers or text; pk breaks ties. */
function compareByOrdering(a: Candidate, b: Candidate, ordering: OrderTerm[]): number {
  for (const term of ordering) {
    const result = compareValues(a[term.field] ?? null, b[term.field] ?? null);
    if (result !== 0) return term.descending ? -result : result;
  }
  const last = ordering[ordering.length - 1]!;
  return last.descending ? b.pk - a.pk : a.pk - b.pk;
}

function compareValues(x: SqlValue, y: SqlValue): number {
  if (x === y) return 0;
  if (x === null) return -1;
  if (y === null) return 1;
  return x < y ? -1 : 1;
}
