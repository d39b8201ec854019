// agent-workbench coverage, and try's --min-rule-coverage gate, on the demo test set against the in-process sandbox.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/cli';
import type { ServiceClient } from '../../../src/core/client';
import { policyFileText } from '../../../src/core/trial/policyFile';
import { DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { DEMO_WORKSPACE_FILES } from '../../harness/index.mjs';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf, editedDemoPolicy } from './trialHelpers';

const SET = 'support-call-qa.testset.jsonl';

describe('agent-workbench coverage and try --min-rule-coverage (against the in-process sandbox)', function () {
  this.timeout(120_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let dir: string;
  before(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
    dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'aw-coverage-')));
    const edit = await editedDemoPolicy(client);
    await fs.writeFile(path.join(dir, 'quality.policy.json'), policyFileText({ id: DEMO_LOOP_POLICY_ID, name: edit.name }, edit.baseVersionId, edit.content));
    await fs.writeFile(path.join(dir, SET), DEMO_WORKSPACE_FILES[`tests/${SET}`]!);
  });
  after(async () => {
    await client.close();
    await t.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const env = { AGENT_WORKBENCH_BASE_URL: t.baseUrl, AGENT_WORKBENCH_TOKEN: t.token, AGENT_WORKBENCH_ORGANIZATION_ID: t.orgId };
    const code = await runCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l), cwd: dir });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('fails try with its own exit code 6 when the trial reaches fewer of the policy’s rules than --min-rule-coverage asks, and says the coverage in its lines and summary', async () => {
    const { code, out, err } = await cli('try', '--policy', 'quality.policy.json', '--test-set', SET, '--min-rule-coverage', '80');
    assert.equal(code, 6, `${out}\n${err}`);
    assert.match(out, /^Support Call QA: Rule coverage: 8 of 11 rules reached by support-call-qa\.testset\.jsonl\.$/m);
    assert.match(out, /^Support Call QA: FAILED --min-rule-coverage 80%: 8 of 11 rules reached \(72\.7%\)\.$/m);
    const md = await fs.readFile(path.join(dir, 'support-call-qa.trial.comparison.md'), 'utf8');
    assert.match(md, /\nRule coverage: 8 of 11 rules reached by `support-call-qa\.testset\.jsonl`\.\n/);
  });

  it('passes the gate (exit 0) when the coverage reaches the percent, and lets an accuracy threshold that fails give its own code', async () => {
    assert.equal((await cli('try', '--policy', 'quality.policy.json', '--test-set', SET, '--min-rule-coverage', '70')).code, 0);
    const both = await cli('try', '--policy', 'quality.policy.json', '--test-set', SET, '--min-rule-coverage', '80', '--min-accuracy', '80');
    assert.equal(both.code, 3, both.out);
    assert.match(both.out, /FAILED --min-rule-coverage 80%/);
  });

  it('prints the table of the trial’s newest comparison: a row per rule with its cases and labels, then the totals (exit 0)', async () => {
    const { code, out, err } = await cli('coverage', '--policy', 'quality.policy.json', '--test-set', SET);
    assert.equal(code, 0, err);
    const lines = out.split('\n');
    assert.equal(lines[0], `Rule coverage of Customer Call Quality Standard, as in quality.policy.json, by ${SET}.`);
    assert.match(lines[1]!, /^Read from support-call-qa\.trial\.comparison\.json: 12 cases read on “Trial of the edit/);
    assert.match(out, /^path {3}rule {2,}cases {2}labelled$/m);
    assert.match(out, /^1\.1\.1 {4}Asks for the account PIN or a one-time code {2,}not reached {2}—$/m);
    assert.match(out, /^2\.2 {4}Resolution › Promises outcomes outside policy \(refunds over limit, free upgrades\) +4 {2}4 \(3 Compliant, 1 Non-Compliant\)$/m);
    assert.equal(lines[lines.length - 1], '8 of 11 rules reached; not reached: 1.1.1, 1.2, 4.1.1.');
  });

  it('reads a policy by id from the service, and says in a sentence (exit 2) when the test set has no comparison', async () => {
    const byId = await cli('coverage', '--policy', DEMO_LOOP_POLICY_ID, '--test-set', SET);
    assert.equal(byId.code, 0, byId.err);
    assert.match(byId.out, /^Rule coverage of Customer Call Quality Standard, version Q2 update: recording disclosure \(current\), by support-call-qa\.testset\.jsonl\.$/m);
    await fs.writeFile(path.join(dir, 'new.testset.jsonl'), DEMO_WORKSPACE_FILES[`tests/${SET}`]!);
    const none = await cli('coverage', '--policy', 'quality.policy.json', '--test-set', 'new.testset.jsonl');
    assert.equal(none.code, 2);
    assert.match(none.err, /^agent-workbench coverage: new\.testset\.jsonl has no comparison beside it: run it first/);
  });

  it('refuses --min-rule-coverage on a draft’s trial, and a percent over 100, as usage errors (exit 2)', async () => {
    const draft = await cli('try', '--agent', 'a', '--draft', 'd.json', '--test-set', SET, '--min-rule-coverage', '50');
    assert.equal(draft.code, 2);
    assert.match(draft.err, /--min-rule-coverage needs --policy/);
    const over = await cli('try', '--policy', 'quality.policy.json', '--test-set', SET, '--min-rule-coverage', '120');
    assert.equal(over.code, 2);
    assert.match(over.err, /--min-rule-coverage is a percent \(0–100\)/);
    assert.match((await cli('help', 'try')).out, /6 when only the rule coverage is below its percent/);
    assert.match((await cli('help')).out, /coverage +which rules of a policy a test set exercises/);
  });
});
