import * as assert from 'node:assert/strict';
import { agentOfTarget, jobAgents, newComparison } from '../../../src/core/comparison/comparisonRecord';
import { visibleAgentsPage } from '../../../src/core/filters/agentFilter';
import { trialPlan } from '../../../src/core/trial/trialComparison';
import { comparisonOfTrialFile, testSetBase, trialFileNames, trialFileOfComparison, trialStartQuestion } from '../../../src/core/trial/trialFiles';
import { isTrialEntity, readMarker, trialMarker, trialName, trialUserName } from '../../../src/core/trial/trialMarker';

const marked = (name: string) => ({ name, description: `copy · ${trialMarker({ trialId: 'abcdef12-3456', user: 'Ana Lima' })}` });

describe('Trial names and markers', () => {
  it('names a copy by what it is, when it was made and whose it is', () => {
    assert.equal(trialName('Customer Call Quality Standard', 'Ana', new Date('2026-11-24T14:05:33Z')), 'Customer Call Quality Standard · trial 2026-11-24 14:05 · Ana');
  });

  it('reads the marker back, user included, and tells trial entities from others by it (not by name)', () => {
    assert.deepEqual(readMarker(marked('x').description), { trialId: 'abcdef12-3456', user: 'Ana Lima' });
    assert.equal(isTrialEntity(marked('x')), true);
    assert.equal(isTrialEntity({ description: 'Support Call QA · trial 2026-11-24 14:05 · Ana' }), false);
    assert.equal(isTrialEntity({ description: null }), false);
  });

  it('calls the signed-in user by display name, first name or e-mail, in that order', () => {
    assert.equal(trialUserName({ display_name: 'Ana L.', first_name: 'Ana', email: 'ana@example.com' }), 'Ana L.');
    assert.equal(trialUserName({ display_name: ' ', first_name: 'Ana', email: 'ana@example.com' }), 'Ana');
    assert.equal(trialUserName({ email: 'ana.lima@example.com' }), 'ana.lima');
    assert.equal(trialUserName(undefined), 'me');
  });
});

describe('Trial files in the workspace', () => {
  it('puts the trial and its comparison beside the test set, and finds one from the other', () => {
    assert.equal(testSetBase('support-call-qa.testset.jsonl'), 'support-call-qa');
    assert.equal(testSetBase('cases.testset.csv'), 'cases');
    assert.deepEqual(trialFileNames('support-call-qa'), { trial: 'support-call-qa.trial.json', comparison: 'support-call-qa.trial.comparison.json' });
    assert.equal(trialFileOfComparison('support-call-qa-2.trial.comparison.json'), 'support-call-qa-2.trial.json');
    assert.equal(comparisonOfTrialFile('support-call-qa-2.trial.json'), 'support-call-qa-2.trial.comparison.json');
  });

  it('knows a comparison that is not a trial’s', () => {
    assert.equal(trialFileOfComparison('support-call-qa.comparison.json'), undefined);
  });
});

describe('What a trial runs', () => {
  const c = (sourceJobId?: string) => ({ line: 1, tags: [], inputs: { transcript: 't' }, ...(sourceJobId ? { sourceJobId } : {}) });

  it('reads the results before at no cost when every case has them, and runs only the trial', () => {
    assert.deepEqual(trialPlan([c('j1'), c('j2')]), { baseline: 'before', jobs: 2, beforeJobIds: ['j1', 'j2'] });
  });

  it('runs the current version now beside the trial when a case has no results before', () => {
    assert.deepEqual(trialPlan([c('j1'), c()]), { baseline: 'now', jobs: 4, beforeJobIds: [] });
  });

  it('asks with the number of jobs on its button and says what they cost and that production is untouched', () => {
    const q = trialStartQuestion({ policyName: 'Quality', agentName: 'Support Call QA', testSet: 'qa.testset.jsonl', cases: 3, estimate: { jobs: 6, tokens: 6000, cost: 0.12, basis: '20 recent jobs of the agent' }, baseline: 'now' });
    assert.equal(q.button, 'Start 6 Jobs');
    assert.match(q.message, /production is not touched until you publish/);
    assert.match(q.detail, /6 jobs, about 6k tokens, about 0\.12 credits \((likely [^;]+; )?estimated from 20 recent jobs of the agent\)/);
    assert.match(q.detail, /trial copy of Support Call QA/);
  });
});

describe('A trial’s comparison', () => {
  it('starts and follows the trial target’s jobs as jobs of the trial agent, not of the real one', () => {
    const record = newComparison({
      title: 't',
      agentId: 'real',
      testSet: 'x.testset.jsonl',
      cases: [{ line: 1, tags: [], inputs: {} }],
      targets: [
        { id: 'now', label: 'now', kind: 'current' },
        { id: 'trial', label: 'trial', kind: 'current', agentId: 'copy' },
      ],
    });
    record.cases[0]!.runs.now = { jobId: 'j-now' };
    record.cases[0]!.runs.trial = { jobId: 'j-trial' };
    assert.equal(agentOfTarget(record, record.targets[1]!), 'copy');
    assert.deepEqual([...jobAgents(record)], [['j-now', 'real'], ['j-trial', 'copy']]);
  });
});

describe('Hiding trial agents in the Agents view', () => {
  const page = { count: 5, results: [{ name: 'a', description: null }, marked('b'), { name: 'c', description: 'plain' }] };

  it('shows every agent, trials marked, unless the filter hides them', () => {
    assert.deepEqual(visibleAgentsPage({}, page, 0), { count: 5, results: page.results, hidden: 0 });
  });

  it('leaves trials out and lowers the count by those seen so far', () => {
    const first = visibleAgentsPage({ hideTrials: true }, page, 0);
    assert.deepEqual(first.results.map((a) => a.name), ['a', 'c']);
    assert.equal(first.count, 4);
    const second = visibleAgentsPage({ hideTrials: true }, { count: 5, results: [marked('d')] }, first.hidden);
    assert.deepEqual(second, { count: 3, results: [], hidden: 2 });
  });
});
