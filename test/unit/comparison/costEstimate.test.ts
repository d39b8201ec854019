// What a comparison will cost, said before it starts: from the same cases' earlier results, else the
// agent's recent jobs; a ceiling above which the start is confirmed twice.
import * as assert from 'node:assert/strict';
import { newComparison } from '../../../src/core/comparison/comparisonRecord';
import { costFigure, estimateCost, estimateJobIds, estimateJobs, estimateText, overCeiling, type JobUsage } from '../../../src/core/comparison/costEstimate';

const cases = (n: number, withSource = true) =>
  Array.from({ length: n }, (_, i) => ({ line: i + 1, tags: [], inputs: { transcript: `call ${i}` }, ...(withSource ? { sourceJobId: `job-${i}` } : {}) }));

const record = (n: number, withSource = true) =>
  newComparison({
    title: 't', agentId: 'agent', testSet: 'cases.jsonl', cases: cases(n, withSource),
    targets: [{ id: 'before', label: 'Before', kind: 'baseline' }, { id: 'now', label: 'Now', kind: 'current' }],
  });

describe('comparison: the cost estimate', () => {
  it('asks for the earlier results of the cases to start, in one list', () => {
    assert.deepEqual(estimateJobIds(record(3)), ['job-0', 'job-1', 'job-2']);
    assert.deepEqual(estimateJobIds(record(3, false)), []);
  });

  it('counts each case at what the same case cost before', () => {
    const read = new Map<string, JobUsage>([
      ['job-0', { cost: 0.01, inputTokens: 1000, outputTokens: 200 }],
      ['job-1', { cost: 0.03, inputTokens: 3000, outputTokens: 600 }],
    ]);
    const estimate = estimateCost(record(2), read, []);
    assert.equal(estimate.jobs, 2);
    assert.equal(estimate.tokens, 4800);
    assert.ok(Math.abs(estimate.cost! - 0.04) < 1e-12);
    assert.equal(estimate.basis, 'the same cases before');
    assert.deepEqual(estimate.costRange?.map((c) => Math.round(c * 1000) / 1000), [0, 0.08]);
    assert.equal(estimateText(estimate), '2 jobs, about 4.8k tokens, about 0.04 credits (likely 0–0.08; estimated from the same cases before)');
  });

  it('falls back on the agent’s recent jobs, and says when nothing tells', () => {
    const recent: JobUsage[] = [{ cost: 0.02, inputTokens: 100, outputTokens: 100 }, { cost: 0.04, inputTokens: 300, outputTokens: 100 }];
    const estimate = estimateCost(record(10, false), new Map(), recent);
    assert.equal(estimate.tokens, 3000);
    assert.ok(Math.abs(estimate.cost! - 0.3) < 1e-12);
    assert.equal(estimate.basis, '2 recent jobs of the agent');
    assert.equal(estimateText(estimateCost(record(4, false), new Map(), [])), '4 jobs; no earlier job tells what they will cost');
  });

  it('leaves out jobs answered from the cache, which cost nothing and tell nothing of what a run costs', () => {
    const recent: JobUsage[] = [
      { cost: 0.012, inputTokens: 900, outputTokens: 100 },
      { cost: 0, inputTokens: 0, outputTokens: 0, cached: true },
      { cost: 0, inputTokens: 0, outputTokens: 0, cached: true },
      { cost: 0.014, inputTokens: 1100, outputTokens: 100 },
    ];
    const estimate = estimateCost(record(12, false), new Map(), recent);
    assert.ok(Math.abs(estimate.cost! - 0.156) < 1e-9, `12 jobs at the mean of the two that ran, not of four: ${estimate.cost}`);
    assert.equal(estimate.basis, '2 recent jobs of the agent');
    const before = new Map<string, JobUsage>([['job-0', { cost: 0, inputTokens: 0, outputTokens: 0, cached: true }]]);
    assert.equal(estimateCost(record(1), before, recent).basis, '2 recent jobs of the agent', 'a cached result before is no basis');
  });

  it('gives a likely range from the spread of the jobs it is estimated from, and none from a single job', () => {
    const recent: JobUsage[] = [{ cost: 0.01, inputTokens: 1, outputTokens: 0 }, { cost: 0.02, inputTokens: 1, outputTokens: 0 }, { cost: 0.015, inputTokens: 1, outputTokens: 0 }];
    const estimate = estimateJobs(16, recent, '3 recent jobs of the agent');
    const [low, high] = estimate.costRange!;
    assert.ok(low < estimate.cost! && estimate.cost! < high);
    assert.ok(Math.abs(high - estimate.cost! - 2 * 0.005 * 4) < 1e-9, 'twice the spread of one job, over the square root of the jobs');
    assert.equal(estimateJobs(16, [recent[0]!], 'one').costRange, undefined);
  });

  it('mixes both where only some cases have earlier results', () => {
    const read = new Map<string, JobUsage>([['job-0', { cost: 1, inputTokens: 10, outputTokens: 0 }]]);
    const estimate = estimateCost(record(2), read, [{ cost: 3, inputTokens: 30, outputTokens: 0 }]);
    assert.equal(estimate.cost, 4);
    assert.equal(estimate.basis, '1 of the cases before and 1 recent job of the agent');
  });

  it('confirms twice only above a ceiling that is set', () => {
    assert.equal(overCeiling({ jobs: 1, cost: 5, tokens: 1 }, 0), false);
    assert.equal(overCeiling({ jobs: 1, cost: 5, tokens: 1 }, 4), true);
    assert.equal(overCeiling({ jobs: 1 }, 4), false);
    assert.deepEqual([costFigure(0), costFigure(0.0071234), costFigure(12.345)], ['0', '0.0071', '12.35']);
  });
});

describe('comparison: the cost of a plan (a trial before its record exists)', () => {
  it('counts the jobs at the mean of the usages given, and says when none tells', () => {
    const { costRange, ...estimate } = estimateJobs(4, [{ cost: 0.01, inputTokens: 100, outputTokens: 50 }, { cost: 0.03, inputTokens: 300, outputTokens: 50 }], 'the same cases before');
    assert.deepEqual(estimate, { jobs: 4, tokens: 1000, cost: 0.08, basis: 'the same cases before' });
    assert.deepEqual(costRange?.map((c) => Math.round(c * 10_000) / 10_000), [0.0234, 0.1366]);
    assert.deepEqual(estimateJobs(4, [], 'nothing'), { jobs: 4 });
  });
});
