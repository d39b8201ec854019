import * as assert from 'node:assert/strict';
import { newComparison, type ComparisonRecord } from '../../../src/core/comparison/comparisonRecord';
import { comparisonView } from '../../../src/core/comparison/comparisonView';
import { applyRowsUpdate, nextComparisonMessage, type ComparisonContent, type ComparisonShown } from '../../../src/core/comparison/viewDelta';
import { isComparisonHostMessage } from '../../../src/core/comparison/viewProtocol';
import { JobStatus } from '../../../src/core/jobStatus';

/** `n` cases × 3 targets: the baseline done, the two others not started. */
function running(n: number): ComparisonRecord {
  const record = newComparison({
    title: 'Refund rule change',
    agentId: 'a',
    testSet: 'refunds.testset.jsonl',
    cases: Array.from({ length: n }, (_, i) => ({ line: i + 1, name: `case ${i}`, tags: [], inputs: { t: String(i) }, sourceJobId: `old-${i}` })),
    targets: [
      { id: 'before', label: 'Before', kind: 'baseline' },
      { id: 'now', label: 'Now', kind: 'current' },
      { id: 'v2', label: 'Version 2', kind: 'version', agentVersionId: 'v2' },
    ],
  });
  record.cases.forEach((c, i) => {
    c.runs.before = { jobId: `old-${i}`, status: JobStatus.SUCCESS, outputs: [{ key: 'disposition', value: 'Approve' }], cost: 0.01, durationMs: 1000 };
  });
  return record;
}

function content(record: ComparisonRecord, progressText = 'Waiting for jobs'): ComparisonContent {
  return { title: record.title, subtitle: `${record.cases.length} cases`, keys: record.keys, ...comparisonView(record), progress: { text: progressText, running: true, cancellable: true, action: null } };
}

function finish(record: ComparisonRecord, index: number, target: 'now' | 'v2', value = 'Approve'): void {
  record.cases[index]!.runs[target] = { jobId: `${target}-${index}`, status: JobStatus.SUCCESS, outputs: [{ key: 'disposition', value }], cost: 0.02, durationMs: 1200 };
}

describe('what the comparison page is sent while a comparison runs', () => {
  it('is the whole comparison the first time, with a load of its own', () => {
    const { shown, message } = nextComparisonMessage(undefined, content(running(5)), false);
    assert.equal(message?.type, 'comparison');
    assert.equal(shown.load, 1);
    assert.equal(isComparisonHostMessage(message), true);
  });

  it('then only the rows whose cells changed, the summaries that moved and the progress line', () => {
    const record = running(1000);
    const first = nextComparisonMessage(undefined, content(record), false).shown;
    finish(record, 3, 'now');
    finish(record, 700, 'v2', 'Escalate');
    const { shown, message } = nextComparisonMessage(first, content(record, 'Waiting for 1,998 jobs'), false);
    assert.equal(message?.type, 'rows');
    if (message?.type !== 'rows') return;
    assert.deepEqual(message.rows.map((r) => r.index), [3, 700]);
    assert.equal(message.rows[1]!.row.cells[2]!.values[0], 'Escalate');
    assert.notEqual(message.summaries, null, 'two targets have one more case done');
    assert.equal(message.progress?.text, 'Waiting for 1,998 jobs');
    assert.equal(message.load, first.load);
    assert.equal(isComparisonHostMessage(message), true);
    assert.ok(JSON.stringify(message).length * 50 < JSON.stringify(shown).length, 'an update of two rows is a small part of the whole');
  });

  it('keeps the page in step: the whole comparison after an update is what the extension holds', () => {
    const record = running(50);
    const before = nextComparisonMessage(undefined, content(record), false).shown;
    for (const i of [0, 9, 49]) finish(record, i, 'now', i === 9 ? 'Escalate' : 'Approve');
    const next = nextComparisonMessage(before, content(record, 'Waiting for 97 jobs'), false);
    assert.equal(next.message?.type, 'rows');
    if (next.message?.type !== 'rows') return;
    assert.deepEqual(applyRowsUpdate(before, next.message), next.shown);
  });

  it('sends nothing when nothing the page shows changed', () => {
    const record = running(20);
    const before = nextComparisonMessage(undefined, content(record), false).shown;
    assert.equal(nextComparisonMessage(before, content(record), false).message, undefined);
  });

  it('sends an unchanged row set with only its progress line when only that moved', () => {
    const record = running(20);
    const before = nextComparisonMessage(undefined, content(record), false).shown;
    const { message } = nextComparisonMessage(before, content(record, 'Starting 40 of 40 cases'), false);
    assert.deepEqual(message, { type: 'rows', load: before.load, rows: [], summaries: null, progress: { text: 'Starting 40 of 40 cases', running: true, cancellable: true, action: null } });
  });

  it('sends the whole comparison again when its shape changed (a target dropped) or a new load is asked for', () => {
    const record = running(20);
    const before = nextComparisonMessage(undefined, content(record), false).shown;
    const dropped = { ...content(record), targets: content(record).targets.slice(0, 2) };
    const reshaped = nextComparisonMessage(before, dropped, false);
    assert.equal(reshaped.message?.type, 'comparison');
    assert.equal(reshaped.shown.load, before.load, 'the same load: the page keeps its sort');
    const reloaded = nextComparisonMessage(before, content(record), true);
    assert.equal(reloaded.message?.type, 'comparison');
    assert.equal(reloaded.shown.load, before.load + 1);
  });

  it('leaves the page as it is when an update is of another load', () => {
    const before: ComparisonShown = nextComparisonMessage(undefined, content(running(3)), false).shown;
    assert.equal(applyRowsUpdate(before, { type: 'rows', load: before.load + 1, rows: [], summaries: null, progress: null }), before);
  });

  it('is refused by the page when an update is not of the agreed shape', () => {
    const rowsMessage = { type: 'rows', load: 1, rows: [{ index: -1, row: {} }], summaries: null, progress: null };
    assert.equal(isComparisonHostMessage(rowsMessage), false);
    assert.equal(isComparisonHostMessage({ type: 'rows', load: 1, rows: [], summaries: null }), false);
  });
});
