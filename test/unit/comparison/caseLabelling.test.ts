import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { caseLabelEdit, caseReview, dispositionChoices, expectedFromCell, expectedWith, inputTexts, passDispositions, policyDispositions, syncExpectations, testSetFileOf } from '../../../src/core/comparison/caseLabelling';
import { labelProgress, nextUnlabelled, shownTarget } from '../../../src/core/comparison/labelWalk';
import type { RowView } from '../../../src/core/comparison/viewProtocol';
import { caseRows, summarize } from '../../../src/core/comparison/compare';
import { newComparison, type ComparisonRecord } from '../../../src/core/comparison/comparisonRecord';
import { writeLabel } from '../../../src/core/comparison/testSetLabel';
import { JobStatus } from '../../../src/core/jobStatus';

const TEST_SET = [
  '// agent: a · Support Call QA',
  '{"name":"refund","inputs":{"transcript":"t0"},"expected":"Non-Compliant"}',
  '{"name":"upgrade","inputs":{"transcript":"t1"}}',
  'not json at all',
  '{"name":"greeting","inputs":{"transcript":"t2"},"expected":{"disposition":"Compliant","outputs":{"score":"5"}}}',
  '',
].join('\n');

/** A comparison of Before and Trial on the test set above, every job done. */
function comparison(): ComparisonRecord {
  const record = newComparison({
    title: 'Trial',
    agentId: 'a',
    testSet: 'calls.testset.jsonl',
    cases: [
      { line: 2, name: 'refund', tags: [], inputs: { transcript: 't0' }, expected: { disposition: 'Non-Compliant' } },
      { line: 3, name: 'upgrade', tags: [], inputs: { transcript: 't1' } },
      { line: 5, name: 'greeting', tags: [], inputs: { transcript: 't2' }, expected: { disposition: 'Compliant', outputs: { score: '5' } } },
    ],
    targets: [
      { id: 'before', label: 'Before', kind: 'baseline' },
      { id: 'trial', label: 'Trial', kind: 'current' },
    ],
  });
  const outcomes = [['Non-Compliant', 'Compliant'], ['Compliant', 'Non-Compliant'], ['Compliant', 'Compliant']];
  record.cases.forEach((c, i) => {
    c.runs.before = { jobId: `b${i}`, status: JobStatus.SUCCESS, outputs: [{ key: 'disposition', value: outcomes[i]![0]! }, { key: 'score', value: '4' }] };
    c.runs.trial = { jobId: `t${i}`, status: JobStatus.SUCCESS, outputs: [{ key: 'disposition', value: outcomes[i]![1]! }, { key: 'score', value: '3' }] };
  });
  return record;
}

describe('labelling a case from its comparison', () => {
  it('makes the outcome of the cell called right what the case expects', () => {
    assert.deepEqual(expectedFromCell(comparison(), 0, 1), { disposition: 'Compliant' });
    assert.deepEqual(expectedFromCell(comparison(), 1, 0), { disposition: 'Compliant' });
  });

  it('takes the cell’s values of the other outputs the case already expects', () => {
    assert.deepEqual(expectedFromCell(comparison(), 2, 1), { disposition: 'Compliant', outputs: { score: '3' } });
  });

  it('offers nothing to agree with on a cell that has not finished or gave no outcome', () => {
    const record = comparison();
    record.cases[0]!.runs.trial = { jobId: 't0' };
    record.cases[1]!.runs.trial = { jobId: 't1', status: JobStatus.SUCCESS, outputs: [] };
    assert.equal(expectedFromCell(record, 0, 1), undefined);
    assert.equal(expectedFromCell(record, 1, 1), undefined);
    assert.equal(expectedFromCell(record, 9, 1), undefined, 'a case the comparison does not have');
  });

  it('sets one output of the expectation and keeps the rest, or clears it', () => {
    const keys = ['disposition', 'score'];
    const current = { disposition: 'Compliant', outputs: { score: '5' } };
    assert.deepEqual(expectedWith(current, keys, 0, 'Needs Review'), { disposition: 'Needs Review', outputs: { score: '5' } });
    assert.deepEqual(expectedWith(current, keys, 1, '2'), { disposition: 'Compliant', outputs: { score: '2' } });
    assert.deepEqual(expectedWith(current, keys, 1, undefined), { disposition: 'Compliant' });
    assert.equal(expectedWith({ disposition: 'Compliant' }, keys, 0, undefined), undefined, 'nothing left: no expectation');
    assert.deepEqual(expectedWith(undefined, keys, 1, '1'), { outputs: { score: '1' } });
  });

  it('writes the label over the expectation the comparison shows, changing that line only', () => {
    const record = comparison();
    const edit = caseLabelEdit(record, 1, expectedFromCell(record, 1, 1), { by: 'Ana', at: '2026-11-27T10:00:00.000Z' });
    const result = writeLabel('calls.testset.jsonl', TEST_SET, edit);
    assert.ok(result.ok);
    const before = TEST_SET.split('\n');
    const after = result.text.split('\n');
    assert.deepEqual(after.filter((_, i) => i !== 2), before.filter((_, i) => i !== 2), 'every other line keeps its bytes');
    assert.equal(after[2], '{"name":"upgrade","inputs":{"transcript":"t1"},"expected":"Non-Compliant","labelled_by":"Ana","labelled_at":"2026-11-27T10:00:00.000Z"}');
  });

  it('writes nothing when the file’s label is not the one the comparison showed', () => {
    const record = comparison();
    record.cases[0]!.expected = { disposition: 'Compliant' };
    const result = writeLabel('calls.testset.jsonl', TEST_SET, caseLabelEdit(record, 0, { disposition: 'Needs Review' }, {}));
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.message : '', /^refund was labelled "Non-Compliant" meanwhile \(you saw "Compliant"\); nothing was overwritten\.$/);
  });

  it('takes a new label of the test set into the comparison, and the figures follow without any job', () => {
    const record = comparison();
    const jobs = JSON.stringify(record.cases.map((c) => c.runs));
    assert.equal(summarize(record)[1]!.expected, 2);
    const labelled = writeLabel('calls.testset.jsonl', TEST_SET, caseLabelEdit(record, 1, { disposition: 'Compliant' }, {}));
    assert.ok(labelled.ok);
    assert.deepEqual(syncExpectations(record, 'calls.testset.jsonl', labelled.text), [1]);
    assert.deepEqual(record.cases[1]!.expected, { disposition: 'Compliant' });
    const [before, trial] = summarize(record, caseRows(record));
    assert.deepEqual([before!.agree, before!.expected, trial!.agree, trial!.expected], [2, 3, 0, 3], "the upgrade counts: right on Before, wrong on Trial");
    assert.equal(JSON.stringify(record.cases.map((c) => c.runs)), jobs, 'no run was touched');
    assert.deepEqual(syncExpectations(record, 'calls.testset.jsonl', labelled.text), [], 'the same text again changes nothing');
  });

  it('leaves a case alone when its line now holds another case or none', () => {
    const record = comparison();
    const moved = TEST_SET.replace('{"name":"refund"', '{"name":"other"').replace('{"name":"greeting","inputs":{"transcript":"t2"},"expected":{"disposition":"Compliant","outputs":{"score":"5"}}}', '');
    assert.deepEqual(syncExpectations(record, 'calls.testset.jsonl', moved), []);
    assert.deepEqual(record.cases[0]!.expected, { disposition: 'Non-Compliant' });
    assert.deepEqual(record.cases[2]!.expected, { disposition: 'Compliant', outputs: { score: '5' } });
  });

  it('clears the comparison’s copy when the test set no longer expects anything of the case', () => {
    const record = comparison();
    assert.deepEqual(syncExpectations(record, 'calls.testset.jsonl', TEST_SET.replace(',"expected":"Non-Compliant"', '')), [0]);
    assert.equal(record.cases[0]!.expected, undefined);
  });
});

describe('Set Expected… on a case', () => {
  const content = { dispositions: { classifications: [{ name: 'Compliant' }, { name: ' Non-Compliant ' }, { name: 'Compliant' }, { name: '' }, { description: 'nameless' }, 'text'] } };

  it('reads the dispositions a policy names, once each', () => {
    assert.deepEqual(policyDispositions(content), ['Compliant', 'Non-Compliant']);
    assert.deepEqual(policyDispositions({ dispositions: { classifications: 'none' } }), []);
    assert.deepEqual(policyDispositions(null), []);
  });

  it('offers the policy’s dispositions, then outcomes the targets gave that the policy does not name, saying who gave each', () => {
    const record = comparison();
    record.cases[0]!.runs.trial!.outputs = [{ key: 'disposition', value: 'Escalate' }];
    const choices = dispositionChoices(record, 0, ['Compliant', 'Non-Compliant', 'Needs Review']);
    assert.deepEqual(choices.map((c) => [c.value, c.inPolicy, c.givenBy.join('+'), c.current]), [
      ['Compliant', true, '', false],
      ['Non-Compliant', true, 'Before', true],
      ['Needs Review', true, '', false],
      ['Escalate', false, 'Trial', false],
    ]);
    assert.ok(choices.every((c) => !c.reviewed), 'nobody corrected the job');
  });

  it('marks the outcome a reviewer corrected the case’s job to, and says whether the label disagrees', () => {
    const record = comparison();
    record.cases[0]!.runs.before!.reviewed = ' needs review';
    assert.deepEqual(dispositionChoices(record, 0, ['Compliant', 'Non-Compliant', 'Needs Review']).filter((c) => c.reviewed).map((c) => c.value), ['Needs Review']);
    assert.deepEqual(caseReview(record.cases[0]!), { verdict: ' needs review', disagrees: true });
    record.cases[0]!.expected = { disposition: 'Needs Review ' };
    assert.deepEqual(caseReview(record.cases[0]!), { verdict: ' needs review', disagrees: false });
    delete record.cases[0]!.expected;
    assert.equal(caseReview(record.cases[0]!)?.disagrees, false, 'nothing expected: nothing to disagree with');
    assert.equal(caseReview(record.cases[1]!), undefined);
  });
});

describe('the test set a comparison labels', () => {
  const root = path.resolve('/work/space');

  it('is the file its comparison names, beside it or under the workspace', () => {
    assert.deepEqual(testSetFileOf(path.join(root, 'tests', 'calls.comparison.json'), 'calls.testset.jsonl', [root]), { ok: true, path: path.join(root, 'tests', 'calls.testset.jsonl') });
    assert.deepEqual(testSetFileOf(path.join(root, 'tests', 'calls.comparison.json'), '../sets/calls.testset.csv', [root]), { ok: true, path: path.join(root, 'sets', 'calls.testset.csv') });
  });

  it('is refused when a crafted comparison points outside the workspace or at a file that is not a test set', () => {
    const outside = testSetFileOf(path.join(root, 'calls.comparison.json'), '../../home/me/.bashrc.testset.jsonl', [root]);
    assert.equal(outside.ok, false);
    assert.match(!outside.ok ? outside.reason : '', /outside the workspace folders/);
    const notSet = testSetFileOf(path.join(root, 'calls.comparison.json'), 'package.json', [root]);
    assert.match(!notSet.ok ? notSet.reason : '', /not a \*\.testset\.jsonl or \*\.testset\.csv file/);
  });
});

describe('the labelling pass', () => {
  const row = (name: string, expected: string | null, outcomes: (string | null)[]): RowView => ({
    case: name,
    tags: '',
    expected,
    reviewed: null,
    reviewDisagrees: false,
    changed: false,
    failed: false,
    mismatch: false,
    why: null,
    cells: outcomes.map((o) => ({ state: o === null ? 'running' : 'done', values: [o], changed: false, mismatch: null, cost: null, tokens: null, durationMs: null, cached: false })),
  });
  const rows = [row('a', 'Compliant', ['Compliant', 'Compliant']), row('b', null, ['Compliant', 'Non-Compliant']), row('c', 'Compliant', ['Compliant', null]), row('d', null, ['Non-Compliant', null])];
  const targets = [{ label: 'Before', kind: 'baseline' }, { label: 'Trial', kind: 'current' }];

  it('walks the unlabelled cases from where it starts, round to the top, past the ones skipped', () => {
    assert.equal(nextUnlabelled(rows, 0), 1);
    assert.equal(nextUnlabelled(rows, 2), 3);
    assert.equal(nextUnlabelled(rows, 3, new Set([3])), 1, 'round to the top');
    assert.equal(nextUnlabelled(rows, 0, new Set([1, 3])), undefined, 'nothing left');
  });

  it('says how many cases are labelled of all', () => {
    assert.equal(labelProgress(rows), '2 of 4 labelled');
  });

  it('agrees, on Enter, with the outcome of the target compared with the baseline, else the baseline’s', () => {
    assert.equal(shownTarget(targets, rows[1]!), 1);
    assert.equal(shownTarget(targets, rows[3]!), 0, 'the trial is still running');
    assert.equal(shownTarget(targets, row('e', null, [null, null])), undefined);
  });

  it('numbers the policy’s dispositions, then the other outcomes the targets gave', () => {
    const record = comparison();
    record.cases[1]!.runs.trial!.outputs = [{ key: 'disposition', value: 'Escalate' }];
    assert.deepEqual(passDispositions(record, ['Compliant', 'Non-Compliant', 'Needs Review']), ['Compliant', 'Non-Compliant', 'Needs Review', 'Escalate']);
    assert.deepEqual(passDispositions(record, []), ['Non-Compliant', 'Compliant', 'Escalate']);
  });

  it('shows a case’s inputs as text, a file input by its path, long text cut', () => {
    const record = comparison();
    record.cases[0]!.inputs = { transcript: 'x'.repeat(30), audio: { file: 'calls/a.wav' } };
    assert.deepEqual(inputTexts(record, 0, 25), [['transcript', `${'x'.repeat(25)}…`], ['audio', '{"file":"calls/a.wav"}']]);
  });
});
