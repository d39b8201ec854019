// The demo's labelled test set, tried with the README's policy edit against the sandbox: the figures the README quotes.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/cli';
import type { ServiceClient } from '../../../src/core/client';
import { parseTestSet } from '../../../src/core/comparison/testSet';
import { policyFileText } from '../../../src/core/trial/policyFile';
import { DEMO_LOOP_INPUTS, DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { DEMO_WORKSPACE_FILES } from '../../harness/index.mjs';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf, editedDemoPolicy } from './trialHelpers';

const TEST_SET = 'tests/support-call-qa.testset.jsonl';

describe('the demo test set, tried with the README policy edit (against the in-process sandbox)', function () {
  this.timeout(120_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let dir: string;
  before(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'aw-demo-set-'));
    const edit = await editedDemoPolicy(client);
    await fs.writeFile(path.join(dir, 'quality.policy.json'), policyFileText({ id: DEMO_LOOP_POLICY_ID, name: edit.name }, edit.baseVersionId, edit.content));
    await fs.writeFile(path.join(dir, 'support-call-qa.testset.jsonl'), DEMO_WORKSPACE_FILES[TEST_SET]!);
  });
  after(async () => {
    await client.close();
    await t.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function tryWith(...gate: string[]): Promise<{ code: number; out: string }> {
    const out: string[] = [];
    const env = { AGENT_WORKBENCH_BASE_URL: t.baseUrl, AGENT_WORKBENCH_TOKEN: t.token, AGENT_WORKBENCH_ORGANIZATION_ID: t.orgId };
    const args = ['try', '--policy', path.join(dir, 'quality.policy.json'), '--test-set', path.join(dir, 'support-call-qa.testset.jsonl'), ...gate];
    const code = await runCli(args, env, { out: (l) => out.push(l), err: (l) => out.push(l), cwd: dir });
    return { code, out: out.join('\n') };
  }

  it('is a dozen labelled calls of Support Call QA, the README loop call among them', () => {
    const { cases, problems } = parseTestSet('support-call-qa.testset.jsonl', DEMO_WORKSPACE_FILES[TEST_SET]!);
    assert.deepEqual(problems, []);
    assert.equal(cases.length, 12);
    assert.ok(cases.every((c) => c.expected?.disposition && c.label?.by === 'qa-team'));
    assert.ok(cases.some((c) => c.inputs.transcript === DEMO_LOOP_INPUTS.transcript));
  });

  it('says the edit makes the agent more right: accuracy 58% → 75%, 3 cases became right, 1 became wrong', async () => {
    const { code, out } = await tryWith('--min-accuracy', '80', '--max-newly-wrong', '0');
    assert.match(out, /Support Call QA: accuracy 58% → 75%: 3 cases became right, 1 became wrong\./);
    assert.match(out, /FAILED --min-accuracy 80%: the trial reached 75% of 12 labelled/);
    assert.match(out, /FAILED --max-newly-wrong 0: 1 case became wrong/);
    assert.equal(code, 5, out);
    const md = await fs.readFile(path.join(dir, 'support-call-qa.trial.comparison.md'), 'utf8');
    assert.match(md.split('\n')[2]!, /accuracy 58% → 75%: 3 cases became right, 1 became wrong; 2 stayed wrong, 6 stayed right\.$/);
  });

  it('gives a reviewer the gate’s verdict, the expected outcome of each changed case and what the run cost, in the Markdown summary', async () => {
    await tryWith('--min-accuracy', '80', '--max-newly-wrong', '0');
    const md = await fs.readFile(path.join(dir, 'support-call-qa.trial.comparison.md'), 'utf8');
    assert.match(md, /^\*\*Gate not met\*\* \(--min-accuracy 80%, --max-newly-wrong 0\): --min-accuracy 80%: the trial reached 75% of 12 labelled; --max-newly-wrong 0: 1 case became wrong\.$/m);
    assert.match(md, /^\| case \| expected \| Current version now \| Trial of the edit .*\|$/m);
    assert.match(md, /^\| free upgrade to the premium plan \| Non-Compliant \| Non-Compliant \| Compliant \|$/m);
    assert.match(md, /^Cost of this run: \d[\d.]* credits over 24 jobs\.$/m);
    await tryWith('--min-accuracy', '75', '--max-newly-wrong', '1');
    assert.match(await fs.readFile(path.join(dir, 'support-call-qa.trial.comparison.md'), 'utf8'), /^\*\*Gate met\*\* \(--min-accuracy 75%, --max-newly-wrong 1\)\.$/m);
    await tryWith();
    assert.doesNotMatch(await fs.readFile(path.join(dir, 'support-call-qa.trial.comparison.md'), 'utf8'), /Gate/, 'no gate given, no verdict');
  });

  it('passes the gate when the thresholds allow what the edit does', async () => {
    const { code, out } = await tryWith('--min-accuracy', '75', '--max-newly-wrong', '1');
    assert.equal(code, 0, out);
    assert.doesNotMatch(out, /FAILED/);
  });
});
