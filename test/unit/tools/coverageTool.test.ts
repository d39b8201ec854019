// The rule_coverage tool through the catalogue, against the in-process sandbox: the demo test set run, then its coverage asked.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ServiceClient } from '../../../src/core/client';
import { newComparison, serializeComparison } from '../../../src/core/comparison/comparisonRecord';
import { policyFileText } from '../../../src/core/trial/policyFile';
import type { ToolContext } from '../../../src/core/tools';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_POLICY_ID, DEMO_LOOP_POLICY_NAME, DEMO_LOOP_RULE_TITLE } from '../../../src/sandbox/seed/demoLoop';
import { DEMO_WORKSPACE_FILES } from '../../harness/index.mjs';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf } from '../trial/trialHelpers';
import { call, ok, toolContext } from './toolHelpers';

const TEST_SET = 'tests/support-call-qa.testset.jsonl';

describe('The rule_coverage tool (against the in-process sandbox)', function () {
  this.timeout(120_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let ctx: ToolContext;
  before(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
    ctx = await toolContext(client);
    await fs.mkdir(path.join(ctx.root!, 'tests'));
    await fs.writeFile(path.join(ctx.root!, TEST_SET), DEMO_WORKSPACE_FILES[TEST_SET]!);
    // The current version (v4) and v3, newest first as the service lists them.
    const versions = (await client.agents.listVersions(DEMO_LOOP_AGENT_ID)).map((v) => v.id);
    ok(await call(ctx, 'run_comparison', { test_set: TEST_SET, versions: versions.slice(0, 2) }, true));
  });
  after(async () => {
    await client.close();
    await t.close();
    await fs.rm(ctx.root!, { recursive: true, force: true });
  });

  it('answers which rules of the demo policy the demo test set reaches, the unreached ones first', async () => {
    const answer = ok(await call(ctx, 'rule_coverage', { policy_id: DEMO_LOOP_POLICY_ID, test_set: TEST_SET }));
    assert.match(answer.text, new RegExp(`^Rule coverage of ${DEMO_LOOP_POLICY_NAME} \\(${DEMO_LOOP_POLICY_ID}\\), version .* \\(current\\) by ${TEST_SET}: 8 of 11 rules reached\\. Read from tests/support-call-qa\\.comparison\\.json`));
    assert.ok(answer.text.indexOf('Not reached by any case (3):') < answer.text.indexOf('Reached (cases · labelled):'));
    assert.match(answer.text, /- 1\.1\.1 Identity verification › Verifies the caller before sharing account details › Asks for the account PIN or a one-time code\n/);
    assert.deepEqual((answer.data.unreached as { number: string }[]).map((r) => r.number), ['1.1.1', '1.2', '4.1.1']);
    assert.equal((answer.data.target as { label: string }).label, 'v4 – recording disclosure', 'the outputs of the newest version that ran');
    const promise = (answer.data.rules as { path: string; cases: number; labelled: number }[]).find((r) => r.path.endsWith(DEMO_LOOP_RULE_TITLE))!;
    assert.ok(promise.cases >= 3 && promise.labelled === promise.cases, 'the loop rule is reached by labelled cases');
  });

  it('covers an edit under review given as a policy file, and lists the old title of a renamed rule as not found in this version', async () => {
    const policy = await client.policies.get(DEMO_LOOP_POLICY_ID);
    const version = await client.policies.getVersion(DEMO_LOOP_POLICY_ID, policy.current_version_id!);
    const renamed = JSON.parse(JSON.stringify(version.content).replace(DEMO_LOOP_RULE_TITLE, 'Promises what policy does not allow')) as unknown;
    await fs.writeFile(path.join(ctx.root!, 'quality.policy.json'), policyFileText({ id: policy.id, name: policy.name }, version.id, renamed));
    const answer = ok(await call(ctx, 'rule_coverage', { policy_file: 'quality.policy.json', test_set: TEST_SET }));
    assert.match(answer.text, /: 7 of 11 rules reached\./);
    assert.match(answer.text, /- 2\.2 Resolution › Promises what policy does not allow\n/);
    assert.match(answer.text, new RegExp(`Not found in this version: “Resolution › ${DEMO_LOOP_RULE_TITLE.replace(/[()]/g, '\\$&')}”, matched by \\d+ cases \\(renamed or removed`));
  });

  it('says in one sentence that the outputs say nothing about rules, when they do not', async () => {
    const record = newComparison({ title: 'no rules', agentId: DEMO_LOOP_AGENT_ID, testSet: 'plain.testset.jsonl', cases: [{ line: 1, tags: [], inputs: {} }], targets: [{ id: 'a', label: 'A', kind: 'current' }, { id: 'b', label: 'B', kind: 'current' }] });
    record.cases[0]!.runs.a = { jobId: 'j', status: 3, outputs: [{ key: 'disposition', value: 'Done' }] };
    await fs.writeFile(path.join(ctx.root!, 'plain.comparison.json'), serializeComparison(record));
    const answer = ok(await call(ctx, 'rule_coverage', { policy_id: DEMO_LOOP_POLICY_ID, test_set: 'plain.testset.jsonl' }));
    assert.match(answer.text, /\(read from plain\.comparison\.json\): The outputs of “A” say nothing about which rules matched \(no matched_rules output\), so rule coverage cannot be read from them\.$/);
    assert.equal(answer.data.known, false);
  });

  it('refuses, in a sentence, a test set never compared, a path out of the folder, and both a policy and a policy file', async () => {
    const none = await call(ctx, 'rule_coverage', { policy_id: DEMO_LOOP_POLICY_ID, test_set: 'tests/new.testset.jsonl' });
    assert.ok(none.isError);
    assert.match(none.text, /^new\.testset\.jsonl has no comparison beside it: run it first/);
    const out = await call(ctx, 'rule_coverage', { policy_file: '../x.policy.json', test_set: TEST_SET });
    assert.match(out.text, /`policy_file`: .*leads out of the workspace folder/);
    const both = await call(ctx, 'rule_coverage', { policy_file: 'quality.policy.json', policy_id: DEMO_LOOP_POLICY_ID, test_set: TEST_SET });
    assert.match(both.text, /give policy_file or policy_id, not both/);
  });
});
