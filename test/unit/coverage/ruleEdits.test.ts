// Which rules an edit of a policy changes, and how many cases of a test set reach each: what a trial of the edit can show.
import * as assert from 'node:assert/strict';
import { newComparison, type RunOutput } from '../../../src/core/comparison/comparisonRecord';
import { ruleCoverage } from '../../../src/core/coverage/ruleCoverage';
import { baseTargetId, editReach, editReachLines, noChangedRuleReached, ruleEdits, ruleSearchText, unreachedEditSentence, type RuleEdit } from '../../../src/core/coverage/ruleEdits';
import { trialStartQuestion } from '../../../src/core/trial/trialFiles';

type Rule = { title: string; description?: string; flag?: 'GREEN_FLAG' | 'RED_FLAG'; id?: string; sub_rules?: Rule[] };
const policy = (...categories: { title: string; rules: Rule[] }[]) => ({ guidelines: { categories } });
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const BASE = policy(
  { title: 'Identity', rules: [{ title: 'Verifies the caller', flag: 'GREEN_FLAG', sub_rules: [{ title: 'Asks for the PIN', description: 'Listen for “account PIN”.' }, { title: 'Reads out the card number', flag: 'RED_FLAG' }] }] },
  { title: 'Resolution', rules: [{ title: 'States a next step' }, { title: 'Promises outcomes outside policy', flag: 'RED_FLAG' }] },
);

const summary = (edits: RuleEdit[]) => edits.map((e) => [e.kind, (e.after ?? e.before)!.title, e.changes.join('+')]);

describe('the rules an edit of a policy changes', () => {
  it('names nothing for an edit that changes no rule (ids the service makes anew do not count)', () => {
    const edited = copy(BASE);
    edited.guidelines.categories[0]!.rules[0]!.id = 'r-123';
    assert.deepEqual(ruleEdits(BASE, edited), []);
  });

  it('names a rule whose flag changed, a sub-rule whose text changed, a renamed rule, a removed and an added one', () => {
    const edited = copy(BASE);
    const [identity, resolution] = edited.guidelines.categories;
    identity!.rules[0]!.sub_rules![0]!.description = 'Listen for “one-time code”.';
    identity!.rules[0]!.sub_rules![1]!.title = 'Reads out any card number';
    resolution!.rules[1]!.flag = 'GREEN_FLAG';
    resolution!.rules.splice(0, 1);
    resolution!.rules.push({ title: 'Offers a callback' });
    assert.deepEqual(summary(ruleEdits(BASE, edited)), [
      ['changed', 'Asks for the PIN', 'text'],
      ['changed', 'Reads out any card number', 'title'],
      ['removed', 'States a next step', ''],
      ['changed', 'Promises outcomes outside policy', 'flag'],
      ['added', 'Offers a callback', ''],
    ]);
  });

  it('takes a rule moved to another place for the same rule, unchanged', () => {
    const edited = copy(BASE);
    edited.guidelines.categories[1]!.rules.reverse();
    assert.deepEqual(ruleEdits(BASE, edited), []);
  });

  it('says a rule whose category was renamed moved (outputs name it by its category)', () => {
    const edited = copy(BASE);
    edited.guidelines.categories[1]!.title = 'Outcome';
    assert.deepEqual(summary(ruleEdits(BASE, edited)), [
      ['changed', 'States a next step', 'category'],
      ['changed', 'Promises outcomes outside policy', 'category'],
    ]);
  });

  it('gives a text search the rule’s title and description', () => {
    const rule = ruleEdits(BASE, policy())[1]!.before!;
    assert.equal(ruleSearchText(BASE, rule), 'Asks for the PIN Listen for “account PIN”.');
  });
});

describe('how many cases reach the rules an edit changes', () => {
  const matched = (...rules: [string, string][]): RunOutput[] => [{ key: 'matched_rules', value: JSON.stringify(rules.map(([category, rule]) => ({ category, rule }))) }];
  const record = newComparison({
    title: 't', agentId: 'a', testSet: 'qa.testset.jsonl',
    cases: [1, 2, 3].map((line) => ({ line, tags: [], inputs: {}, name: `call ${line}` })),
    targets: [{ id: 'trial', label: 'Trial', kind: 'current', agentId: 'copy' }, { id: 'now', label: 'Current version now', kind: 'current' }],
  });
  record.cases.forEach((c, i) => {
    c.runs.now = { jobId: `n${i}`, status: 3, outputs: matched(['Resolution', 'Promises outcomes outside policy'], ['Identity', 'Verifies the caller']) };
    c.runs.trial = { jobId: `t${i}`, status: 3, outputs: [{ key: 'disposition', value: 'Compliant' }] };
  });
  const coverage = ruleCoverage(BASE, record, { targetId: baseTargetId(record) });

  it('reads the outputs of the agent’s current version, not a trial’s', () => {
    assert.equal(baseTargetId(record), 'now');
  });

  it('counts the cases reaching each changed rule as it was, and none for a new rule', () => {
    const edited = copy(BASE);
    edited.guidelines.categories[1]!.rules[1]!.flag = 'GREEN_FLAG';
    edited.guidelines.categories[1]!.rules.push({ title: 'Offers a callback' });
    const reach = editReach(ruleEdits(BASE, edited), coverage, 'qa.testset.jsonl');
    assert.equal(noChangedRuleReached(reach), false);
    assert.deepEqual(editReachLines(reach), [
      'Rules this edit changes (2), and the cases of qa.testset.jsonl that reach each:',
      '• 2.2 “Promises outcomes outside policy”: flag changed; 3 cases.',
      '• 2.3 “Offers a callback”: added; no case reaches it yet (new).',
    ]);
  });

  it('says when no case reaches any rule the edit changes', () => {
    const edited = copy(BASE);
    edited.guidelines.categories[0]!.rules[0]!.sub_rules![0]!.flag = 'GREEN_FLAG';
    const reach = editReach(ruleEdits(BASE, edited), coverage, 'qa.testset.jsonl');
    assert.equal(noChangedRuleReached(reach), true);
    assert.equal(unreachedEditSentence(reach), 'No case of qa.testset.jsonl reaches the rule this edit changes: the trial cannot show its effect.');
  });

  it('says the coverage is not known when the outputs say nothing about rules', () => {
    const reach = editReach(ruleEdits(BASE, policy()), ruleCoverage(BASE, record, { targetId: 'trial' }), 'qa.testset.jsonl');
    assert.equal(noChangedRuleReached(reach), false);
    assert.match(editReachLines(reach)[0]!, /^Rule coverage: The outputs of “Trial” say nothing about which rules matched/);
  });
});

describe('the question before a trial starts, with the rules its edit changes', () => {
  const estimate = { jobs: 3, tokens: 3000, cost: 0.06, basis: '20 recent jobs of the agent' };
  const base = { policyName: 'Quality', agentName: 'Support Call QA', testSet: 'qa.testset.jsonl', cases: 3, estimate, baseline: 'before' as const };
  const pin = { number: '1.1.1', path: 'Identity › Verifies the caller › Asks for the PIN', category: 'Identity', title: 'Asks for the PIN', depth: 1, jsonPath: [] };
  const flagChanged: RuleEdit = { kind: 'changed', before: pin, after: { ...pin, flag: 'GREEN_FLAG' }, changes: ['flag'] };

  it('names the rules it changes and the cases that reach each, and asks as before', () => {
    const q = trialStartQuestion({ ...base, rules: { known: true, testSet: 'qa.testset.jsonl', rules: [{ edit: flagChanged, cases: 2 }] } });
    assert.match(q.message, /^Try this edit of “Quality”/);
    assert.match(q.detail, /• 1\.1\.1 “Asks for the PIN”: flag changed; 2 cases\./);
    assert.equal(q.button, 'Start 3 Jobs');
    assert.equal(q.alternative, undefined);
  });

  it('says first that the trial cannot show the effect of an edit no case reaches, and offers to find cases', () => {
    const q = trialStartQuestion({ ...base, rules: { known: true, testSet: 'qa.testset.jsonl', rules: [{ edit: flagChanged, cases: 0 }] } });
    assert.equal(q.message, 'No case of qa.testset.jsonl reaches the rule this edit changes: the trial cannot show its effect.');
    assert.match(q.detail, /Try this edit of “Quality”/);
    assert.match(q.detail, /no case reaches it\./);
    assert.equal(q.button, 'Start 3 Jobs Anyway');
    assert.equal(q.alternative, 'Find Cases for This Rule');
  });
});
