// Job watching: 50 running jobs watched by the status bar's watcher (the real one, in the extension
// host) for 60 s, the extension connected through a counting proxy; then the same jobs once they
// have all finished. Requests on the wire against the number of poll intervals.
import { isFinalStatus } from '../../src/core/jobStatus';
import type { WatchState } from '../host/protocol';
import { type CountingProxy, startCountingProxy, type RouteCounts } from '../lib/countingProxy';
import type { Figure } from '../lib/figures';
import type { HostClient, HostSession } from '../lib/hostSession';
import { type CoreBundle, startSandbox } from '../lib/services';
import { round } from '../lib/stats';

type Client = InstanceType<CoreBundle['ServiceClient']>;

const JOBS = 50;
const WINDOW_MS = 60_000;
const IDLE_MS = 30_000;
const STATUS_ROUTES = ['POST /v1/agents/jobs/statuses/', 'GET /v1/agents/jobs/{id}/status/'];
/** As the watcher's schedule says: the interval is stretched this much while the window is not focused. */
const UNFOCUSED_FACTOR = 4;

function statusRequests(counts: RouteCounts): number {
  return STATUS_ROUTES.reduce((sum, route) => sum + (counts[route] ?? 0), 0);
}

function describeCounts(counts: RouteCounts): string {
  const entries = Object.entries(counts);
  return entries.length ? entries.map(([route, n]) => `${n} × ${route}`).join(', ') : 'none';
}

/** Starts JOBS jobs spread over the demo agents; with a 10-minute step they all stay PENDING. */
async function startJobs(client: Client): Promise<string[]> {
  const agents = (await client.agents.list({ page_size: 50, include_job_stats: false })).results.filter((a) => a.current_version_id);
  if (agents.length === 0) throw new Error('The demo seed has no agent with a current version.');
  const ids: string[] = [];
  for (let i = 0; i < JOBS; i++) {
    const agent = agents[i % agents.length]!;
    const version = await client.agents.currentVersion(agent.id);
    const inputs = Object.fromEntries(version.input_definitions.map((d) => [d.key, `Benchmark job ${i}: the caller asks for a refund.`]));
    ids.push(await client.agents.run(agent.id, { inputs }));
  }
  return ids;
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

interface Counts {
  running: RouteCounts;
  idle: RouteCounts;
  started: WatchState;
  during: WatchState;
  finished: WatchState;
}

/** Watches the jobs for WINDOW_MS while they run, cancels them, then watches IDLE_MS more. */
async function count(host: HostClient, proxy: CountingProxy, client: Client, ids: string[]): Promise<Counts> {
  proxy.reset();
  const started = await host.call('watch', { ids });
  await sleep(WINDOW_MS);
  const running = proxy.counts();
  const during = await host.call('watchState');
  for (const id of ids) await client.jobs.cancel(id);
  const deadline = Date.now() + 120_000;
  while ((await host.call('watchState')).running > 0 && Date.now() < deadline) await sleep(500);
  const finished = await host.call('watchState');
  proxy.reset();
  await sleep(IDLE_MS);
  const idle = proxy.counts();
  await host.call('unwatchAll');
  return { running, idle, started, during, finished };
}

function figures({ running, idle, started, during, finished }: Counts): Figure[] {
  const interval = started.intervalMs * (during.focused ? 1 : UNFOCUSED_FACTOR);
  const intervals = WINDOW_MS / interval;
  const polls = statusRequests(running);
  const bulk = running[STATUS_ROUTES[0] as string] ?? 0;
  const finalCount = Object.entries(finished.statuses).filter(([code]) => isFinalStatus(Number(code))).reduce((sum, [, n]) => sum + n, 0);
  const common =
    `${JOBS} jobs of the demo seed on a sandbox whose jobs stay PENDING (10-minute steps), watched by the status bar's JobWatcher in the extension host; ` +
    'the extension is signed in through a counting proxy and every request it sends is counted by route. ' +
    `Watch interval ${started.intervalMs / 1000} s (the default), window ${during.focused ? 'focused' : 'not focused (interval ×4)'}.`;
  return [
    {
      key: 'watch.running',
      title: 'job watching: 50 running jobs',
      ours: `${polls} requests / ${intervals} intervals`,
      reference: `${bulk} bulk`,
      ratio: round(polls / intervals, 2),
      budget: '1 request per interval (bulk endpoint)',
      within: bulk === polls && Math.abs(polls - intervals) <= 1,
      method: `${common} Counted for ${WINDOW_MS / 1000} s from watching them. All requests: ${describeCounts(running)}. Still running at the end: ${during.running} of ${during.watched}.`,
      values: { requests: running, intervals, intervalMs: interval, focused: during.focused, running: during.running },
    },
    {
      key: 'watch.idle',
      title: 'job watching: nothing running',
      ours: `${statusRequests(idle)} requests / ${IDLE_MS / interval} intervals`,
      reference: '—',
      ratio: null,
      budget: '0 requests',
      within: statusRequests(idle) === 0,
      method: `The same ${JOBS} jobs after cancelling them (the watcher saw ${finalCount} final), still watched, counted for ${IDLE_MS / 1000} s. All requests: ${describeCounts(idle)}.`,
      values: { requests: idle, finalJobs: finalCount },
    },
  ];
}

/** Counts the watcher's requests while 50 jobs run, and once none does. */
export async function jobWatching(session: HostSession, core: CoreBundle): Promise<Figure[]> {
  const sandbox = await startSandbox('demo', ['--job-step-ms', '600000']);
  const proxy = await startCountingProxy(sandbox.baseUrl);
  const client = new core.ServiceClient({ baseUrl: sandbox.baseUrl, token: sandbox.token, organizationId: sandbox.organizationId });
  try {
    await session.host.call('connect', { baseUrl: proxy.url, organizationId: sandbox.organizationId, token: sandbox.token });
    const ids = await startJobs(client);
    // The views read their first pages after signing in; let that finish before counting.
    await sleep(3000);
    return figures(await count(session.host, proxy, client, ids));
  } finally {
    await client.close();
    await proxy.close();
    await sandbox.stop();
  }
}
