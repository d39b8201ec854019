/** Random requests for every sandbox operation: ids of the right and the wrong kind, junk, near-valid and hostile bodies. */
import fc from 'fast-check';
import { mutate, mutationArb } from './jsonMutations';
import { type OrgIds, ROUTES, type RouteTemplate, type Slot, type WireRequest, slotsOf } from './sandboxRoutes';

/** Ids the requests may name: the caller's own, and other organizations' (which must never be reachable). */
export interface IdPools {
  own: OrgIds;
  foreign: OrgIds[];
}

const JUNK_SEGMENTS = ['..', '.', '%2e%2e', '%2F', '%00', 'null', '-1', '0', '%27', 'a%', '%E0%A4%A', '%7Bid%7D', 'current', '00000000-0000-0000-0000-000000000000'];
const QUERY_NAMES = ['page', 'page_size', 'ordering', 'search', 'name', 'status_code', 'created_from', 'created_to', 'metadata', 'exclude_metadata', 'tags',
  'limit', 'job_id', 'engine_class_id', 'exclude_engine_class_id', 'include_job_stats', 'semantic_string', 'job_count_min', 'job_count_max', 'creator_id',
  'version_name', 'verdict', 'job_inputs', 'get_supports_eval', 'dataset_id', 'organization_id'];
const BODY_FIELDS = ['name', 'engine_class_id', 'description', 'disable_cache', 'cache_failed_jobs', 'version_name', 'input_definitions', 'engine_config',
  'content', 'base_version_id', 'job_ids', 'query', 'transcript', 'language', 'metadata', 'organization_id', 'dataset_id'];
const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'application/vnd.api+json', 'multipart/form-data'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const all = (pools: IdPools): OrgIds[] => [pools.own, ...pools.foreign];
const idsOf = (pools: IdPools, slot: Slot | 'org'): string[] => all(pools).map((ids) => ids[slot]);
const anyId = (pools: IdPools): string[] => all(pools).flatMap((ids) => Object.values(ids));

/** A value for one path slot: mostly an id of that kind, else another kind, a random UUID, or junk. */
function slotValue(pools: IdPools, slot: Slot): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant(pools.own[slot]) },
    { weight: pools.foreign.length > 0 ? 3 : 0, arbitrary: fc.constantFrom(...idsOf(pools, slot)) },
    { weight: 1, arbitrary: fc.constantFrom(...anyId(pools)) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.constant(pools.own[slot].toUpperCase()) },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...JUNK_SEGMENTS), fc.string({ maxLength: 40 }).map(encodeURIComponent)) },
  );
}

/** An id-ish or junk value for a body field or query parameter. */
function looseValue(pools: IdPools): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(...anyId(pools)),
    fc.array(fc.constantFrom(...anyId(pools)), { maxLength: 3 }),
    fc.jsonValue({ maxDepth: 3 }),
    fc.string({ unit: 'binary', maxLength: 30 }),
  );
}

/** The query string: `organization_id` (own, foreign, none, junk, twice) and up to five other parameters. */
function queryArb(pools: IdPools): fc.Arbitrary<string> {
  const org = fc.oneof(
    { weight: 6, arbitrary: fc.constant([pools.own.org]) },
    { weight: pools.foreign.length > 0 ? 3 : 0, arbitrary: fc.constantFrom(...idsOf(pools, 'org')).map((o) => [o]) },
    { weight: 1, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => [s]) },
    { weight: 1, arbitrary: fc.shuffledSubarray(idsOf(pools, 'org'), { minLength: 2 }) },
  );
  const value = fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom(...anyId(pools)), fc.integer().map(String), fc.constantFrom('-name', 'created_at,-id', '3', 'true'));
  const pairs = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_NAMES), fc.string({ maxLength: 8 })), value), { maxLength: 5 });
  return fc.tuple(org, pairs).map(([orgs, rest]) => new URLSearchParams([...orgs.map((o): [string, string] => ['organization_id', o]), ...rest]).toString());
}

/** A JSON body for a writing route: near-valid variations of a body it accepts, arbitrary JSON, junk text, deep nesting. */
function jsonBodyArb(route: RouteTemplate, pools: IdPools): fc.Arbitrary<string> {
  const valid = route.valid?.(pools.own) ?? {};
  const deep = fc.tuple(fc.integer({ min: 200, max: 5000 }), fc.boolean()).map(([n, arrays]) =>
    arrays ? `{"name": ${'['.repeat(n)}1${']'.repeat(n)}}` : `{"content": ${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(JSON.stringify(valid)) },
    { weight: 5, arbitrary: fc.array(mutationArb(), { minLength: 1, maxLength: 3 }).map((m) => JSON.stringify(mutate(valid, m))) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: fc.dictionary(fc.constantFrom(...BODY_FIELDS), looseValue(pools)).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
    { weight: 1, arbitrary: deep },
  );
}

/** A multipart upload form: random fields, a file with any name, sometimes cut short or malformed. */
function multipartArb(pools: IdPools): fc.Arbitrary<{ body: string; type: string }> {
  const boundary = 'prop-boundary-7f3a';
  const field = fc.tuple(
    fc.oneof(fc.constantFrom('dataset_id', 'organization_id', 'metadata', 'note'), fc.string({ maxLength: 8 }).map((s) => s.replace(/["\r\n]/g, ''))),
    fc.oneof(fc.constantFrom(...anyId(pools)), fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)), fc.string({ maxLength: 30 }).map((s) => s.replace(/\r/g, ''))),
  );
  const fileName = fc.oneof(fc.constantFrom('a.txt', '../../x.txt', '/etc/passwd', 'C:\\\\x.csv', '..', ''), fc.string({ maxLength: 30 }).map((s) => s.replace(/["\r\n\\]/g, '_')));
  const file = fc.option(fc.tuple(fileName, fc.string({ maxLength: 200 })), { nil: undefined });
  return fc.tuple(fc.array(field, { maxLength: 4 }), file, fc.constantFrom('whole', 'cut', 'no-end', 'garbage')).map(([fields, upload, shape]) => {
    let body = fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('');
    if (upload) body += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${upload[0]}"\r\nContent-Type: text/plain\r\n\r\n${upload[1]}\r\n`;
    body += `--${boundary}--\r\n`;
    if (shape === 'cut') body = body.slice(0, Math.floor(body.length / 2));
    if (shape === 'no-end') body = body.replace(`--${boundary}--\r\n`, '');
    if (shape === 'garbage') body = `garbage\r\n${body}`;
    return { body, type: `multipart/form-data; boundary=${boundary}` };
  });
}

/** A request to one route with everything random: path ids, query, body, media type, sometimes the wrong method. */
export function requestArb(pools: IdPools, token: string): fc.Arbitrary<WireRequest> {
  return fc.constantFrom(...ROUTES).chain((route) => {
    const slots = slotsOf(route.path).map((slot) => slotValue(pools, slot));
    const body: fc.Arbitrary<{ body?: string; type?: string }> = route.body === 'multipart'
      ? multipartArb(pools)
      : route.body === 'json'
        ? fc.tuple(jsonBodyArb(route, pools), fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) })).map(([b, type]) => ({ body: b, type }))
        : fc.oneof({ weight: 5, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => ({ body: JSON.stringify(v), type: 'application/json' })) });
    const method = fc.oneof({ weight: 9, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) });
    return fc.tuple(fc.tuple(...slots), queryArb(pools), body, method, fc.boolean()).map(([values, query, payload, verb, slash]): WireRequest => {
      let i = 0;
      let path = route.path.replace(/\{\w+\}/g, () => values[i++]!);
      if (!slash) path = path.replace(/\/$/, '');
      const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
      if (payload.type) headers['Content-Type'] = payload.type;
      return { method: verb, target: `${path}${query ? `?${query}` : ''}`, headers, body: payload.body === undefined ? undefined : Buffer.from(payload.body) };
    });
  });
}

/** A one-line description of a request for failure messages. */
export function describeRequest(request: WireRequest): string {
  const body = request.body ? ` ${request.body.toString().slice(0, 300)}` : '';
  return `${request.method} ${request.target.slice(0, 300)} [${request.headers['Content-Type'] ?? 'no type'}]${body}`;
}
