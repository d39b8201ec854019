// The demo's labelled test set leaves some rules of its policy unreached: what a walkthrough of rule coverage shows.
import * as assert from 'node:assert/strict';
import { newComparison } from '../../../src/core/comparison/comparisonRecord';
import { parseTestSet } from '../../../src/core/comparison/testSet';
import { ruleCoverageLine } from '../../../src/core/coverage/coverageText';
import { ruleCoverage } from '../../../src/core/coverage/ruleCoverage';
import { runEngine } from '../../../src/sandbox/engine/engineRun';
import { DEMO_LOOP_POLICY_NAME } from '../../../src/sandbox/seed/demoLoop';
import { DEMO_POLICIES } from '../../../src/sandbox/seed/demoPolicies';
import { DEMO_WORKSPACE_FILES } from '../../harness/index.mjs';

const TEST_SET = 'tests/support-call-qa.testset.jsonl';

describe('rule coverage of the demo policy by the demo test set (judged by the sandbox engine)', () => {
  const policy = DEMO_POLICIES.find((p) => p.name === DEMO_LOOP_POLICY_NAME)!;
  const current = policy.versions[policy.versions.length - 1]!.content;
  const { cases } = parseTestSet('support-call-qa.testset.jsonl', DEMO_WORKSPACE_FILES[TEST_SET]!);
  const record = newComparison({ title: 'demo', agentId: 'a', testSet: 'support-call-qa.testset.jsonl', cases, targets: [{ id: 'before', label: 'Results before', kind: 'baseline' }, { id: 'now', label: 'Current version now', kind: 'current' }] });
  record.cases.forEach((c, i) => {
    const inputs = Object.entries(c.inputs).map(([key, value]) => ({ key, text: String(value) }));
    const outcome = runEngine({ inputs, policy: { id: 'p', name: policy.name, versionId: 'v', versionName: 'current', content: current }, verdicts: [], inputsHash: '0'.repeat(16), about: { agent: { id: 'a', name: 'QA' }, job: { id: `j${i}`, created_at: '2026-01-01T00:00:00.000Z', agent_version_name: null, metadata: {} } } });
    c.runs.now = { jobId: `j${i}`, status: 3, outputs: outcome.outputs };
  });

  it('reaches most rules of the current version and leaves three unreached, a disclosure sub-rule among them', () => {
    const coverage = ruleCoverage(current, record);
    assert.ok(coverage.known);
    assert.equal(ruleCoverageLine(coverage, 'support-call-qa.testset.jsonl'), 'Rule coverage: 8 of 11 rules reached by support-call-qa.testset.jsonl.');
    assert.deepEqual(coverage.unreached.map((r) => r.title), ['Asks for the account PIN or a one-time code', 'Shares account details with an unverified caller', 'Offers an unrecorded line when the customer objects']);
    assert.deepEqual(coverage.notInPolicy, []);
  });
});
