// What every hostile-input case asserts: the answer is a refusal with a sentence or a bounded success,
// every organization is still answered, and no organization's data changed unless the request succeeded.

import * as assert from 'node:assert/strict';
import { type Answer, OTHER_ORGANIZATION_ID, OTHER_TOKEN, type TestSandbox, eventually } from '../sandbox/helpers';

export { OTHER_ORGANIZATION_ID, OTHER_TOKEN };

/** Who is asked: the demo organization (defaults) or the other one. */
export interface Caller {
  token?: string;
  org?: string;
}

export const OTHER: Caller = { token: OTHER_TOKEN, org: OTHER_ORGANIZATION_ID };

/** A 4xx whose body says in words what was wrong (a sentence somewhere in it). */
export function assertRefusedWithSentence(answer: Answer, what = 'the request'): void {
  assert.ok(answer.status >= 400 && answer.status < 500, `${what}: expected a 4xx, got ${answer.status} ${answer.text.slice(0, 300)}`);
  assert.ok(/[A-Za-z]{2,}[^]*[.!?:]/.test(answer.text), `${what}: the refusal names no reason: ${answer.text.slice(0, 300)}`);
}

/** Runs a statement through the database query endpoint and waits for its end (status, error, rows). */
export async function runQuery(t: TestSandbox, sql: string, caller: Caller = {}): Promise<{ status: string; error: string | null; results: any[] }> {
  const submitted = await t.call('POST', '/v1/database/query/', { body: { query: sql }, ...caller });
  assert.equal(submitted.status, 202, submitted.text);
  return eventually(async () => {
    const answer = await t.call('GET', `/v1/database/query/${submitted.body.worksheet_query_id}/result/`, caller);
    return answer.body.status === 'SUCCESS' || answer.body.status === 'FAILURE' ? answer.body : undefined;
  }, 60_000, `the query ${sql.slice(0, 60)}`);
}

/** The first cell of a query that must succeed. */
export async function scalar(t: TestSandbox, sql: string, caller: Caller = {}): Promise<string | null> {
  const outcome = await runQuery(t, sql, caller);
  assert.equal(outcome.status, 'SUCCESS', outcome.error ?? '');
  return outcome.results[0].result_rows[0][0];
}

/**
 * What an organization holds, as one comparable value: its agents (with job counts and versions),
 * policies, datasets, tables and the demo customers it can read.
 */
export async function orgFingerprint(t: TestSandbox, caller: Caller = {}): Promise<unknown> {
  const get = async (path: string) => {
    const answer = await t.call('GET', path, caller);
    assert.equal(answer.status, 200, `${path}: ${answer.text.slice(0, 300)}`);
    return answer.body;
  };
  const agents = (await get('/v1/agents/?page_size=1000')).results.map((a: any) => [a.id, a.name, a.job_count, a.current_version_id]);
  const policies = (await get('/v1/policies/?page_size=1000')).results.map((p: any) => [p.id, p.name, p.current_version_id]);
  const datasets = (await get('/v1/datasets/?page_size=1000')).results.map((d: any) => [d.id, d.name]);
  const tables = (await get('/v1/tables/')).results.map((x: any) => [x.name, x.columns]);
  const customers = await scalar(t, 'SELECT count(*) FROM customers', caller);
  return { agents, policies, datasets, tables, customers };
}

/** Both organizations' fingerprints, to compare before and after a refused request. */
export async function everyOrgFingerprint(t: TestSandbox): Promise<unknown> {
  return { demo: await orgFingerprint(t), other: await orgFingerprint(t, OTHER) };
}

/** Every organization still gets ordinary answers: a list, a table preview and a query. */
export async function assertEveryOrgAnswers(t: TestSandbox): Promise<void> {
  for (const caller of [{}, OTHER]) {
    assert.equal((await t.call('GET', '/v1/agents/?page_size=1', caller)).status, 200);
    assert.equal((await t.call('GET', '/v1/tables/customers/preview/', caller)).status, 200);
    assert.equal(await scalar(t, 'SELECT 1 + 1', caller), '2');
  }
}

/** Multipart form with one CSV file. */
export function csvForm(tableName: string, csv: string): FormData {
  const data = new FormData();
  data.append('table_name', tableName);
  data.append('file', new Blob([csv], { type: 'text/csv' }), 'data.csv');
  return data;
}
