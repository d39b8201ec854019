import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { type TestSandbox, startTestSandbox } from './helpers';

/** Times `runs` sequential calls of a request (after two warm-up calls); answers p50 and p99 in ms. */
async function measure(t: TestSandbox, path: string, runs: number, check: (body: any) => void): Promise<{ p50: number; p99: number }> {
  const dispatcher = new Agent({ connections: 1 });
  const url = new URL(path, t.baseUrl);
  url.searchParams.set('organization_id', t.orgId);
  const headers = { Authorization: `Bearer ${t.token}` };
  try {
    const times: number[] = [];
    for (let i = 0; i < runs + 2; i++) {
      const started = performance.now();
      const response = await request(url, { headers, dispatcher });
      const body = await response.body.json();
      if (i >= 2) times.push(performance.now() - started);
      if (i === 0) {
        assert.equal(response.statusCode, 200, JSON.stringify(body));
        check(body);
      }
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!;
    return { p50: at(0.5), p99: at(0.99) };
  } finally {
    await dispatcher.close();
  }
}

const sortedBy = (key: (x: any) => any, descending = false) => (body: any) => {
  const values = body.results.map(key);
  for (let i = 1; i < values.length; i++) assert.ok(descending ? values[i - 1] >= values[i] : values[i - 1] <= values[i], `sorted at ${i}`);
};

/**
 * Measures, and reports on the console, what the sandbox costs: start-up with the demo seed, the
 * build of the large seed, and list latencies at 100,000 jobs and 10,000 agents. Timings are printed,
 * not asserted (machines are noisy); the answers' correctness is asserted.
 */
describe('sandbox performance (reported, not asserted)', function () {
  this.timeout(120_000);
  const report: string[] = [];
  after(() => console.log(`\n    Sandbox figures:\n${report.map((l) => `      ${l}`).join('\n')}\n`));

  it('starts with the demo seed in memory and in a data folder (new and existing)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-startup-'));
    try {
      for (const [label, options] of [['memory', {}], ['data folder, new', { dataDir, memory: false }], ['data folder, existing', { dataDir, memory: false }]] as const) {
        const started = performance.now();
        const t = await startTestSandbox(options);
        report.push(`start-up, demo seed, ${label}: ${(performance.now() - started).toFixed(0)} ms`);
        assert.equal((await t.call('GET', '/v1/agents/')).body.count, 7);
        await t.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe('with the large seed', () => {
    let t: TestSandbox;
    let bulk: any;
    before(async () => {
      const started = performance.now();
      t = await startTestSandbox({ seed: 'large', jobStepMs: 60_000 });
      report.push(`start-up, large seed (10,000 agents, 100,000 jobs), memory: ${(performance.now() - started).toFixed(0)} ms`);
      bulk = (await t.call('GET', '/v1/agents/?name=Bulk Transcript Reviewer')).body.results[0];
    });
    after(() => t.close());

    it('holds 100,000 more jobs, half of them on one agent', async () => {
      assert.equal(bulk.job_count, 50_000);
      assert.ok((await t.call('GET', '/v1/agents/?page_size=1')).body.count >= 10_007);
    });

    it('lists a page of 50 jobs with a filter and an ordering quickly', async () => {
      const cases: [string, (body: any) => void][] = [
        ['status_code=3&ordering=-created_at', sortedBy((j) => j.created_at, true)],
        ['status_code=3&ordering=-cost', sortedBy((j) => j.cost, true)],
        ['status_code=4,5&ordering=created_at', sortedBy((j) => j.created_at)],
        ['status_code=3&ordering=-grader_score', sortedBy((j) => j.evaluation?.grader_score ?? -1, true)],
        ['created_from=2000-01-01&ordering=-duration', sortedBy((j) => j.duration_ms, true)],
        ['metadata=region:EMEA&ordering=-last_updated_at', sortedBy((j) => j.last_updated_at, true)],
        ['version_name=unnamed version&ordering=id&page=20', sortedBy((j) => j.id)],
        ['search=damaged', (body) => assert.ok(body.count > 0)],
      ];
      for (const [query, check] of cases) {
        const { p50, p99 } = await measure(t, `/v1/agents/${bulk.id}/jobs/?${query}`, 40, (body) => {
          assert.equal(body.results.length, 50);
          check(body);
        });
        report.push(`jobs of an agent with 50,000 jobs, ${query}: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
      }
    });

    it('lists 10,000 agents with job statistics quickly', async () => {
      const cases: [string, (body: any) => void][] = [
        ['', (body) => assert.ok(body.results.every((a: any) => typeof a.job_count === 'number'))],
        ['ordering=-job_count', sortedBy((a) => a.job_count, true)],
        ['ordering=name&engine_class_id=document_classifier', sortedBy((a) => a.name.toLowerCase())],
        ['ordering=-most_recent_job&include_job_stats=true', sortedBy((a) => a.most_recent_job ?? '', true)],
        ['include_job_stats=false&ordering=-updated_at', (body) => assert.ok(body.results.every((a: any) => a.job_count === null))],
        ['search=emea', (body) => assert.ok(body.count > 100)],
      ];
      for (const [query, check] of cases) {
        const { p50, p99 } = await measure(t, `/v1/agents/?${query}`, 40, check);
        report.push(`agents (10,007), ${query || 'no filter'}: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
      }
    });
  });
});
