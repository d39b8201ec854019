import * as assert from 'node:assert/strict';
import { caseFromJob } from '../../../src/core/comparison/casesFromJobs';
import { caseRows } from '../../../src/core/comparison/compare';
import { casesToStart, isComplete, markSent, newComparison, recordStarted, parseComparison, serializeComparison, type ComparisonRecord, type ComparisonTarget } from '../../../src/core/comparison/comparisonRecord';
import { BatchOutcomeUnknown, applyStatuses, cancelUnfinished, readResults, startMissing, type ComparisonService, type ResultItem } from '../../../src/core/comparison/comparisonRunner';
import type { TestCase } from '../../../src/core/comparison/testSet';
import { JobStatus } from '../../../src/core/jobStatus';

const before: ComparisonTarget = { id: 'before', label: 'Before', kind: 'baseline' };
const current: ComparisonTarget = { id: 'now', label: 'Now', kind: 'current' };
const v3: ComparisonTarget = { id: 'v3', label: 'v3', kind: 'version', agentVersionId: 'ver-3' };

function cases(n: number): TestCase[] {
  return Array.from({ length: n }, (_, i) => ({ line: i + 1, tags: [], inputs: { transcript: `case ${i}` }, sourceJobId: `old-${i}` }));
}

/** A fake service that records every request and can lose the answer of one. */
function fakeService() {
  const requests: string[] = [];
  let next = 0;
  let loseAnswerOf: number | undefined;
  const jobs = new Map<string, { inputs: Record<string, unknown>; status: number }>();
  const start = (inputs: Record<string, unknown>): string => {
    const id = `job-${next++}`;
    jobs.set(id, { inputs, status: JobStatus.PENDING });
    return id;
  };
  const service: ComparisonService = {
    runMany: (_agent, inputs) => {
      requests.push(`runMany ${inputs.length}`);
      const ids = inputs.map(start);
      if (loseAnswerOf === requests.length) return Promise.reject(Object.assign(new Error('socket hang up'), { outcomeUnknown: true }));
      return Promise.resolve(ids);
    },
    runVersion: (_agent, version, inputs) => {
      requests.push(`runVersion ${version}`);
      return Promise.resolve(start(inputs));
    },
    runOne: (_agent, inputs) => {
      requests.push('runOne');
      return Promise.resolve(start(inputs));
    },
    results: (ids) => {
      requests.push(`results ${ids.length}`);
      return Promise.resolve(
        ids.map((id): ResultItem => ({
          id,
          status: JobStatus.SUCCESS,
          result: [{ key: 'disposition', value: id.startsWith('old') ? 'Approve' : 'Escalate' }],
          corrected_outputs: null,
          cost: 0.01,
          input_tokens: 3,
          output_tokens: 2,
        })),
      );
    },
    cancel: (id) => {
      requests.push(`cancel ${id}`);
      jobs.get(id)!.status = JobStatus.CANCELLED;
      return Promise.resolve();
    },
  };
  return {
    service,
    requests,
    jobs,
    loseAnswerOfRequest(n: number) {
      loseAnswerOf = n;
    },
  };
}

function saver(record: ComparisonRecord) {
  const saved: string[] = [];
  return { saved, save: () => Promise.resolve(void saved.push(serializeComparison(record))) };
}

describe('running a comparison', () => {
  it('starts the current version in batches, one request per chunk, and writes each batch down before sending it', async () => {
    const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(250), targets: [before, current] });
    const fake = fakeService();
    const { saved, save } = saver(record);
    await startMissing(record, fake.service, save, new AbortController().signal);
    assert.deepEqual(fake.requests, ['runMany 100', 'runMany 100', 'runMany 50']);
    // Before the first request went out, the file already said which cases were being sent.
    assert.deepEqual(parseComparison(saved[0]!).pending[0]!.caseIndexes.length, 100);
    assert.equal(record.pending.length, 0);
    assert.equal(casesToStart(record).size, 0);
    assert.equal(record.cases[249]!.runs.now!.jobId, 'job-249');
  });

  it('starts a chosen version one job a request (the service batches only the current version)', async () => {
    const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(3), targets: [before, v3] });
    const fake = fakeService();
    await startMissing(record, fake.service, saver(record).save, new AbortController().signal);
    assert.deepEqual(fake.requests, ['runVersion ver-3', 'runVersion ver-3', 'runVersion ver-3']);
  });

  it('runs the current version of a test set with file inputs: the cases with a file one job each, the others in batches', async () => {
    const mixed = cases(5).map((c, i) => (i % 2 === 0 ? { ...c, inputs: { ...c.inputs, document: { file: `docs/${i}.pdf` } } } : c));
    const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: mixed, targets: [before, current] });
    const fake = fakeService();
    await startMissing(record, fake.service, saver(record).save, new AbortController().signal);
    assert.deepEqual(fake.requests, ['runMany 2', 'runOne', 'runOne', 'runOne']);
    assert.equal(casesToStart(record).size, 0, 'every case started, none left "Not started"');
    assert.deepEqual(record.cases.map((c) => fake.jobs.get(c.runs.now!.jobId)!.inputs.document !== undefined), [true, false, true, false, true]);
  });

  it('never resends a batch whose answer was lost: it stays marked, and resuming starts only the cases with no job', async () => {
    const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(250), targets: [before, current] });
    const fake = fakeService();
    fake.loseAnswerOfRequest(2);
    const { saved, save } = saver(record);
    await assert.rejects(startMissing(record, fake.service, save, new AbortController().signal), BatchOutcomeUnknown);
    assert.equal(fake.jobs.size, 200, 'the service did start the second batch');
    // The window reloads: the comparison reopens from its file.
    const reopened = parseComparison(saved.at(-1)!);
    assert.equal(reopened.pending.length, 1);
    await startMissing(reopened, fake.service, saver(reopened).save, new AbortController().signal);
    assert.deepEqual(fake.requests, ['runMany 100', 'runMany 100', 'runMany 50'], 'the lost batch was not sent again');
    assert.deepEqual(reopened.pending[0]!.caseIndexes, Array.from({ length: 100 }, (_, i) => 100 + i));
  });

  it('keeps a batch still in flight when another one sent in the same millisecond is answered', () => {
    const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(4), targets: [before, current] });
    const at = new Date('2026-01-01T00:00:00Z');
    const first = markSent(record, 'now', [0, 1], at);
    const second = markSent(record, 'now', [2, 3], at);
    recordStarted(record, second, ['j3', 'j4']);
    assert.deepEqual(record.pending, [first]);
  });

  it('marks a target the service refuses as failed with the reason, and the other targets go on', async () => {
    const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(2), targets: [before, v3, current] });
    const fake = fakeService();
    fake.service.runVersion = () => Promise.reject(Object.assign(new Error('Unknown input "language"; this agent takes transcript.'), { status: 400 }));
    const failed: string[] = [];
    await startMissing(record, fake.service, saver(record).save, new AbortController().signal, { onTargetFailed: (id, reason) => failed.push(`${id}: ${reason}`) });
    assert.deepEqual(failed, ['v3: Unknown input "language"; this agent takes transcript.']);
    assert.equal(record.pending.length, 0);
    assert.deepEqual(fake.requests, ['runMany 2'], 'the current version still ran');
    assert.equal(casesToStart(record).size, 0, 'nothing is left to start on the failed target');
    assert.deepEqual(caseRows(record)[0]!.cells.map((c) => c.state), ['running', 'failed', 'running']);
  });

  it('stops on a failure that is not a refusal (the service is down), leaving the cases to start', async () => {
    const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(2), targets: [before, current] });
    const fake = fakeService();
    fake.service.runMany = () => Promise.reject(Object.assign(new Error('Service unavailable'), { status: 503 }));
    await assert.rejects(startMissing(record, fake.service, saver(record).save, new AbortController().signal), /Service unavailable/);
    assert.equal(record.pending.length, 0);
    assert.deepEqual(casesToStart(record).get('now'), [0, 1]);
  });

  it('follows statuses, reads results in bulk (one request per hundred jobs), and completes', async () => {
    const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(150), targets: [before, current] });
    const fake = fakeService();
    await startMissing(record, fake.service, saver(record).save, new AbortController().signal);
    const all = record.cases.flatMap((c) => Object.values(c.runs).map((r) => r.jobId));
    assert.equal(applyStatuses(record, all.map((id) => ({ id, status: JobStatus.STARTED }))), true);
    assert.equal(applyStatuses(record, all.map((id) => ({ id, status: JobStatus.STARTED }))), false);
    applyStatuses(record, all.map((id) => ({ id, status: JobStatus.SUCCESS, createdAt: '2026-01-01T00:00:00Z', lastUpdatedAt: '2026-01-01T00:00:02.500Z' })));
    fake.requests.length = 0;
    assert.equal(await readResults(record, fake.service, new AbortController().signal), 300);
    assert.deepEqual(fake.requests, ['results 100', 'results 100', 'results 100']);
    assert.equal(isComplete(record), true);
    assert.equal(record.cases[0]!.runs.now!.durationMs, 2500);
    assert.equal(caseRows(record).filter((r) => r.changed).length, 150);
  });

  it('keeps a reviewer’s correction beside the outcome the agent gave, never in its place', async () => {
    const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(2), targets: [before, current] });
    const fake = fakeService();
    const plain = fake.service.results.bind(fake.service);
    fake.service.results = async (ids, signal) =>
      (await plain(ids, signal)).map((item) => (item.id === 'old-0' ? { ...item, corrected_outputs: [{ key: 'summary', value: 'x' }, { key: 'disposition', value: ' Reject ' }] } : item.id === 'old-1' ? { ...item, corrected_outputs: [{ key: 'disposition', value: '' }] } : item));
    await startMissing(record, fake.service, saver(record).save, new AbortController().signal);
    const all = record.cases.flatMap((c) => Object.values(c.runs).map((r) => r.jobId));
    applyStatuses(record, all.map((id) => ({ id, status: JobStatus.SUCCESS })));
    await readResults(record, fake.service, new AbortController().signal);
    const [first, second] = record.cases;
    assert.equal(first!.runs.before!.reviewed, 'Reject');
    assert.deepEqual(first!.runs.before!.outputs, [{ key: 'disposition', value: 'Approve' }], 'the agent’s own answer stays the cell');
    assert.equal(second!.runs.before!.reviewed, undefined, 'an empty correction is none');
    assert.equal(first!.runs.now!.reviewed, undefined);
    assert.equal(parseComparison(serializeComparison(record)).cases[0]!.runs.before!.reviewed, 'Reject', 'kept in the file');
  });

  it('cancels only the jobs it started that are not finished', async () => {
    const record = newComparison({ title: 't', agentId: 'a', testSet: 's', cases: cases(3), targets: [before, current] });
    const fake = fakeService();
    await startMissing(record, fake.service, saver(record).save, new AbortController().signal);
    applyStatuses(record, [{ id: 'job-0', status: JobStatus.SUCCESS }]);
    fake.requests.length = 0;
    assert.deepEqual(await cancelUnfinished(record, fake.service, new AbortController().signal), { cancelled: 2, foreign: [] });
    assert.deepEqual(fake.requests.filter((r) => r.startsWith('cancel')).sort(), ['cancel job-1', 'cancel job-2']);
  });
});

describe('test cases from past jobs', () => {
  it('takes the inputs, and as expected the corrected outputs of a reviewer', () => {
    const { testCase, skippedFiles } = caseFromJob(
      {
        id: 'j1',
        job_inputs: [
          { key: 'transcript', value: 'Hello' },
          { key: 'settings', value: '{"strict":true}', data_type: 'application/json' },
          { key: 'scan', value: null, file_name: 'scan.pdf' },
        ],
        feedback_review: { corrected_verdict: 'Reject' },
      },
      { corrected_outputs: [{ key: 'disposition', value: 'Escalate' }, { key: 'summary', value: 'Fixed' }] },
      'disposition',
      'first',
    );
    assert.deepEqual(testCase, { name: 'first', tags: [], inputs: { transcript: 'Hello', settings: { strict: true } }, sourceJobId: 'j1', expected: { disposition: 'Escalate', outputs: { summary: 'Fixed' } } });
    assert.deepEqual(skippedFiles, ['scan.pdf']);
  });

  it('falls back to the feedback verdict, and expects nothing when nobody reviewed the job', () => {
    assert.deepEqual(caseFromJob({ id: 'j', job_inputs: [], feedback_review: { corrected_verdict: 'Reject' } }, undefined, 'disposition').testCase.expected, { disposition: 'Reject' });
    assert.equal(caseFromJob({ id: 'j', job_inputs: [] }, { corrected_outputs: [] }, 'disposition').testCase.expected, undefined);
  });
});
