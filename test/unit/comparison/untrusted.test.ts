/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access -- these tests break a comparison file's raw JSON the way a hand edit would; typing it would restate the schema under test. */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { caseNamesFromJobs } from '../../../src/core/comparison/casesFromJobs';
import { caseRows } from '../../../src/core/comparison/compare';
import { confinedInputPath, confineInputs, filesToSend, targetInputProblems } from '../../../src/core/comparison/comparisonInputs';
import { comparisonCsv, comparisonJson, comparisonMarkdown } from '../../../src/core/comparison/comparisonExport';
import { progressView } from '../../../src/core/comparison/comparisonProgress';
import { markSent, newComparison, parseComparison, serializeComparison, type ComparisonTarget } from '../../../src/core/comparison/comparisonRecord';
import { cancelJobs, jobsToCancel, readResults, startMissing, CANCEL_CONCURRENCY, type ComparisonService, type ResultItem } from '../../../src/core/comparison/comparisonRunner';
import { ComparisonFileProblem } from '../../../src/core/comparison/comparisonSchema';
import { outcomeColour } from '../../../src/core/comparison/outcomeColour';
import { lockVerdict, lockText } from '../../../src/core/comparison/writerLock';
import type { AgentJob } from '../../../src/core/client';
import { JobStatus } from '../../../src/core/jobStatus';

const before: ComparisonTarget = { id: 'before', label: 'Results before', kind: 'baseline' };
const now: ComparisonTarget = { id: 'now', label: 'Current version now', kind: 'current' };
const v1: ComparisonTarget = { id: 'v:1', label: 'v1', kind: 'version', agentVersionId: 'ver-1' };
const v1b: ComparisonTarget = { id: 'v:1b', label: 'v1', kind: 'version', agentVersionId: 'ver-1b' };

function comparison(n: number, targets: ComparisonTarget[] = [before, now], inputs: (i: number) => Record<string, unknown> = (i) => ({ transcript: `call ${i}` })) {
  const cases = Array.from({ length: n }, (_, i) => ({ line: i + 2, tags: [], name: `case ${i}`, inputs: inputs(i), sourceJobId: `old-${i}` }));
  return newComparison({ title: 'Policy change', agentId: 'agent-a', testSet: 'calls.testset.jsonl', cases, targets });
}

function results(agentOf: (id: string) => string = () => 'agent-a'): ComparisonService['results'] {
  return (ids) => Promise.resolve(ids.map((id): ResultItem => ({ id, agent_id: agentOf(id), status: JobStatus.SUCCESS, result: [{ key: 'disposition', value: 'Compliant' }] })));
}

function service(overrides: Partial<ComparisonService> = {}): ComparisonService {
  let n = 0;
  return {
    runMany: (_a, inputs) => Promise.resolve(inputs.map(() => `new-${n++}`)),
    runVersion: () => Promise.resolve(`new-${n++}`),
    runOne: () => Promise.resolve(`new-${n++}`),
    results: results(),
    cancel: () => Promise.resolve(),
    ...overrides,
  };
}

const signal = new AbortController().signal;

describe('comparisons and what a user sees of them', () => {
  describe('the results before', () => {
    it('are shown from the jobs they were, without waiting on them: nothing "running" is left once they are read', async () => {
      const record = comparison(5);
      record.cases.forEach((c) => void (c.runs.now = { jobId: `n-${c.line}`, status: JobStatus.SUCCESS, outputs: [{ key: 'disposition', value: 'Compliant' }] }));
      assert.match(progressView(record, { kind: 'working' })!.text, /5 results to read/);
      assert.doesNotMatch(progressView(record, { kind: 'working' })!.text, /running/);
      await readResults(record, service(), signal);
      assert.equal(progressView(record, { kind: 'working' }), null);
      assert.equal(record.cases[0]!.runs.before!.status, JobStatus.SUCCESS);
      assert.deepEqual(caseRows(record).map((r) => r.cells[0]!.state), ['done', 'done', 'done', 'done', 'done']);
    });
  });

  describe('its progress line', () => {
    it('calls a batch in flight "being sent", never "lost", and a batch left from an interrupted run "lost"', () => {
      const record = comparison(150);
      markSent(record, 'now', [0, 1]);
      assert.match(progressView(record, { kind: 'working', inFlight: 1 })!.text, /1 batch being sent/);
      assert.doesNotMatch(progressView(record, { kind: 'working', inFlight: 1 })!.text, /lost/);
      assert.match(progressView(record, { kind: 'stopped', reason: 'the window closed.' })!.text, /1 batch whose answer was lost/);
    });
  });

  describe('a target that cannot take the inputs', () => {
    it('is named with its reason before anything starts, and the others still run', () => {
      const record = comparison(3, [before, v1, now], () => ({ transcript: 'hi', language: 'en' }));
      const problems = targetInputProblems(record, [
        { targetId: 'v:1', keys: ['transcript'] },
        { targetId: 'now', keys: ['transcript', 'language'] },
      ]);
      assert.deepEqual([...problems], [['v:1', 'It takes no input "language" (it takes transcript).']]);
    });
  });

  describe('a comparison file with a wrong shape', () => {
    const valid = serializeComparison(comparison(1));
    const broken = (edit: (r: Record<string, any>) => void): string => {
      const value = JSON.parse(valid) as Record<string, any>;
      edit(value);
      return JSON.stringify(value, null, 2);
    };
    const cases: [string, (r: Record<string, any>) => void, number][] = [
      ['a case that is null', (r) => (r.cases = [null]), 20],
      ['a case without runs', (r) => delete r.cases[0].runs, 20],
      ['outputs that are text', (r) => (r.cases[0].runs.before.outputs = 'x'), 32],
      ['an expected disposition that is a number', (r) => (r.cases[0].expected = { disposition: 5 }), 28],
      ['a baseline naming no target', (r) => (r.baselineId = 'nobody'), 18],
    ];
    for (const [what, edit] of cases) {
      it(`is refused with the line of the problem: ${what}`, () => {
        const text = broken(edit);
        assert.throws(
          () => parseComparison(text),
          (error: unknown) => error instanceof ComparisonFileProblem && /at line \d+/.test(error.message) && error.line > 1,
        );
      });
    }

    it('keeps keys like __proto__ and constructor as data', () => {
      const text = valid.replace('"transcript": "call 0"', '"__proto__": "a", "constructor": "b"');
      const record = parseComparison(text);
      assert.deepEqual(Object.keys(record.cases[0]!.inputs), ['__proto__', 'constructor']);
      assert.equal(Object.getPrototypeOf(record.cases[0]!.inputs), null);
      assert.equal(record.cases[0]!.runs.constructor, undefined, 'no run is inherited for a target named "constructor"');
    });
  });

  describe('exports', () => {
    it('keep two targets that share a label apart in JSON', () => {
      const json = JSON.parse(comparisonJson(comparison(1, [before, v1, v1b]))) as { targets: { id: string }[]; cases: { targets: { target: string }[] }[] };
      assert.deepEqual(json.targets.map((t) => t.id), ['before', 'v:1', 'v:1b']);
      assert.deepEqual(json.cases[0]!.targets.map((t) => t.target), ['before', 'v:1', 'v:1b']);
    });

    it('quote names in Markdown so that no line of theirs becomes a heading or a tag, and say the comparison is incomplete', () => {
      const record = newComparison({
        title: 'T',
        agentId: 'a',
        testSet: 'x`\n# heading\n<img src=x onerror=alert(1)>',
        keys: ['disposition\n# key'],
        cases: [{ line: 1, tags: [], inputs: {}, sourceJobId: 'old' }],
        targets: [before, now],
      });
      const md = comparisonMarkdown(record);
      const lines = md.split('\n');
      assert.ok(!lines.some((l) => /^#\s*(heading|key)/.test(l) || l.startsWith('<img')), md);
      assert.match(md, /\*\*Incomplete:\*\* Results before has 1 case not finished; Current version now has 1 case not finished\./);
    });

    it('guard every CSV cell a spreadsheet would run as a formula, names included', () => {
      const record = comparison(1, [before, { ...now, label: '=HYPERLINK("x")' }]);
      record.cases[0]!.name = '=cmd|/c calc';
      const csv = comparisonCsv(record);
      assert.doesNotMatch(csv, /(^|,)"?=/m);
    });
  });

  describe('file inputs', () => {
    const root = path.resolve('/work/ws');
    const realpath = (p: string): Promise<string> => {
      if (p === path.join(root, 'link.pdf')) return Promise.resolve(path.resolve('/etc/passwd'));
      if (p.endsWith('missing.pdf')) return Promise.reject(new Error('ENOENT'));
      return Promise.resolve(path.resolve(p));
    };

    it('are sent only from inside a workspace folder, after links are followed', async () => {
      assert.equal(await confinedInputPath([root], 'calls/a.pdf', realpath), path.join(root, 'calls', 'a.pdf'));
      await assert.rejects(confinedInputPath([root], path.resolve('/etc/passwd'), realpath), /absolute path/);
      await assert.rejects(confinedInputPath([root], '../secret.pdf', realpath), /not a file inside a workspace folder/);
      await assert.rejects(confinedInputPath([root], 'link.pdf', realpath), /not a file inside a workspace folder/);
      await assert.rejects(confinedInputPath([], 'a.pdf', realpath), /needs a workspace folder/);
    });

    it('are named before a run (the files the confirmation lists) and never reach the service from outside', async () => {
      const record = comparison(2, [before, v1], (i) => ({ scan: { file: i === 0 ? 'a.pdf' : path.resolve('/home/u/.ssh/id_rsa') } }));
      assert.deepEqual(filesToSend(record), ['a.pdf', path.resolve('/home/u/.ssh/id_rsa')]);
      await assert.rejects(confineInputs(record.cases[1]!.inputs, [root], realpath), /absolute path/);
      const sent: unknown[] = [];
      const guarded = service({ runVersion: async (_a, _v, inputs) => (sent.push(await confineInputs(inputs, [root], realpath)), 'j') });
      await assert.rejects(startMissing(record, guarded, () => Promise.resolve(), signal));
      assert.deepEqual(sent, [{ scan: { file: path.join(root, 'a.pdf') } }]);
    });
  });

  describe('job ids of other agents in a tampered file', () => {
    it('are not shown as this agent’s results, and Cancel leaves them alone, a few requests at a time', async () => {
      const record = comparison(10);
      record.cases.forEach((c, i) => void (c.runs.now = { jobId: i < 4 ? `theirs-${i}` : `ours-${i}` }));
      const agentOf = (id: string): string => (id.startsWith('theirs') ? 'agent-b' : 'agent-a');
      const { ids, foreign } = await jobsToCancel(record, service({ results: results(agentOf) }), signal);
      assert.deepEqual(foreign, ['theirs-0', 'theirs-1', 'theirs-2', 'theirs-3']);
      assert.equal(ids.length, 6);
      let inFlight = 0;
      let most = 0;
      const cancelled: string[] = [];
      const slow = service({
        cancel: async (id) => {
          most = Math.max(most, ++inFlight);
          await Promise.resolve();
          cancelled.push(id);
          inFlight--;
        },
      });
      assert.equal(await cancelJobs(ids, slow, signal), 6);
      assert.ok(!cancelled.some((id) => id.startsWith('theirs')));
      assert.ok(most <= CANCEL_CONCURRENCY);
      record.cases.forEach((c) => void (c.runs.now!.status = JobStatus.SUCCESS));
      await readResults(record, service({ results: results(agentOf) }), signal);
      assert.match(record.cases[0]!.runs.now!.error!, /another agent \(agent-b\)/);
      assert.equal(caseRows(record)[0]!.cells[1]!.state, 'failed');
    });
  });

  describe('cases made from jobs', () => {
    const job = (id: string, inputs: string, metadata: Record<string, unknown> = {}): AgentJob => ({ id, status_code: JobStatus.SUCCESS, created_at: '2026-01-01T00:00:00Z', status_events: [], metadata, job_inputs: [{ key: 'transcript', value: inputs }] });
    it('are named from what tells them apart: metadata.case, else the label of the Jobs list', () => {
      const names = caseNamesFromJobs([job('c30782e4-1', 'Agent: Hello.\nCustomer: I was charged twice', { case: 'double charge' }), job('c30782e4-2', 'Agent: Hello.\nCustomer: My card is lost')]);
      assert.equal(names[0], 'double charge');
      assert.doesNotMatch(names[1]!, /^job /);
      assert.match(names[1]!, /card is lost|Hello/);
    });

    it('are told apart by their first line that not every case shares, not by a shared greeting and an id', () => {
      const greeting = 'Agent: Thanks for contacting Acme Support, this is Priya. This call may be recorded for quality and training.';
      const calls = ['Customer: Hi Priya. I was charged twice for my March invoice and I would like a refund.', 'Customer: Hello, my parcel never arrived.'];
      const names = caseNamesFromJobs(calls.map((line, i) => job(`2a12c777-${i}`, `${greeting}\n${line}\nAgent: Let me check.`)));
      assert.deepEqual(names, ['Customer: Hi Priya. I was charged twice for my March…', 'Customer: Hello, my parcel never arrived.']);
    });
  });

  describe('outcome colours', () => {
    it('give each outcome one meaning-bearing colour: Non-Compliant red, Compliant green', () => {
      assert.equal(outcomeColour('Non-Compliant'), 'bad');
      assert.equal(outcomeColour('Compliant'), 'good');
      assert.equal(outcomeColour('Escalated'), 'warn');
      assert.equal(outcomeColour('Resolved'), 'good');
      assert.equal(outcomeColour('Teal', new Map([['teal', 'blue']])), 'blue');
    });
  });

  describe('the writer lock of a comparison file', () => {
    const self = { pid: 10, token: 'me', host: 'h' };
    it('lets one window write: free when absent or when its holder process is gone, held while it lives', () => {
      assert.deepEqual(lockVerdict(undefined, self, () => true), { kind: 'free' });
      assert.deepEqual(lockVerdict(lockText(self), self, () => true), { kind: 'ours' });
      const other = { pid: 11, token: 'them', host: 'h' };
      assert.deepEqual(lockVerdict(lockText(other), self, () => true), { kind: 'held', by: other });
      assert.deepEqual(lockVerdict(lockText(other), self, () => false), { kind: 'free' });
      assert.deepEqual(lockVerdict('garbage', self, () => true), { kind: 'free' });
    });
  });
});
