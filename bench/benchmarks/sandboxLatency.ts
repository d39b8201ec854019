// Sandbox: a page of 50 jobs with a filter and an ordering, at 100,000 jobs, one request after the
// other over a warm keep-alive connection; p50 and p99 of 1,000 requests.
import { BULK_AGENT_NAME } from '../../src/sandbox/seed/largeSeed';
import { type Figure, ms } from '../lib/figures';
import { type RawHttp, bulkAgentId } from '../lib/services';
import { percentile, round } from '../lib/stats';

const REQUESTS = 1000;
const WARM_UP = 50;
const BUDGET_P99_MS = 20;
const TRIVIAL = '/v1/datasets/?page_size=1';

/** The filter + ordering combinations the Jobs list offers, taken in turn (pages 1 to 10). */
function jobQueries(metadataPair: string | undefined, versionName: string | undefined): string[] {
  const ninetyDaysAgo = new Date(Date.now() - 90 * 86_400_000).toISOString();
  const queries = [
    'status_code=3&ordering=-duration',
    'status_code=4&ordering=created_at',
    `created_from=${encodeURIComponent(ninetyDaysAgo)}&ordering=-cost`,
    'status_code=3,4&ordering=-grader_score',
    'status_code=3&ordering=-created_at',
  ];
  if (versionName) queries.push(`version_name=${encodeURIComponent(versionName)}&ordering=-last_updated_at`);
  if (metadataPair) queries.push(`metadata=${encodeURIComponent(metadataPair)}&ordering=-created_at`);
  return queries;
}

interface JobSample {
  agent_version_name?: string;
  metadata?: Record<string, unknown> | null;
}

/** Measures the sandbox's jobs list latency on the large seed. */
export async function sandboxLatency(raw: RawHttp): Promise<Figure[]> {
  const agentId = await bulkAgentId(raw, BULK_AGENT_NAME);
  const base = `/v1/agents/${agentId}/jobs/?page_size=50`;
  const first = (await raw.get<{ count: number; results: JobSample[] }>(base)).body;
  const sample = first.results[0];
  const pair = Object.entries(sample?.metadata ?? {}).find(([, v]) => typeof v === 'string');
  const queries = jobQueries(pair ? `${pair[0]}:${String(pair[1])}` : undefined, sample?.agent_version_name);
  const pathOf = (i: number): string => `${base}&${queries[i % queries.length]}&page=${1 + (Math.floor(i / queries.length) % 10)}`;
  for (let i = 0; i < WARM_UP; i++) await raw.get(pathOf(i));
  const latencies: number[] = [];
  const trivial: number[] = [];
  const perQuery = new Map<string, number[]>();
  for (let i = 0; i < REQUESTS; i++) {
    const answer = await raw.get(pathOf(i));
    latencies.push(answer.ms);
    // Side by side, the cheapest request there is: how much of a slow answer is the machine, not the list.
    trivial.push((await raw.get(TRIVIAL)).ms);
    const key = queries[i % queries.length] as string;
    const list = perQuery.get(key) ?? [];
    list.push(answer.ms);
    perQuery.set(key, list);
  }
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  const slowest = [...perQuery.entries()].map(([query, xs]) => ({ query, p50: round(percentile(xs, 50), 2), p99: round(percentile(xs, 99), 2), max: round(Math.max(...xs), 2) }));
  return [
    {
      key: 'sandbox.jobsList',
      title: 'sandbox: jobs page at 100,000 jobs',
      ours: `p50 ${ms(p50)} · p99 ${ms(p99)}`,
      reference: `trivial request: p50 ${ms(percentile(trivial, 50))} · p99 ${ms(percentile(trivial, 99))}`,
      ratio: null,
      budget: `p99 ≤ ${BUDGET_P99_MS} ms`,
      within: p99 <= BUDGET_P99_MS,
      method:
        `${REQUESTS.toLocaleString('en-US')} GET requests, one after the other over one warm keep-alive connection (undici), after ${WARM_UP} warm-up requests, ` +
        `to the jobs list of the large seed's "${BULK_AGENT_NAME}" (${first.count.toLocaleString('en-US')} of the 100,000 jobs): page_size=50, pages 1–10, ` +
        `taking in turn ${queries.length} filter + ordering combinations (status, date range, status set, version name, metadata; ordered by duration, ` +
        'creation, cost, grader score, last update). Latency is from sending the request to the last byte of the body. Reference: after each of them, ' +
        `the cheapest request of the service (${TRIVIAL}, one dataset) on the same connection: its p99 shows how much of the tail is the shared machine.`,
      values: { trivialP50Ms: round(percentile(trivial, 50), 2), trivialP99Ms: round(percentile(trivial, 99), 2), requests: REQUESTS, p50Ms: round(p50, 2), p99Ms: round(p99, 2), maxMs: round(Math.max(...latencies), 2), perQuery: slowest, jobsOfAgent: first.count },
    },
  ];
}
