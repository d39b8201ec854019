// Runs and results: starting a job through the extension's client against one raw request, and
// reading the results of 100 finished jobs with the bulk endpoint (requests counted) against 100
// per-job result requests — the way a naive client would read them.
import { BULK_AGENT_NAME } from '../../src/sandbox/seed/largeSeed';
import { type Figure, ms, spread } from '../lib/figures';
import { bulkAgentId, type CoreBundle, RawHttp, type Sandbox } from '../lib/services';
import { median, round } from '../lib/stats';

const ROUNDS = 7;
const JOBS = 100;
const CONCURRENCY = 6;
const SUCCESS = 3;

/** Measures Run (client vs raw) and bulk results (requests and time vs one request per job). */
export async function runs(sandbox: Sandbox, core: CoreBundle): Promise<Figure[]> {
  let requests = 0;
  const client = new core.ServiceClient({ baseUrl: sandbox.baseUrl, token: sandbox.token, organizationId: sandbox.organizationId, onRequest: () => void requests++ });
  const raw = new RawHttp(sandbox, CONCURRENCY);
  try {
    const agentId = await bulkAgentId(raw, BULK_AGENT_NAME);
    const listed = await raw.get<{ results: { id: string }[] }>(`/v1/agents/${agentId}/jobs/?page_size=${JOBS}&status_code=${SUCCESS}`);
    const ids = listed.body.results.map((j) => j.id);
    if (ids.length < JOBS) throw new Error(`The large seed gave ${ids.length} finished jobs, not ${JOBS}.`);

    // Start a job: the client (limiter, body, schema) against one raw POST of the same body.
    const body = { ticket_text: 'The customer asks for a refund of the second charge.' };
    const clientRun: number[] = [];
    const rawRun: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      let started = performance.now();
      await client.agents.run(agentId, { inputs: body });
      clientRun.push(performance.now() - started);
      started = performance.now();
      await raw.send('POST', `/v1/agents/run/${agentId}/async/`, body);
      rawRun.push(performance.now() - started);
    }

    // Results of 100 jobs: one bulk request through the client, against 100 per-job GETs (6 at a time).
    const bulkMs: number[] = [];
    const perJobMs: number[] = [];
    let bulkRequests = 0;
    for (let r = 0; r < ROUNDS; r++) {
      requests = 0;
      let started = performance.now();
      const records = await client.jobs.results(ids);
      bulkMs.push(performance.now() - started);
      bulkRequests = Math.max(bulkRequests, requests);
      if (records.length !== JOBS) throw new Error(`Bulk results answered ${records.length} records for ${JOBS} jobs.`);
      started = performance.now();
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < ids.length) await raw.send('GET', `/v1/agents/jobs/${ids[next++]}/result/`);
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      perJobMs.push(performance.now() - started);
    }
    const runRatio = median(clientRun) / median(rawRun);
    const resultsRatio = median(bulkMs) / median(perJobMs);
    return [
      {
        key: 'runs.start',
        title: 'Run: start a job through the client',
        ours: ms(median(clientRun)),
        spread: spread(clientRun, ms),
        reference: `one raw POST: ${ms(median(rawRun))}`,
        ratio: round(runRatio, 2),
        budget: '≤ 1.5× one raw request',
        within: runRatio <= 1.5,
        method:
          `${ROUNDS} alternating rounds of POST /v1/agents/run/{agent}/async/ on the large seed's bulk agent, through the extension's client (dist/core.js) ` +
          `and as one raw undici request with the same body. The tree shows the started job from the answer (no list request follows), so the ` +
          `time from Run to the row is this request plus one tree redraw; the redraw in the extension host is not part of this figure.`,
        values: { clientMs: clientRun.map((x) => round(x, 2)), rawMs: rawRun.map((x) => round(x, 2)) },
      },
      {
        key: 'runs.results100',
        title: 'results of 100 jobs',
        ours: `${bulkRequests} request${bulkRequests === 1 ? '' : 's'}, ${ms(median(bulkMs))}`,
        spread: spread(bulkMs, ms),
        reference: `100 per-job requests (${CONCURRENCY} at a time): ${ms(median(perJobMs))}`,
        ratio: round(resultsRatio, 2),
        budget: '1 request for 100 jobs',
        within: bulkRequests === 1,
        method:
          `The results of ${JOBS} finished jobs read with POST /v1/agents/jobs/results/ through the client (requests counted with its onRequest hook), ` +
          `against GET /v1/agents/jobs/{id}/result/ for each job, ${CONCURRENCY} at a time; ${ROUNDS} rounds, medians. Ratio = bulk ÷ per-job time.`,
        values: { bulkMs: bulkMs.map((x) => round(x, 2)), perJobMs: perJobMs.map((x) => round(x, 2)), bulkRequests },
      },
    ];
  } finally {
    await client.close();
    await raw.close();
  }
}
