// Client overhead: the same 1,000 list requests through the extension's client (dist/core.js:
// limiter, timeouts, retries, error mapping, schema validation) and with raw undici.request (the
// body read and JSON-parsed), at the same concurrency, in alternating rounds against one sandbox.
import { type Figure, spread } from '../lib/figures';
import { type CoreBundle, RawHttp, type Sandbox } from '../lib/services';
import { median, round } from '../lib/stats';

const REQUESTS = 1000;
const ROUNDS = 5;
const WARM_UP = 100;
/** The client's default concurrency (maxConcurrent); the raw side uses as many connections and workers. */
const CONCURRENCY = 6;
const PAGES = 20;
const BUDGET = 0.9;

type Send = (i: number) => Promise<unknown>;

/** Runs `count` requests with CONCURRENCY workers; returns the wall time in ms. */
async function timed(send: Send, count: number, offset: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < count) await send(offset + next++);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return performance.now() - started;
}

/** Measures the client's throughput against raw undici on the agents list of the large seed. */
export async function clientOverhead(sandbox: Sandbox, core: CoreBundle): Promise<Figure[]> {
  const client = new core.ServiceClient({ baseUrl: sandbox.baseUrl, token: sandbox.token, organizationId: sandbox.organizationId, maxConcurrent: CONCURRENCY });
  const raw = new RawHttp(sandbox, CONCURRENCY);
  const page = (i: number): number => 1 + (i % PAGES);
  const viaClient: Send = (i) => client.agents.list({ page: page(i), page_size: 50 });
  const viaRaw: Send = async (i) => {
    const response = await raw.pool.request({ path: raw.url(`/v1/agents/?page=${page(i)}&page_size=50`), method: 'GET', headers: raw.headers() });
    if (response.statusCode !== 200) throw new Error(`raw list: HTTP ${response.statusCode}`);
    return response.body.json();
  };
  try {
    await timed(viaClient, WARM_UP, 0);
    await timed(viaRaw, WARM_UP, 0);
    const perRound = REQUESTS / ROUNDS;
    const clientMs: number[] = [];
    const rawMs: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Alternating which goes first keeps a drift of the machine from favouring one side.
      const order: Array<[Send, number[]]> = r % 2 === 0 ? [[viaClient, clientMs], [viaRaw, rawMs]] : [[viaRaw, rawMs], [viaClient, clientMs]];
      for (const [send, times] of order) times.push(await timed(send, perRound, r * perRound));
    }
    const perSecond = (times: number[]): number[] => times.map((t) => (perRound / t) * 1000);
    const clientRps = median(perSecond(clientMs));
    const rawRps = median(perSecond(rawMs));
    const roundRatios = clientMs.map((c, i) => (rawMs[i] as number) / c);
    const ratio = median(roundRatios);
    return [
      {
        key: 'client.overhead',
        title: 'client overhead (1,000 list requests)',
        ours: `${Math.round(clientRps)} req/s`,
        spread: spread(perSecond(clientMs), (r) => `${Math.round(r)} req/s`),
        reference: `raw undici: ${Math.round(rawRps)} req/s`,
        ratio: round(ratio, 2),
        budget: `≥ ${BUDGET}× raw throughput`,
        within: ratio >= BUDGET,
        method:
          `${REQUESTS.toLocaleString('en-US')} requests for a page of 50 agents (pages 1–${PAGES} in turn) of the large seed through the extension's ServiceClient ` +
          `(loaded from dist/core.js, so with its limiter, timeouts, retries and zod validation), and the same requests with raw undici.request ` +
          `(body read and JSON-parsed), both ${CONCURRENCY} at a time over ${CONCURRENCY} keep-alive connections, in ${ROUNDS} alternating rounds of ${perRound} ` +
          `after ${WARM_UP} warm-up requests each. Throughputs are the medians of the rounds; ratio = median of the per-round ratios (client ÷ raw).`,
        values: { clientRps: round(clientRps), rawRps: round(rawRps), clientRoundMs: clientMs.map((x) => round(x)), rawRoundMs: rawMs.map((x) => round(x)), roundRatios: roundRatios.map((x) => round(x, 3)) },
      },
    ];
  } finally {
    await client.close();
    await raw.close();
  }
}
