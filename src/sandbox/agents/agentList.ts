import type { RequestContext } from '../context';
import { type Envelope, assertPageExists, envelope, readPage } from '../http/pagination';
import type { QueryFields } from '../http/queryParams';
import { orderBySql } from '../store/ordering';
import type { SqlParams } from '../store/database';
import { containsPattern, placeholders } from '../util';
import { AGENT_COLUMNS, AGENT_FROM, type AgentRow, baseAgentObject, tagsOfAgents } from './agentStore';

/** Orderings of the agents list (interface 4.9, plus `updated_at`) and the SQL each sorts by. */
const ORDERINGS: Record<string, string> = {
  name: 'a.name COLLATE NOCASE',
  created_at: 'a.created_ms',
  updated_at: 'a.updated_ms',
  most_recent_job: 'a.most_recent_ms',
  job_count: 'a.job_count',
  engine_class_id: 'a.engine_class_id',
  creator: "lower(coalesce(u.first_name || ' ' || u.last_name, u.email, ''))",
};

interface Filter {
  where: string[];
  params: SqlParams;
}

/** Reads the filters of the agents list into SQL conditions (every one documented in interface 4.9 and docs/service.md, Conventions). */
function readFilters(query: QueryFields, orgId: string): Filter {
  const where = ['a.org_id = ?'];
  const params: SqlParams = [orgId];
  const engines = query.list('engine_class_id');
  if (engines.length > 0) {
    where.push(`a.engine_class_id IN (${placeholders(engines.length)})`);
    params.push(...engines);
  }
  const excluded = query.list('exclude_engine_class_id');
  if (excluded.length > 0) {
    where.push(`a.engine_class_id NOT IN (${placeholders(excluded.length)})`);
    params.push(...excluded);
  }
  // Tag ids combine with OR (an agent with any of them), like django-filter's multiple choice filter.
  const tags = query.uuids('tags');
  if (tags.length > 0) {
    where.push(`a.pk IN (SELECT agent_pk FROM agent_tags WHERE tag_id IN (${placeholders(tags.length)}))`);
    params.push(...tags);
  }
  addCondition(where, params, "a.name LIKE ? ESCAPE '\\'", mapDefined(query.string('name', 200), containsPattern));
  addCondition(where, params, "a.search_text LIKE ? ESCAPE '\\'", mapDefined(query.string('search', 500), containsPattern));
  addCondition(where, params, 'a.created_ms >= ?', query.date('created_from'));
  addCondition(where, params, 'a.created_ms <= ?', query.date('created_to', true));
  addCondition(where, params, 'a.creator_id = ?', query.int('creator_id', { min: 1 }));
  addCondition(where, params, 'a.job_count >= ?', query.int('job_count_min', { min: 0 }));
  addCondition(where, params, 'a.job_count <= ?', query.int('job_count_max', { min: 0 }));
  return { where, params };
}

function addCondition(where: string[], params: SqlParams, sql: string, value: string | number | undefined): void {
  if (value === undefined) return;
  where.push(sql);
  params.push(value);
}

function mapDefined<T, U>(value: T | undefined, map: (v: T) => U): U | undefined {
  return value === undefined ? undefined : map(value);
}

/** GET /v1/agents/: one page of the organization's base agents. */
export function listAgents(ctx: RequestContext, orgId: string): Envelope<Record<string, unknown>> {
  const { query, app } = ctx;
  const page = readPage(query);
  const filter = readFilters(query, orgId);
  const ordering = query.ordering(Object.keys(ORDERINGS));
  const withStats = query.bool('include_job_stats') ?? true;
  query.finish();
  const whereSql = filter.where.join(' AND ');
  const needsCreator = filter.where.some((w) => w.includes('u.')) || ordering.some((t) => t.field === 'creator');
  const countFrom = needsCreator ? AGENT_FROM : 'agents a';
  const count = Number(app.db.value(`SELECT COUNT(*) FROM ${countFrom} WHERE ${whereSql}`, filter.params));
  assertPageExists(page, count);
  const terms = ordering.length > 0 ? ordering : [{ field: 'created_at', descending: true }];
  const rows = app.db.all<AgentRow>(
    `SELECT ${AGENT_COLUMNS} FROM ${AGENT_FROM} WHERE ${whereSql} ORDER BY ${orderBySql(terms, ORDERINGS, 'a.pk')} LIMIT ? OFFSET ?`,
    [...filter.params, page.pageSize, page.offset],
  );
  const tags = tagsOfAgents(app.db, rows.map((r) => r.pk));
  const results = rows.map((row) => baseAgentObject(row, tags.get(row.pk) ?? [], withStats));
  return envelope(ctx.req, ctx.url, page, count, results);
}
