import { METADATA_FILTER_FORMAT } from '../../core/serviceDecisions';
import type { QueryFields } from '../http/queryParams';
import type { SandboxDb, SqlParams } from '../store/database';
import { containsPattern, placeholders } from '../util';
import { foldCase } from './jobInsert';

/** Orderings of the jobs list (interface 4.5) and the column each sorts by. */
export const JOB_ORDERINGS: Record<string, string> = {
  id: 'j.id',
  agent_version_name: 'j.agent_version_name',
  status_code: 'j.status_code',
  created_at: 'j.created_ms',
  last_updated_at: 'j.last_updated_ms',
  cost: 'j.cost',
  duration: 'j.duration_ms',
  grader_score: 'j.grader_score',
};

/** How many recent jobs are counted when `limit` is not given (docs/service.md, Conventions: default 100000, 0 = no cap). */
const DEFAULT_RECENT_LIMIT = 100_000;

/**
 * One SQL condition. `pageSql` is how the page query writes it when that differs (see
 * {@link readJobFilters}); `driver` is a subquery of job pks of this agent that the condition
 * amounts to, from which a count can start instead of from all of the agent's jobs.
 */
interface Condition {
  sql: string;
  pageSql?: string;
  params: SqlParams;
  driver?: { sql: string; params: SqlParams };
}

/** SQL conditions of a jobs list request (the first is always the agent). */
export interface JobFilter {
  conditions: Condition[];
}

/** The WHERE text and parameters of a filter's conditions, for the count query or the page query. */
export function whereOf(filter: JobFilter, forPage: boolean, skip?: Condition): { sql: string; params: SqlParams } {
  const conditions = filter.conditions.filter((c) => c !== skip);
  return {
    sql: conditions.map((c) => (forPage ? (c.pageSql ?? c.sql) : c.sql)).join(' AND '),
    params: conditions.flatMap((c) => c.params),
  };
}

/**
 * The count query of a filter. A condition that is a set of job pks (a metadata pair, a search)
 * drives it: the count reads that set, joined to the jobs only when other conditions remain.
 */
export function countSql(filter: JobFilter): { sql: string; params: SqlParams } {
  const driving = filter.conditions.find((c) => c.driver);
  if (!driving?.driver) {
    const where = whereOf(filter, false);
    return { sql: `SELECT COUNT(*) FROM jobs j WHERE ${where.sql}`, params: where.params };
  }
  if (filter.conditions.length === 2) return { sql: `SELECT COUNT(*) FROM (${driving.driver.sql})`, params: driving.driver.params };
  const rest = whereOf(filter, false, driving);
  return {
    sql: `SELECT COUNT(*) FROM (${driving.driver.sql}) d JOIN jobs j ON j.pk = d.job_pk WHERE ${rest.sql}`,
    params: [...driving.driver.params, ...rest.params],
  };
}

function setCondition(subquery: string, params: SqlParams): Condition {
  return { sql: `j.pk IN (${subquery})`, params, driver: { sql: subquery, params } };
}

/** Parses `key:value,key:value` (our documented format); empty, with an error recorded, when malformed. */
export function parseMetadataFilter(query: QueryFields, name: string): [string, string][] {
  const text = query.string(name, 2000);
  if (text === undefined) return [];
  const pairs: [string, string][] = [];
  for (const part of text.split(',')) {
    const colon = part.indexOf(':');
    const key = colon < 0 ? '' : part.slice(0, colon).trim();
    if (key === '') {
      query.reject(name, `Use ${METADATA_FILTER_FORMAT}, e.g. customer:Globex,channel:chat.`);
      return [];
    }
    pairs.push([key, part.slice(colon + 1).trim()]);
  }
  return pairs;
}

function statusCodes(query: QueryFields): number[] {
  const values = query.list('status_code');
  const codes: number[] = [];
  for (const v of values) {
    if (!/^\d$/.test(v) || Number(v) > 6) query.reject('status_code', `"${v}" is not a job status code (0 to 6).`);
    else codes.push(Number(v));
  }
  return codes;
}

function jobIdPrefixes(query: QueryFields): string[] {
  const values = query.list('job_id');
  const bad = values.find((v) => !/^[0-9a-f-]{1,36}$/i.test(v));
  if (bad !== undefined) query.reject('job_id', `"${bad}" is not a job id or the start of one.`);
  return bad === undefined ? values.map((v) => v.toLowerCase()) : [];
}

/**
 * Reads every filter of the jobs list into SQL conditions. `job_id` takes ids or their beginnings
 * (comma-separated, any may match); `status_code` one code or a comma-separated list; `version_name`
 * an exact name; `search` a case-insensitive contains over the id, version name, input values,
 * file names, metadata values and verdict; `job_inputs` over the inputs only; `verdict` an
 * exact verdict, any case.
 *
 * When the page is ordered by something else than creation time, date bounds are written
 * `+j.created_ms` in the page query: that keeps SQLite from picking the creation-time index and
 * sorting every job in range, and lets it walk the ordering's own index, stopping after one page.
 */
export function readJobFilters(db: SandboxDb, query: QueryFields, agentPk: number, jobCount: number, orderedByOtherThanCreation: boolean): JobFilter {
  const filter: JobFilter = { conditions: [{ sql: 'j.agent_pk = ?', params: [agentPk] }] };
  const addDate = (op: string, value: number) =>
    filter.conditions.push({ sql: `j.created_ms ${op} ?`, pageSql: orderedByOtherThanCreation ? `+j.created_ms ${op} ?` : undefined, params: [value] });
  const from = query.date('created_from');
  if (from !== undefined) addDate('>=', from);
  const to = query.date('created_to', true);
  if (to !== undefined) addDate('<=', to);
  addFieldFilters(filter, query);
  addTextFilters(filter, query, agentPk);
  const limit = query.int('limit', { min: 0 }) ?? DEFAULT_RECENT_LIMIT;
  if (limit > 0 && jobCount > limit) {
    // Only the `limit` most recent jobs count: everything from the limit-th newest job on.
    const cutoff = db.value('SELECT created_ms FROM jobs WHERE agent_pk = ? ORDER BY created_ms DESC LIMIT 1 OFFSET ?', [agentPk, limit - 1]);
    if (typeof cutoff === 'number') addDate('>=', cutoff);
  }
  return filter;
}

/** Status codes, version name, job ids and verdict: conditions on the job's own columns. */
function addFieldFilters(filter: JobFilter, query: QueryFields): void {
  const add = (sql: string, ...params: SqlParams) => filter.conditions.push({ sql, params });
  const codes = statusCodes(query);
  if (codes.length === 1) add('j.status_code = ?', codes[0]!);
  else if (codes.length > 1) add(`j.status_code IN (${placeholders(codes.length)})`, ...codes);
  const versionName = query.string('version_name', 255);
  if (versionName !== undefined) add('j.agent_version_name = ?', versionName);
  const prefixes = jobIdPrefixes(query);
  if (prefixes.length > 0) add(`(${prefixes.map(() => 'j.id LIKE ?').join(' OR ')})`, ...prefixes.map((p) => `${p}%`));
  const verdict = query.string('verdict', 200);
  if (verdict !== undefined) add('lower(j.verdict) = ?', verdict.toLowerCase());
}

/** Metadata pairs, exclusions, search and job inputs: conditions on the job's text. */
function addTextFilters(filter: JobFilter, query: QueryFields, agentPk: number): void {
  for (const [key, value] of parseMetadataFilter(query, 'metadata')) {
    filter.conditions.push(setCondition('SELECT job_pk FROM job_metadata WHERE agent_pk = ? AND key = ? AND value = ?', [agentPk, key, value]));
  }
  const excluded = parseMetadataFilter(query, 'exclude_metadata');
  if (excluded.length > 0) {
    const any = excluded.map(() => '(key = ? AND value = ?)').join(' OR ');
    filter.conditions.push({ sql: `j.pk NOT IN (SELECT job_pk FROM job_metadata WHERE agent_pk = ? AND (${any}))`, params: [agentPk, ...excluded.flat()] });
  }
  const search = query.string('search', 500);
  if (search !== undefined) {
    filter.conditions.push(setCondition('SELECT job_pk FROM job_text WHERE agent_pk = ? AND instr(text, ?) > 0', [agentPk, foldCase(search)]));
  }
  const inputs = query.string('job_inputs', 500);
  if (inputs !== undefined) filter.conditions.push({ sql: "lower(j.inputs) LIKE ? ESCAPE '\\'", params: [containsPattern(inputs)] });
}
