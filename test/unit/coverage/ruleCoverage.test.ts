// Rule coverage: which rules of a policy version the cases of a comparison reach, read from one target's outputs.
import * as assert from 'node:assert/strict';
import { newComparison, type ComparisonRecord, type ComparisonTarget, type RunOutput } from '../../../src/core/comparison/comparisonRecord';
import { coverageTableLines, ruleCoverageLine, ruleLensText, unmatchedLines } from '../../../src/core/coverage/coverageText';
import { policyRuleList } from '../../../src/core/coverage/policyRuleList';
import { coveragePercent, defaultCoverageTarget, ruleCoverage, type KnownCoverage, type RuleCoverage } from '../../../src/core/coverage/ruleCoverage';

type Rule = { title: string; flag?: 'GREEN_FLAG' | 'RED_FLAG'; sub_rules?: Rule[] };
const policy = (...categories: { title: string; rules: Rule[] }[]) => ({ guidelines: { categories }, dispositions: { classifications: [{ name: 'Compliant' }, { name: 'Non-Compliant' }] } });

const CALLS = policy(
  { title: 'Identity', rules: [{ title: 'Verifies the caller', flag: 'GREEN_FLAG', sub_rules: [{ title: 'Asks for the PIN' }, { title: 'Reads out the card number', flag: 'RED_FLAG' }] }] },
  { title: 'Resolution', rules: [{ title: 'States a next step' }, { title: 'Promises outcomes outside policy', flag: 'RED_FLAG' }] },
);

/** The sandbox's `matched_rules` output: category and title of each rule that matched. */
const matched = (...rules: [string, string][]): RunOutput[] => [
  { key: 'disposition', value: 'Compliant' },
  { key: 'matched_rules', value: JSON.stringify(rules.map(([category, rule]) => ({ category, rule, flag: null, input: 'transcript', evidence: '…' }))) },
];

/** A comparison of cases (each: the outputs on "now", and a label) on the results before and the current version now. */
function comparison(cases: { outputs?: RunOutput[]; expected?: string; name?: string }[], targets?: ComparisonTarget[]): ComparisonRecord {
  const record = newComparison({
    title: 't', agentId: 'a', testSet: 'calls.testset.jsonl',
    cases: cases.map((c, i) => ({ line: i + 1, tags: [], inputs: {}, name: c.name ?? `call ${i + 1}`, expected: c.expected ? { disposition: c.expected } : undefined })),
    targets: targets ?? [{ id: 'before', label: 'Results before', kind: 'baseline' }, { id: 'now', label: 'Current version now', kind: 'current' }],
  });
  cases.forEach((c, i) => {
    if (c.outputs) record.cases[i]!.runs.now = { jobId: `job-${i}`, status: 3, outputs: c.outputs };
  });
  return record;
}

function known(coverage: RuleCoverage): KnownCoverage {
  if (!coverage.known) assert.fail(`coverage not known: ${coverage.sentence}`);
  return coverage;
}

const casesOf = (coverage: KnownCoverage, number: string): string[] => coverage.rules.find((r) => r.rule.number === number)!.cases.map((c) => c.name);

describe('rule coverage of a policy by a test set', () => {
  it('lists every rule and sub-rule with its number, path and place in the content', () => {
    const rules = policyRuleList(CALLS);
    assert.deepEqual(rules.map((r) => [r.number, r.path]), [
      ['1.1', 'Identity › Verifies the caller'],
      ['1.1.1', 'Identity › Verifies the caller › Asks for the PIN'],
      ['1.1.2', 'Identity › Verifies the caller › Reads out the card number'],
      ['2.1', 'Resolution › States a next step'],
      ['2.2', 'Resolution › Promises outcomes outside policy'],
    ]);
    assert.deepEqual(rules[2]!.jsonPath, ['guidelines', 'categories', 0, 'rules', 0, 'sub_rules', 1]);
    assert.equal(rules[2]!.depth, 1);
  });

  it('counts a sub-rule reached on its own, and says which rules no case reaches', () => {
    const coverage = known(ruleCoverage(CALLS, comparison([
      { outputs: matched(['Identity', 'Verifies the caller'], ['Identity', 'Reads out the card number']), expected: 'Non-Compliant' },
      { outputs: matched(['Identity', 'Verifies the caller'], ['Resolution', 'States a next step']), expected: 'Compliant' },
      { outputs: matched(['Resolution', 'States a next step']) },
    ])));
    assert.equal(ruleCoverageLine(coverage, 'calls.testset.jsonl'), 'Rule coverage: 3 of 5 rules reached by calls.testset.jsonl.');
    assert.deepEqual(casesOf(coverage, '1.1.2'), ['call 1']);
    assert.deepEqual(coverage.unreached.map((r) => r.number), ['1.1.1', '2.2']);
    assert.equal(coveragePercent(coverage), 60);
    assert.equal(coverage.casesRead, 3);
  });

  it('says how many of the cases reaching a rule are labelled, and with which expected outcome', () => {
    const coverage = known(ruleCoverage(CALLS, comparison([
      { outputs: matched(['Resolution', 'States a next step']), expected: 'Compliant' },
      { outputs: matched(['Resolution', 'States a next step']), expected: 'Non-Compliant' },
      { outputs: matched(['Resolution', 'States a next step']), expected: 'Compliant' },
      { outputs: matched(['Resolution', 'States a next step']) },
    ])));
    const row = coverage.rules.find((r) => r.rule.number === '2.1')!;
    assert.equal(row.cases.length, 4);
    assert.equal(row.labelled, 3);
    assert.deepEqual(row.expected, [{ outcome: 'Compliant', cases: 2 }, { outcome: 'Non-Compliant', cases: 1 }]);
    assert.match(coverageTableLines(coverage).find((l) => l.startsWith('2.1 '))!, /States a next step\s+4 {2}3 \(2 Compliant, 1 Non-Compliant\)$/);
  });

  it('keeps two rules of one title in two categories apart, by the category the output names', () => {
    const twice = policy({ title: 'Opening', rules: [{ title: 'Uses the customer’s name' }] }, { title: 'Closing', rules: [{ title: 'Uses the customer’s name' }] });
    const coverage = known(ruleCoverage(twice, comparison([{ outputs: matched(['Closing', 'Uses the customer’s name']) }])));
    assert.deepEqual(coverage.rules.map((r) => [r.rule.path, r.cases.length]), [['Opening › Uses the customer’s name', 0], ['Closing › Uses the customer’s name', 1]]);
  });

  it('counts a title several rules share for none of them when the outputs give no category, and says so', () => {
    const twice = policy({ title: 'Opening', rules: [{ title: 'Uses the name' }] }, { title: 'Closing', rules: [{ title: 'Uses the name' }] });
    const coverage = known(ruleCoverage(twice, comparison([{ outputs: [{ key: 'matched_rules', value: JSON.stringify(['Uses the name']) }] }])));
    assert.equal(coverage.reached, 0);
    assert.deepEqual(coverage.ambiguous.map((n) => n.candidates), [['Opening › Uses the name', 'Closing › Uses the name']]);
    assert.match(unmatchedLines(coverage)[0]!, /^Counted for no rule: “Uses the name”, matched by 1 case, names 2 rules/);
  });

  it('shows a rule renamed since the jobs ran as not reached, and its old title as not found in this version', () => {
    const renamed = policy(
      { title: 'Identity', rules: [{ title: 'Verifies the caller before sharing details', sub_rules: [{ title: 'Asks for the PIN' }, { title: 'Reads out the card number' }] }] },
      { title: 'Resolution', rules: [{ title: 'States a next step' }, { title: 'Promises outcomes outside policy' }] },
    );
    const record = comparison([{ outputs: matched(['Identity', 'Verifies the caller'], ['Resolution', 'States a next step']) }]);
    const coverage = known(ruleCoverage(renamed, record));
    assert.deepEqual(casesOf(coverage, '1.1'), []);
    assert.ok(coverage.unreached.some((r) => r.title === 'Verifies the caller before sharing details'));
    assert.deepEqual(coverage.notInPolicy.map((n) => [n.category, n.name, n.cases.length]), [['Identity', 'Verifies the caller', 1]]);
    assert.match(unmatchedLines(coverage)[0]!, /^Not found in this version: “Identity › Verifies the caller”, matched by 1 case \(renamed or removed/);
  });

  it('lists apart a rule an output names that the policy does not have, and counts the rules it has', () => {
    const coverage = known(ruleCoverage(CALLS, comparison([{ outputs: matched(['Tone', 'Interrupts the customer'], ['Resolution', 'States a next step']) }])));
    assert.equal(coverage.reached, 1);
    assert.deepEqual(coverage.notInPolicy.map((n) => n.name), ['Interrupts the customer']);
    assert.deepEqual(coverage.notInPolicy[0]!.cases.map((c) => c.index), [0]);
  });

  it('says in one sentence, and nothing else, when the outputs say nothing about which rules matched', () => {
    const coverage = ruleCoverage(CALLS, comparison([{ outputs: [{ key: 'disposition', value: 'Compliant' }, { key: 'summary', value: 'fine' }] }, { outputs: [{ key: 'disposition', value: 'Compliant' }] }]));
    assert.deepEqual(Object.keys(coverage).sort(), ['known', 'sentence', 'target']);
    assert.equal(coverage.known, false);
    assert.equal((coverage as { sentence: string }).sentence, 'The outputs of “Current version now” say nothing about which rules matched (no matched_rules output), so rule coverage cannot be read from them.');
    assert.equal(ruleCoverageLine(coverage, 'x.testset.jsonl'), `Rule coverage: not known. ${(coverage as { sentence: string }).sentence}`);
  });

  it('says so when no case has outputs yet, rather than calling every rule unreached', () => {
    const coverage = ruleCoverage(CALLS, comparison([{}, {}]));
    assert.equal(coverage.known, false);
    assert.match((coverage as { sentence: string }).sentence, /^No case has outputs on “Current version now” yet/);
  });

  it('counts the cases whose outputs say nothing about rules apart from those that reach none', () => {
    const coverage = known(ruleCoverage(CALLS, comparison([{ outputs: matched() }, { outputs: [{ key: 'disposition', value: 'x' }] }, {}])));
    assert.equal(coverage.casesRead, 1);
    assert.equal(coverage.casesWithoutRuleInformation, 2);
    assert.equal(coverage.reached, 0);
  });

  it('says a policy with no rules has nothing to cover', () => {
    const coverage = ruleCoverage({ instructions: 'Be nice.' }, comparison([{ outputs: matched(['Identity', 'Verifies the caller']) }]));
    assert.equal(coverage.known, false);
    assert.match((coverage as { sentence: string }).sentence, /has no rules/);
  });

  it('reads the trial’s outputs by default, else the current version now, else the newest version that ran, and any target asked for', () => {
    const trial: ComparisonTarget[] = [{ id: 'now', label: 'Current version now', kind: 'current' }, { id: 'trial', label: 'Trial of the edit', kind: 'current', agentId: 'copy' }];
    assert.equal(defaultCoverageTarget({ targets: trial })!.id, 'trial');
    const versions: ComparisonTarget[] = [{ id: 'v-1', label: 'v3', kind: 'version', agentVersionId: '1' }, { id: 'now', label: 'Current version now', kind: 'current' }, { id: 'v-2', label: 'v4', kind: 'version', agentVersionId: '2' }];
    assert.equal(defaultCoverageTarget({ targets: versions })!.id, 'now');
    const failed: ComparisonTarget[] = [{ id: 'v-1', label: 'v3', kind: 'version', agentVersionId: '1' }, { id: 'v-2', label: 'v1', kind: 'version', agentVersionId: '2', failed: 'Unknown input' }];
    assert.equal(defaultCoverageTarget({ targets: failed })!.id, 'v-1', 'never a target that failed');
    assert.equal(defaultCoverageTarget({ targets: [...failed].reverse() }, '1')!.id, 'v-1', 'the newest version when the caller knows it');
    const record = comparison([{ outputs: matched(['Resolution', 'States a next step']) }]);
    record.cases[0]!.runs.before = { jobId: 'old', status: 3, outputs: matched(['Identity', 'Verifies the caller']) };
    assert.deepEqual(casesOf(known(ruleCoverage(CALLS, record, { targetId: 'before' })), '1.1'), ['call 1']);
    assert.throws(() => ruleCoverage(CALLS, record, { targetId: 'nope' }), /The comparison has no target "nope"; its targets are "before" \(Results before\), "now" \(Current version now\)\./);
  });
});

describe('a rule’s coverage in the policy editor', () => {
  const row = (cases: number, labelled: number) => ({ cases: Array.from({ length: cases }, (_, index) => ({ index, name: `call ${index}`, labelled: index < labelled })), labelled });

  it('says how many cases reach a rule and how many of them are labelled, or that none reaches it', () => {
    assert.equal(ruleLensText(row(4, 3)), '4 cases · 3 labelled');
    assert.equal(ruleLensText(row(2, 2)), '2 cases · all labelled');
    assert.equal(ruleLensText(row(1, 0)), '1 case · not labelled');
    assert.equal(ruleLensText(row(3, 0)), '3 cases · none labelled');
    assert.equal(ruleLensText(row(0, 0)), 'no case reaches this rule');
  });
});
