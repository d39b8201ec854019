import * as assert from 'node:assert/strict';
import { accuracyText, caseRows, correctnessLine, summarize, transitions } from '../../../src/core/comparison/compare';
import { comparisonMarkdown } from '../../../src/core/comparison/comparisonExport';
import { newComparison, type ComparisonRecord } from '../../../src/core/comparison/comparisonRecord';
import { comparisonView } from '../../../src/core/comparison/comparisonView';
import { JobStatus } from '../../../src/core/jobStatus';
import { gateExitCode, judgeTrial, parseThreshold } from '../../../src/core/trial/trialGate';

/** A comparison of Before and Trial on cases given as [expected or null, before's outcome, trial's outcome]. */
function crafted(rows: [string | null, string, string | null][]): ComparisonRecord {
  const record = newComparison({
    title: 'Trial',
    agentId: 'a',
    testSet: 'calls.testset.jsonl',
    cases: rows.map(([expected], i) => ({ line: i + 1, name: `case ${i}`, tags: [], inputs: { transcript: `t${i}` }, sourceJobId: `old-${i}`, ...(expected ? { expected: { disposition: expected } } : {}) })),
    targets: [
      { id: 'before', label: 'Before', kind: 'baseline' },
      { id: 'trial', label: 'Trial', kind: 'current' },
    ],
  });
  rows.forEach(([, b, t], i) => {
    const c = record.cases[i]!;
    c.runs.before = { jobId: `old-${i}`, status: JobStatus.SUCCESS, outputs: [{ key: 'disposition', value: b }] };
    c.runs.trial = t === null ? { jobId: `new-${i}` } : { jobId: `new-${i}`, status: JobStatus.SUCCESS, outputs: [{ key: 'disposition', value: t }] };
  });
  return record;
}

// 6 labelled: 2 became right, 1 became wrong, 1 stayed wrong, 2 stayed right; one unlabelled, one labelled but still running.
const SET: [string | null, string, string | null][] = [
  ['Compliant', 'Non-Compliant', 'Compliant'],
  ['Compliant', 'Non-Compliant', 'Compliant'],
  ['Non-Compliant', 'Non-Compliant', 'Compliant'],
  ['Needs Review', 'Compliant', 'Compliant'],
  ['Compliant', 'Compliant', 'Compliant'],
  ['Non-Compliant', 'Non-Compliant', 'Non-Compliant'],
  [null, 'Compliant', 'Non-Compliant'],
  ['Compliant', 'Compliant', null],
];

describe('what an edit does to correctness', () => {
  it('gives each target its accuracy with the number of labelled cases it is based on', () => {
    const record = crafted(SET);
    const [before, trial] = summarize(record);
    assert.equal(accuracyText(before!), '57% of 7 labelled');
    assert.equal(accuracyText(trial!), '67% of 6 labelled', 'a case still running on the trial is not counted for it');
    assert.equal(accuracyText({ accuracy: undefined, expected: 0 }), '–');
    assert.equal(comparisonView(record).summaries[1]!.accuracy, '67% of 6 labelled');
  });

  it('sorts the labelled cases both finished into became right, became wrong, stayed wrong and stayed right', () => {
    const t = transitions(crafted(SET), 0, 1);
    assert.deepEqual(t.becameRight, [0, 1]);
    assert.deepEqual(t.becameWrong, [2]);
    assert.deepEqual(t.stayedWrong, [3]);
    assert.deepEqual(t.stayedRight, [4, 5]);
    assert.deepEqual(t.outcomes, [
      { from: 'Non-Compliant', to: 'Compliant', count: 3 },
      { from: 'Compliant', to: 'Compliant', count: 2 },
      { from: 'Non-Compliant', to: 'Non-Compliant', count: 1 },
    ]);
  });

  it('says the change in one line: accuracy before and after, and how many cases moved each way', () => {
    const record = crafted(SET);
    const rows = caseRows(record);
    const [b, a] = summarize(record, rows);
    // 6 labelled cases both answered (a seventh still runs on the trial): 3 of 6 right before, 4 of 6 after.
    assert.equal(correctnessLine(b!, a!, transitions(record, 0, 1, rows)), 'accuracy 50% → 67% (on the 6 labelled cases both answered; 1 answered by one side only is left out): 2 cases became right, 1 became wrong');
    const same = crafted([['Compliant', 'Compliant', 'Compliant']]);
    const [sb, sa] = summarize(same);
    assert.equal(correctnessLine(sb!, sa!, transitions(same, 0, 1)), 'accuracy 100% → 100%: no case changed between right and wrong');
  });

  it('leads the Markdown summary with the accuracy line and the right/wrong table', () => {
    const md = comparisonMarkdown(crafted(SET));
    const lines = md.split('\n');
    assert.equal(lines[2], '**Trial** against Before: accuracy 50% → 67% (on the 6 labelled cases both answered; 1 answered by one side only is left out): 2 cases became right, 1 became wrong; 1 stayed wrong, 2 stayed right.');
    assert.match(md, /\| right \| 2 \| 1 \|\n\| wrong \| 2 \| 1 \|/);
    assert.ok(md.indexOf('accuracy 57%') < md.indexOf('Test set'), 'correctness comes before the other figures');
    assert.match(md, /\| Trial \| 67% of 6 labelled \|/);
  });

  it('says a trial’s rule coverage in one line under the test set’s, or in one sentence why it is not known', () => {
    const coverage = { known: true as const, reached: 17, total: 23, target: { id: 'trial', label: 'Trial' }, rules: [], unreached: [], cases: 8, casesRead: 8, casesWithoutRuleInformation: 0, notInPolicy: [], ambiguous: [] };
    const lines = comparisonMarkdown(crafted(SET), { ruleCoverage: coverage }).split('\n');
    assert.equal(lines[lines.findIndex((l) => l.startsWith('Test set')) + 2], 'Rule coverage: 17 of 23 rules reached by `calls.testset.jsonl`.');
    const unknown = comparisonMarkdown(crafted(SET), { ruleCoverage: { known: false, sentence: 'The outputs of “Trial” say nothing about which rules matched (no matched_rules output).' } });
    assert.match(unknown, /\nRule coverage: not known\. The outputs of “Trial” say nothing about which rules matched \\\(no matched\\_rules output\\\)\.\n/);
    assert.doesNotMatch(comparisonMarkdown(crafted(SET)), /Rule coverage/);
  });

  it('says so in the Markdown summary when no case is labelled', () => {
    const md = comparisonMarkdown(crafted([[null, 'A', 'B']]));
    assert.match(md.split('\n')[2]!, /^No finished case is labelled/);
  });
});

describe('a trial as a gate for CI', () => {
  it('fails the accuracy threshold below the percent and the newly-wrong threshold above the count, each with its own exit code', () => {
    const record = crafted(SET);
    const pass = judgeTrial(record, 'trial', { minAccuracy: 66, maxNewlyWrong: 1 });
    assert.deepEqual(pass.failed, []);
    assert.equal(gateExitCode([pass]), 0);
    const low = judgeTrial(record, 'trial', { minAccuracy: 70 });
    assert.deepEqual(low.failed.map((f) => f.threshold), ['min-accuracy']);
    assert.equal(gateExitCode([pass, low]), 3);
    const wrong = judgeTrial(record, 'trial', { maxNewlyWrong: 0 });
    assert.equal(wrong.failed[0]!.message, '--max-newly-wrong 0: 1 case became wrong');
    assert.equal(gateExitCode([wrong]), 4);
    assert.equal(gateExitCode([low, wrong]), 5);
  });

  it('fails an accuracy threshold it cannot measure rather than passing it', () => {
    const verdict = judgeTrial(crafted([[null, 'A', 'B']]), 'trial', { minAccuracy: 0 });
    assert.match(verdict.failed[0]!.message, /no labelled case finished/);
  });

  it('fails the rule coverage threshold below the percent with its own exit code, unless an accuracy threshold fails too', () => {
    const record = crafted(SET);
    const coverage = { known: true as const, reached: 8, total: 11, target: { id: 'trial', label: 'Trial' }, rules: [], unreached: [], cases: 8, casesRead: 8, casesWithoutRuleInformation: 0, notInPolicy: [], ambiguous: [] };
    assert.deepEqual(judgeTrial(record, 'trial', { minRuleCoverage: 72 }, coverage).failed, []);
    const low = judgeTrial(record, 'trial', { minRuleCoverage: 80 }, coverage);
    assert.deepEqual(low.failed, [{ threshold: 'min-rule-coverage', message: '--min-rule-coverage 80%: 8 of 11 rules reached (72.7%)' }]);
    assert.equal(gateExitCode([low]), 6);
    assert.equal(gateExitCode([judgeTrial(record, 'trial', { minRuleCoverage: 80, minAccuracy: 70 }, coverage)]), 3);
  });

  it('fails a rule coverage threshold it cannot measure, saying why in its sentence', () => {
    const unknown = { known: false as const, sentence: 'The outputs of “Trial” say nothing about which rules matched (no matched_rules output), so rule coverage cannot be read from them.' };
    const verdict = judgeTrial(crafted(SET), 'trial', { minRuleCoverage: 0 }, unknown);
    assert.equal(verdict.failed[0]!.message, '--min-rule-coverage 0%: rule coverage is not known. The outputs of “Trial” say nothing about which rules matched (no matched_rules output), so rule coverage cannot be read from them');
    assert.equal(gateExitCode([verdict]), 6);
  });

  it('reads thresholds as a percent and a count, and says what is wrong with a bad one', () => {
    assert.match(String(parseThreshold('min-rule-coverage', '101')), /--min-rule-coverage is a percent/);
    assert.equal(parseThreshold('min-accuracy', '75%'), 75);
    assert.equal(parseThreshold('max-newly-wrong', '0'), 0);
    assert.equal(parseThreshold('min-accuracy', undefined), undefined);
    assert.match(String(parseThreshold('min-accuracy', '120')), /percent/);
    assert.match(String(parseThreshold('max-newly-wrong', '1.5')), /number of cases/);
    assert.match(String(parseThreshold('max-newly-wrong', 'many')), /needs a number/);
  });
});
