/** Every operation of the sandbox as a template, the ids an organization owns, and a sender that keeps the exact path. */
import * as http from 'node:http';

/** Ids of things one user can see in one organization, by kind (the slots of the route templates). */
export interface OrgIds {
  org: string;
  agent: string;
  version: string;
  job: string;
  policy: string;
  policyVersion: string;
  dataset: string;
  file: string;
  query: string;
}

export type Slot = Exclude<keyof OrgIds, 'org'>;

/** One operation: method, path with `{slot}`s, and a body the sandbox accepts (for near-valid variations). */
export interface RouteTemplate {
  method: string;
  path: string;
  body?: 'json' | 'multipart';
  valid?: (ids: OrgIds) => unknown;
}

const CONTENT = {
  guidelines: { categories: [{ title: 'Tone', description: 'd', rules: [{ title: 'Greet', description: 'd', flag: 'GREEN_FLAG', sub_rules: [{ title: 'By name' }] }] }] },
  instructions: 'Be kind.',
  dispositions: { classifications: [{ name: 'Resolved', description: 'd', prompt: 'p' }] },
  summary_template: { template: '{{customer}} called about {{topic}}.' },
};
const DEFINITIONS = [{ key: 'transcript', data_type: 'text/plain', description: 'd', example: 'e', accepts_multiple_files: false }];

/** Every route of the sandbox. */
export const ROUTES: RouteTemplate[] = [
  { method: 'GET', path: '/v1/agents/' },
  { method: 'POST', path: '/v1/agents/', body: 'json', valid: () => ({ name: 'New agent', engine_class_id: 'document_classifier', version_name: 'v1', description: 'd', input_definitions: DEFINITIONS, engine_config: { prompt: 'p' } }) },
  { method: 'GET', path: '/v1/agents/{agent}/' },
  { method: 'PUT', path: '/v1/agents/{agent}/', body: 'json', valid: () => ({ name: 'Renamed', disable_cache: true, cache_failed_jobs: false, description: 'd' }) },
  { method: 'PATCH', path: '/v1/agents/{agent}/', body: 'json', valid: () => ({ disable_cache: false }) },
  { method: 'POST', path: '/v1/agents/{agent}/duplicate/', body: 'json', valid: () => ({ name: 'Copy' }) },
  { method: 'GET', path: '/v1/agents/{agent}/versions/' },
  { method: 'POST', path: '/v1/agents/{agent}/versions/', body: 'json', valid: () => ({ input_definitions: DEFINITIONS, engine_config: { prompt: 'p' }, version_name: 'v', description: null }) },
  { method: 'GET', path: '/v1/agents/{agent}/versions/current/' },
  { method: 'GET', path: '/v1/agents/{agent}/versions/{version}/' },
  { method: 'GET', path: '/v1/agents/{agent}/jobs/' },
  { method: 'POST', path: '/v1/agents/run/{agent}/async/', body: 'json', valid: () => ({ transcript: 'Hello', language: 'en', metadata: { ticket: 42 } }) },
  { method: 'GET', path: '/v1/agents/jobs/{job}/status/' },
  { method: 'POST', path: '/v1/agents/jobs/statuses/', body: 'json', valid: (ids) => ({ job_ids: [ids.job] }) },
  { method: 'POST', path: '/v1/agents/jobs/{job}/cancel/' },
  { method: 'GET', path: '/v1/policies/' },
  { method: 'POST', path: '/v1/policies/', body: 'json', valid: () => ({ name: 'New policy', description: 'd', content: CONTENT, version_name: 'first' }) },
  { method: 'GET', path: '/v1/policies/{policy}/' },
  { method: 'PUT', path: '/v1/policies/{policy}/', body: 'json', valid: () => ({ name: 'Renamed policy', description: 'd' }) },
  { method: 'PATCH', path: '/v1/policies/{policy}/', body: 'json', valid: () => ({ description: 'changed' }) },
  { method: 'DELETE', path: '/v1/policies/{policy}/' },
  { method: 'GET', path: '/v1/policies/{policy}/versions/' },
  { method: 'POST', path: '/v1/policies/{policy}/versions/', body: 'json', valid: (ids) => ({ version_name: 'next', content: CONTENT, base_version_id: ids.policyVersion }) },
  { method: 'GET', path: '/v1/policies/{policy}/versions/{policyVersion}/' },
  { method: 'GET', path: '/v1/datasets/' },
  { method: 'GET', path: '/v1/datasets/{dataset}/files/' },
  { method: 'DELETE', path: '/v1/datasets/{dataset}/files/{file}/' },
  { method: 'POST', path: '/v1/datasets/files/upload/', body: 'multipart' },
  { method: 'POST', path: '/v1/database/query/', body: 'json', valid: () => ({ query: 'SELECT 1' }) },
  { method: 'GET', path: '/v1/database/query/{query}/result/' },
  { method: 'POST', path: '/v1/agents/run/{agent}/versions/{version}/async/', body: 'json', valid: () => ({ transcript: 'Hello', language: 'en' }) },
  { method: 'POST', path: '/v1/agents/run/{agent}/async/many/', body: 'json', valid: () => ({ inputs: [{ transcript: 'Hello', language: 'en' }, { transcript: 'Bye', language: 'en' }] }) },
  { method: 'POST', path: '/v1/agents/run/{agent}/', body: 'json', valid: () => ({ transcript: 'Hello', language: 'en', metadata: { ticket: 1 } }) },
  { method: 'POST', path: '/v1/agents/{agent}/jobs/cancel-all/' },
  { method: 'GET', path: '/v1/agents/jobs/{job}/result/' },
  { method: 'POST', path: '/v1/agents/jobs/results/', body: 'json', valid: (ids) => ({ job_ids: [ids.job] }) },
  { method: 'GET', path: '/v1/agents/types/' },
  { method: 'GET', path: '/v1/agents/models/' },
  { method: 'GET', path: '/v1/users/current_user/' },
];

/** The live service's way of saying a job has no result data: 500 with no body, on that one route only. */
export function isNoResultAnswer(method: string, target: string, answer: { status: number; text: string }): boolean {
  return method === 'GET' && /^\/v1\/agents\/jobs\/[^/]+\/result\/(\?|$)/.test(target) && answer.status === 500 && answer.text === '';
}

/** The slots a path names, in order. */
export function slotsOf(path: string): Slot[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as Slot);
}

/** A request exactly as it goes on the wire. */
export interface WireRequest {
  method: string;
  /** Path and query, sent unchanged (no normalising of `..` or escapes). */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** What came back. */
export interface WireAnswer {
  status: number;
  text: string;
  contentType: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });

/** Sends a request with the target as given; rejects only when the connection fails. */
export function send(baseUrl: string, request: WireRequest): Promise<WireAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const headers = { ...request.headers, 'Content-Length': String(request.body?.length ?? 0) };
    const req = http.request({ hostname, port, method: request.method, path: request.target, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), contentType: String(res.headers['content-type'] ?? '') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(request.body);
  });
}

/** Reads the ids one user sees in one organization (the first of each kind), by plain GETs. */
export async function collectIds(baseUrl: string, token: string, org: string): Promise<OrgIds> {
  const get = async (path: string): Promise<any> => {
    const answer = await send(baseUrl, { method: 'GET', target: `${path}${path.includes('?') ? '&' : '?'}organization_id=${org}`, headers: { Authorization: `Bearer ${token}` } });
    if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${answer.text}`);
    return JSON.parse(answer.text);
  };
  const agentRow = (await get('/v1/agents/?page_size=1&ordering=name')).results[0];
  const policy = (await get('/v1/policies/?page_size=1&ordering=name')).results[0];
  const dataset = (await get('/v1/datasets/?page_size=1&ordering=name')).results[0];
  const submitted = await send(baseUrl, {
    method: 'POST', target: `/v1/database/query/?organization_id=${org}`,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: Buffer.from('{"query":"SELECT 1"}'),
  });
  return {
    org, agent: agentRow.id, version: agentRow.current_version_id, job: (await get(`/v1/agents/${agentRow.id}/jobs/?page_size=1`)).results[0].id,
    policy: policy.id, policyVersion: policy.current_version_id, dataset: dataset.id,
    file: (await get(`/v1/datasets/${dataset.id}/files/?page_size=1`)).results[0].id, query: JSON.parse(submitted.text).worksheet_query_id,
  };
}
