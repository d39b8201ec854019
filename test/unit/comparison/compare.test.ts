import * as assert from 'node:assert/strict';
import { caseRows, quantile, runState, summarize } from '../../../src/core/comparison/compare';
import { comparisonCsv, comparisonJson, comparisonMarkdown } from '../../../src/core/comparison/comparisonExport';
import {
  applyToRuns,
  casesToStart,
  chunk,
  dropPending,
  isComplete,
  jobIdsWithoutResults,
  markSent,
  newComparison,
  parseComparison,
  recordStarted,
  serializeComparison,
  unfinishedJobIds,
  type ComparisonRecord,
  type ComparisonTarget,
} from '../../../src/core/comparison/comparisonRecord';
import type { TestCase } from '../../../src/core/comparison/testSet';
import { JobStatus } from '../../../src/core/jobStatus';

const before: ComparisonTarget = { id: 'before', label: 'Before', kind: 'baseline' };
const v2: ComparisonTarget = { id: 'v2', label: 'Version 2', kind: 'version', agentVersionId: 'ver-2' };
const now: ComparisonTarget = { id: 'now', label: 'Current', kind: 'current' };

function cases(n: number, extra: (i: number) => Partial<TestCase> = () => ({})): TestCase[] {
  return Array.from({ length: n }, (_, i) => ({ line: i + 1, tags: [], inputs: { transcript: `case ${i}` }, sourceJobId: `old-${i}`, ...extra(i) }));
}

function done(record: ComparisonRecord, caseIndex: number, targetId: string, disposition: string, extra: { cost?: number; durationMs?: number; status?: number } = {}): void {
  const c = record.cases[caseIndex]!;
  c.runs[targetId] = {
    jobId: c.runs[targetId]?.jobId ?? `${targetId}-${caseIndex}`,
    status: extra.status ?? JobStatus.SUCCESS,
    outputs: [{ key: 'disposition', value: disposition }],
    cost: extra.cost ?? 0.01,
    inputTokens: 10,
    outputTokens: 5,
    durationMs: extra.durationMs ?? 1000,
  };
}

describe('comparisons', () => {
  describe('the record and resuming', () => {
    it('takes the baseline from the jobs the test set was made from, and starts only the other targets', () => {
      const record = newComparison({ title: 't', agentId: 'a', testSet: 'x.testset.jsonl', cases: cases(3), targets: [before, v2] });
      assert.equal(record.baselineId, 'before');
      assert.deepEqual(
        record.cases.map((c) => c.runs.before?.jobId),
        ['old-0', 'old-1', 'old-2'],
      );
      assert.deepEqual([...casesToStart(record)], [['v2', [0, 1, 2]]]);
    });

    it('refuses a comparison of fewer than two targets', () => {
      assert.throws(() => newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(1), targets: [v2] }), /two targets/);
    });

    it('resumes from a partial file: cases with a job are followed, cases in a sent batch wait for a decision, only the rest start', () => {
      const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(6), targets: [v2, now] });
      const first = markSent(record, 'v2', [0, 1]);
      recordStarted(record, first, ['j0', 'j1']);
      markSent(record, 'v2', [2, 3]); // sent, then the window closed before the answer was written
      const reopened = parseComparison(serializeComparison(record));
      assert.deepEqual(Object.fromEntries(casesToStart(reopened)), { v2: [4, 5], now: [0, 1, 2, 3, 4, 5] });
      assert.equal(reopened.pending.length, 1);
      assert.deepEqual(reopened.pending[0]!.caseIndexes, [2, 3]);
      assert.deepEqual(unfinishedJobIds(reopened), ['j0', 'j1']);
      dropPending(reopened, reopened.pending[0]!);
      assert.deepEqual(casesToStart(reopened).get('v2'), [2, 3, 4, 5]);
    });

    it('refuses an answer whose job ids do not match the cases sent', () => {
      const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(2), targets: [v2, now] });
      const batch = markSent(record, 'v2', [0, 1]);
      assert.throws(() => recordStarted(record, batch, ['only-one']), /1 job ids for 2 cases/);
    });

    it('follows the jobs it started until final, reads the results before at once, then is complete', () => {
      const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(2), targets: [before, v2] });
      recordStarted(record, markSent(record, 'v2', [0, 1]), ['n0', 'n1']);
      assert.deepEqual(unfinishedJobIds(record).sort(), ['n0', 'n1'], 'the results before are past jobs: never waited on');
      assert.deepEqual(jobIdsWithoutResults(record).sort(), ['old-0', 'old-1']);
      for (const id of ['n0', 'n1']) applyToRuns(record, id, { status: JobStatus.SUCCESS });
      assert.deepEqual(jobIdsWithoutResults(record).sort(), ['n0', 'n1', 'old-0', 'old-1']);
      assert.equal(isComplete(record), false);
      for (const id of ['n0', 'n1', 'old-0', 'old-1']) applyToRuns(record, id, { outputs: [{ key: 'disposition', value: 'A' }] });
      assert.equal(isComplete(record), true);
    });

    it('splits cases into batches of at most a given size', () => {
      assert.deepEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
      assert.throws(() => chunk([1], 0));
    });

    it('says what is wrong with a file that is not a comparison', () => {
      assert.throws(() => parseComparison('{'), /not valid JSON/);
      assert.throws(() => parseComparison('{"kind":"other"}'), /not a comparison file/);
      assert.throws(() => parseComparison('{"kind":"agent-workbench.comparison","version":7}'), /format 7/);
    });
  });

  describe('differences and figures', () => {
    function fiftyCases(): ComparisonRecord {
      const record = newComparison({
        title: 'Rule change',
        agentId: 'a',
        testSet: 's',
        cases: cases(50, (i) => ({ expected: { disposition: i < 40 ? 'Approve' : 'Escalate' } })),
        targets: [before, v2],
      });
      for (let i = 0; i < 50; i++) {
        done(record, i, 'before', 'Approve', { durationMs: 1000 + i });
        // The rule change flips cases 40–49 to Escalate: exactly those change, and now match what was expected.
        done(record, i, 'v2', i >= 40 ? 'Escalate' : 'Approve', { durationMs: 2000 + i, cost: 0.02 });
      }
      return record;
    }

    it('marks exactly the cases whose outcome changed, and mismatches with the expectation per target', () => {
      const record = fiftyCases();
      const rows = caseRows(record);
      assert.deepEqual(
        rows.filter((r) => r.changed).map((r) => r.index),
        Array.from({ length: 10 }, (_, i) => 40 + i),
      );
      const row = rows[45]!;
      assert.equal(row.cells[0]!.mismatch, true);
      assert.equal(row.cells[1]!.mismatch, false);
      assert.equal(row.cells[1]!.changed, true);
      assert.equal(row.cells[0]!.changed, false);
      assert.equal(rows[3]!.changed, false);
    });

    it('sums up each target: accuracy, changed against the baseline, failures, cost, tokens, p50 and p95, outcomes', () => {
      const [b, n] = summarize(fiftyCases());
      assert.equal(b!.accuracy, 40 / 50);
      assert.equal(n!.accuracy, 1);
      assert.equal(b!.changedVsBaseline, undefined);
      assert.equal(n!.changedVsBaseline, 10);
      assert.equal(n!.failures, 0);
      assert.ok(Math.abs(n!.totalCost - 1) < 1e-9);
      assert.equal(n!.totalTokens, 750);
      assert.equal(n!.p50DurationMs, 2024);
      assert.equal(n!.p95DurationMs, 2047);
      assert.deepEqual(Object.fromEntries(n!.outcomes), { Approve: 40, Escalate: 10 });
      assert.deepEqual(Object.fromEntries(b!.outcomes), { Approve: 50 });
    });

    it('counts a failed or cancelled job as a failure and not as a change', () => {
      const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(2), targets: [before, v2] });
      done(record, 0, 'before', 'A');
      done(record, 1, 'before', 'A');
      record.cases[0]!.runs.v2 = { jobId: 'x', status: JobStatus.FAILURE, outputs: null };
      record.cases[1]!.runs.v2 = { jobId: 'y', status: JobStatus.STARTED };
      const rows = caseRows(record);
      assert.equal(rows[0]!.failed, true);
      assert.equal(rows[0]!.changed, false);
      assert.equal(runState(record.cases[1]!.runs.v2), 'running');
      const [, n] = summarize(record, rows);
      assert.equal(n!.failures, 1);
      assert.equal(n!.running, 1);
      assert.deepEqual(
        rows.filter((r) => r.failed).map((r) => r.index),
        [0],
      );
    });

    it('compares dispositions as labels: case and surrounding spaces do not make a mismatch', () => {
      const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(1, () => ({ expected: { disposition: 'escalate' } })), targets: [before, v2] });
      done(record, 0, 'before', ' Escalate ');
      done(record, 0, 'v2', 'Approve');
      const row = caseRows(record)[0]!;
      assert.equal(row.cells[0]!.mismatch, false);
      assert.equal(row.cells[1]!.mismatch, true);
    });

    it('takes nearest-rank quantiles', () => {
      assert.equal(quantile([], 0.5), undefined);
      assert.equal(quantile([5], 0.95), 5);
      assert.equal(quantile([4, 1, 3, 2], 0.5), 2);
      assert.equal(quantile([4, 1, 3, 2], 0.95), 4);
    });
  });

  describe('exports', () => {
    it('writes a case a row in CSV with a column group per target', () => {
      const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(1, () => ({ name: 'first, case' })), targets: [before, v2] });
      done(record, 0, 'before', 'A');
      done(record, 0, 'v2', 'B');
      const [header, line] = comparisonCsv(record).split('\r\n');
      assert.match(header!, /^case,tags,expected,changed,mismatch,Before: status,Before: disposition,/);
      assert.match(line!, /^"first, case",,,true,false,done,A,0\.01,15,1000,old-0,done,B,/);
    });

    it('writes JSON with numbers and the summary', () => {
      const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(1), targets: [before, v2] });
      done(record, 0, 'before', 'A');
      done(record, 0, 'v2', 'A');
      const json = JSON.parse(comparisonJson(record)) as { complete: boolean; summary: { totalTokens: number; outcomes: unknown }[]; cases: { targets: { label: string; values: { key: string; value: string }[] }[] }[] };
      assert.equal(json.summary[1]!.totalTokens, 15);
      assert.equal(json.complete, true);
      assert.deepEqual(json.summary[1]!.outcomes, [{ outcome: 'A', count: 1 }]);
      assert.equal(json.cases[0]!.targets[1]!.label, 'Version 2');
      assert.deepEqual(json.cases[0]!.targets[1]!.values, [{ key: 'disposition', value: 'A' }]);
    });

    it('writes a Markdown summary whose service text cannot break the table', () => {
      const record = newComparison({ title: 'Policy | change', agentId: 'a', testSet: 's', cases: cases(2, (i) => (i === 0 ? { name: 'a|b <img>' } : { expected: { disposition: 'X|Y\n# h' } })), targets: [before, v2] });
      done(record, 0, 'before', 'A');
      done(record, 0, 'v2', 'B|C');
      done(record, 1, 'before', 'A');
      done(record, 1, 'v2', 'B');
      const md = comparisonMarkdown(record);
      assert.match(md, /^### Policy \\\| change/);
      assert.match(md, /\| Version 2 \| 0% of 1 labelled \| 2 \| 0 \|/);
      assert.match(md, /\*\*2 cases changed:\*\*/);
      assert.match(md, /\| a\\\|b \\<img\\> \| – \| A \| B\\\|C \|/);
      assert.match(md, /\| line 2 \| X\\\|Y \\# h \| A \| B \|/, 'the test set’s expected outcome cannot break the table either');
    });
  });
});
