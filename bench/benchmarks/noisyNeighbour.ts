// Sandbox: a noisy neighbour. Organization A sends the slowest legal work (a run of 500 rules over a
// 1 MB transcript, a query that runs for seconds, a 20 MB table upload), over and over, while
// organization B's ordinary traffic (a list, a table preview, a small query) is timed; B's p99 with A
// at work against B's p99 alone. The workload is shared with the test that checks the ordering.
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { startSandbox } from '../../src/sandbox/server';
import { OTHER_ORGANIZATION_ID } from '../../src/sandbox/seed/base';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_INPUTS, DEMO_LOOP_POLICY_ID } from '../../src/sandbox/seed/demoLoop';
import { type Figure, ms } from '../lib/figures';
import { percentile, round } from '../lib/stats';

const B_TOKEN = 'noisy-neighbour-b-token';
const ROUNDS = 60;
const BUDGET_RATIO = 2;
/** Rounds of A's slow work B's traffic spans. */
const A_ROUNDS = 3;

/** Calls the sandbox as one organization; answers the status and the parsed body. */
export type OrgCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: Answer }>;

/** The fields of the answers the workload reads. */
interface Answer {
  worksheet_query_id?: string;
  status?: string;
}

/** A call function for a token and an organization of a sandbox. */
export function orgCall(baseUrl: string, token: string, orgId: string): OrgCall {
  return async (method, path, body) => {
    const url = new URL(path, baseUrl);
    url.searchParams.set('organization_id', orgId);
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
    let payload: string | FormData | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }
    const response = await fetch(url, { method, headers, body: payload });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Answer };
  };
}

/** A policy of `count` rules whose titles share words with every line of {@link bigTranscript}. */
export function manyRules(count: number): unknown {
  const rules = Array.from({ length: count }, (_, i) => ({ title: `Agent explains refund policy number ${i} clearly`, flag: 'RED_FLAG' }));
  return { guidelines: { categories: [{ title: 'Many', rules }] } };
}

/** About `bytes` of transcript, line after line. */
export function bigTranscript(bytes: number): string {
  const line = 'Customer: I want to talk about the refund and the policy and the number of things here.\n';
  return line.repeat(Math.ceil(bytes / line.length));
}

/** A query that takes seconds but finishes within the sandbox's timeout. */
export const SLOW_QUERY = 'WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 3000000) SELECT count(*) FROM g';

/** Organization A's slow work, each kind once, in parallel: a big run, a slow query (to its end), a large upload. */
export async function slowWork(a: OrgCall, transcriptBytes = 1_000_000, uploadBytes = 20_000_000): Promise<void> {
  const run = a('POST', `/v1/agents/run/${DEMO_LOOP_AGENT_ID}/async/`, { ...DEMO_LOOP_INPUTS, transcript: bigTranscript(transcriptBytes) });
  const query = (async () => {
    const submitted = await a('POST', '/v1/database/query/', { query: SLOW_QUERY });
    for (;;) {
      const result = await a('GET', `/v1/database/query/${submitted.body.worksheet_query_id ?? ''}/result/`);
      if (result.body.status === 'SUCCESS' || result.body.status === 'FAILURE') return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const upload = (async () => {
    const row = 'north,12.5,3,2025-01-02,a note that makes the row longer\n';
    const form = new FormData();
    const name = `noisy_${Math.random().toString(36).slice(2, 8)}`;
    form.append('table_name', name);
    form.append('file', new Blob([`region,amount,units,day,note\n${row.repeat(Math.ceil(uploadBytes / row.length))}`], { type: 'text/csv' }), 'big.csv');
    const answer = await a('POST', '/v1/tables/upload/', form);
    if (answer.status === 201) await a('DELETE', `/v1/tables/${name}/`);
  })();
  await Promise.all([run, query, upload]);
}

/** Makes the demo loop's policy one of 500 rules: A's runs are then as slow as a legal run gets. */
export async function prepareSlowPolicy(a: OrgCall): Promise<void> {
  const answer = await a('POST', `/v1/policies/${DEMO_LOOP_POLICY_ID}/versions/`, { content: manyRules(500), version_name: '500 rules' });
  if (answer.status !== 201) throw new Error(`The 500-rule policy version was refused: ${JSON.stringify(answer.body)}`);
}

/** One round of B's ordinary traffic; answers each request's latency in ms. */
export async function ordinaryRound(b: OrgCall): Promise<number[]> {
  const timed = async (method: string, path: string, body?: unknown): Promise<number> => {
    const started = performance.now();
    const answer = await b(method, path, body);
    if (answer.status >= 400) throw new Error(`${method} ${path}: ${answer.status}`);
    return performance.now() - started;
  };
  return [await timed('GET', '/v1/agents/?page_size=10'), await timed('GET', '/v1/tables/customers/preview/'), await timed('GET', '/v1/policies/?page_size=10')];
}

/** Measures B's p99 alone and with A's slow work going on. */
export async function noisyNeighbour(): Promise<Figure[]> {
  const sandbox = await startSandbox({ port: 0, memory: true, log: () => {}, users: [{ token: B_TOKEN, organizationIds: [OTHER_ORGANIZATION_ID] }] });
  try {
    const a = orgCall(sandbox.baseUrl, sandbox.token, sandbox.organizationId);
    const b = orgCall(sandbox.baseUrl, B_TOKEN, OTHER_ORGANIZATION_ID);
    await prepareSlowPolicy(a);
    await ordinaryRound(b);
    await slowWork(a, 10_000, 10_000); // starts every thread before anything is timed
    const alone: number[] = [];
    for (let i = 0; i < ROUNDS; i++) alone.push(...(await ordinaryRound(b)));
    const withA: number[] = [];
    // A's client runs in a thread of its own (as another organization's client would be another
    // machine): only the sandbox is shared, not the event loop that times B.
    const script = `require('tsx/cjs'); require(${JSON.stringify(path.join(__dirname, 'noisyNeighbourWorker.ts'))});`;
    const noise = new Worker(script, { eval: true, workerData: { baseUrl: sandbox.baseUrl, token: sandbox.token, orgId: sandbox.organizationId } });
    let aRounds = 0;
    const finished = new Promise<void>((resolve, reject) => {
      noise.on('message', (m: { rounds: number; done: boolean }) => {
        aRounds = m.rounds;
        if (m.done) resolve();
      });
      noise.once('error', reject);
    });
    // B's traffic spans A's work: at least ROUNDS rounds, and on until A has finished A_ROUNDS rounds.
    for (let i = 0; i < ROUNDS || aRounds < A_ROUNDS; i++) withA.push(...(await ordinaryRound(b)));
    noise.postMessage('stop');
    await finished;
    await noise.terminate();
    const p99Alone = percentile(alone, 99);
    const p99WithA = percentile(withA, 99);
    return [
      {
        key: 'sandbox.noisyNeighbour',
        title: 'sandbox: noisy neighbour',
        ours: `B p99 with A at work ${ms(p99WithA)}`,
        reference: `B p99 alone ${ms(p99Alone)}`,
        ratio: round(p99WithA / p99Alone, 2),
        budget: `≤ ${BUDGET_RATIO}× alone`,
        within: p99WithA <= BUDGET_RATIO * p99Alone,
        method:
          `Organization B, ${ROUNDS} rounds of its ordinary traffic alone, then ${withA.length / 3} while A works (until A has done ${A_ROUNDS} rounds), one request after the other (a page of agents, a preview of a demo table, a page of ` +
          'policies), while organization A sends, over and over and in parallel, a run of a 500-rule policy over a 1 MB transcript, ' +
          `a query that counts to 3,000,000, and a 20 MB CSV upload (${aRounds} rounds of it), sent from a worker thread of its own. In-process sandbox, demo seed.`,
        values: { p99AloneMs: round(p99Alone, 2), p99WithAMs: round(p99WithA, 2), p50AloneMs: round(percentile(alone, 50), 2), p50WithAMs: round(percentile(withA, 50), 2), aRounds },
      },
    ];
  } finally {
    await sandbox.close();
  }
}
