// Comparison: 1,000 cases × 2 targets (the results before, and the current version now) on the demo
// sandbox, driven the way the comparison view drives it: the runner starts the cases (one batch request
// per hundred), the shared job watcher follows every job (one bulk status request per interval), results
// are read in bulk as jobs finish. Counted: every request by kind. Timed: from the last result read to
// the view's rows computed (what the page is sent). Scrolling the page is not measured here.
import { JobWatcher } from '../../src/core/jobWatch';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_TRANSCRIPT } from '../../src/sandbox/seed/demoLoop';
import { type Figure, ms } from '../lib/figures';
import { type CoreBundle, startSandbox } from '../lib/services';
import { round } from '../lib/stats';

const CASES = 1000;
const INTERVAL_MS = 1000;
const BUDGET_FIRST_MS = 1000;

/** Measures requests and time to rows of a 1,000-case comparison. */
export async function comparison(core: CoreBundle): Promise<Figure[]> {
  const sandbox = await startSandbox('demo', ['--job-step-ms', '1000']);
  try {
    const client = new core.ServiceClient({ baseUrl: sandbox.baseUrl, token: sandbox.token, organizationId: sandbox.organizationId });
    const inputs = Array.from({ length: CASES }, (_, i) => ({ transcript: `${DEMO_LOOP_TRANSCRIPT}\nAgent: Reference ${i}. [ok]`, language: 'en' }));
    // The "before": jobs run first, as if the test set had been made from them.
    const before: string[] = [];
    for (let i = 0; i < CASES; i += 100) before.push(...(await client.agents.runMany(DEMO_LOOP_AGENT_ID, inputs.slice(i, i + 100))));
    const lines = before.map((id, i) => core.testCaseLine({ name: `case ${i}`, tags: [], inputs: inputs[i]!, sourceJobId: id }));
    const { cases } = core.parseTestSet('bench.testset.jsonl', lines.join('\n'));
    const record = core.newComparison({
      title: 'bench',
      agentId: DEMO_LOOP_AGENT_ID,
      testSet: 'bench.testset.jsonl',
      cases,
      targets: [
        { id: 'before', label: 'Results before', kind: 'baseline' },
        { id: 'now', label: 'Current version now', kind: 'current' },
      ],
    });

    const counts = { run: 0, polls: 0, statuses: 0, results: 0, writes: 0 };
    let lastStatusAt = -Infinity;
    const signal = new AbortController().signal;
    const service = {
      runMany: (agentId: string, batch: Record<string, unknown>[]) => {
        counts.run++;
        return client.agents.runMany(agentId, batch);
      },
      runVersion: (agentId: string, versionId: string, one: Record<string, unknown>) => {
        counts.run++;
        return client.agents.runVersion(agentId, versionId, { inputs: one });
      },
      results: async (ids: string[]) => {
        counts.results += Math.ceil(ids.length / 100);
        return (await client.jobs.results(ids)).map((r) => ({ ...r, status: typeof r.status === 'number' ? r.status : null }));
      },
      cancel: (id: string) => client.jobs.cancel(id),
    };
    const watcher = new JobWatcher(
      {
        statuses: (ids, s) => {
          counts.statuses++;
          // The watcher sends a poll's ids 100 a request, one after the other: a gap of more than a few hundred ms is a new poll.
          const now = performance.now();
          if (now - lastStatusAt > 300) counts.polls++;
          lastStatusAt = now;
          return client.jobs.statuses(ids, { signal: s });
        },
        status: (id, s) => client.jobs.status(id, { signal: s }),
      },
      { intervalMs: INTERVAL_MS },
    );
    watcher.setTrackingIntervalMs(INTERVAL_MS);
    const started = Date.now();
    let lastResultAt = 0;
    let reading = Promise.resolve();
    let done = false;
    const finished = new Promise<void>((resolve) => {
      watcher.onDidTransition((job, _from, to) => {
        core.applyStatuses(record, [{ id: job.id, status: to, createdAt: job.createdAt, lastUpdatedAt: job.lastUpdatedAt }]);
        reading = reading.then(async () => {
          if ((await core.readResults(record, service, signal)) > 0) lastResultAt = performance.now();
          if (core.isComplete(record) && !done) {
            done = true;
            resolve();
          }
        });
      });
    });
    await core.startMissing(record, service, () => {
      counts.writes++;
      return Promise.resolve();
    }, signal);
    watcher.track('comparison', core.unfinishedJobIds(record).map((id) => ({ id })));
    await finished;
    const view = core.comparisonView(record);
    const firstRowsMs = performance.now() - lastResultAt;
    const seconds = (Date.now() - started) / 1000;
    watcher.dispose();
    const intervals = Math.ceil((seconds * 1000) / INTERVAL_MS);
    return [
      {
        key: 'comparison.requests',
        title: 'comparison: 1,000 cases × 2 targets',
        ours: `${counts.run} run requests · ${counts.polls} status polls (${counts.statuses} requests of ≤ 100 ids) · ${counts.results} result requests in ${round(seconds, 1)} s; rows ${ms(firstRowsMs)} after the last result`,
        reference: `${intervals} intervals of ${INTERVAL_MS / 1000} s`,
        ratio: null,
        budget: `≤ 1 status poll per interval; rows ≤ ${BUDGET_FIRST_MS} ms after the last result`,
        within: counts.polls <= intervals + 1 && firstRowsMs <= BUDGET_FIRST_MS && view.rows.length === CASES,
        method:
          `Demo sandbox (--job-step-ms 1000). 1,000 jobs run first (the "before", 10 batch requests, not counted), then the comparison's runner starts the current ` +
          `version's 1,000 cases (one batch request per 100), the job watcher follows all 2,000 jobs with one status poll per ${INTERVAL_MS / 1000} s interval (the bulk endpoint takes 100 ids a request), and ` +
          'results are read in bulk (100 ids a request) as jobs finish. "Rows" is from the last result read to the page\'s rows computed in the extension host ' +
          '(comparisonView); painting and scrolling the page are not measured by this benchmark.',
        values: { ...counts, seconds: round(seconds, 1), intervals, firstRowsMs: round(firstRowsMs, 1), rows: view.rows.length },
      },
    ];
  } finally {
    await sandbox.stop();
  }
}
