// The demo workspace's run file is the README's loop: the same agent and inputs as the sandbox's demo loop.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEMO_RUN_FILE, DEMO_WORKSPACE_FILES } from '../../harness/index.mjs';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_AGENT_NAME, DEMO_LOOP_INPUTS, DEMO_LOOP_TRANSCRIPT } from '../../../src/sandbox/seed/demoLoop';
import { demoTestSetText } from '../../../src/sandbox/seed/demoTestSet.mjs';
import { parseTestSet } from '../../../src/core/comparison/testSet';
import { parseRunFile } from '../../../src/core/runs/runCheck';

describe('the demo workspace', () => {
  it('holds the loop’s run file: Support Call QA on the refund-promise call', () => {
    assert.equal(DEMO_RUN_FILE.agent, DEMO_LOOP_AGENT_ID);
    assert.equal(DEMO_RUN_FILE.agentName, DEMO_LOOP_AGENT_NAME);
    assert.deepEqual(DEMO_RUN_FILE.inputs, DEMO_LOOP_INPUTS);
    const text = DEMO_WORKSPACE_FILES['runs/refund-promise.agentrun.json'];
    assert.ok(text);
    assert.deepEqual(JSON.parse(text), DEMO_RUN_FILE);
    assert.deepEqual(parseRunFile(text).problems, [], 'a run file the extension reads without a problem');
  });

  it('holds the same labelled test set that Open the Demo Test Set writes, a dozen calls each with its expected disposition', () => {
    const text = demoTestSetText(DEMO_LOOP_TRANSCRIPT);
    assert.equal(DEMO_WORKSPACE_FILES['tests/support-call-qa.testset.jsonl'], text);
    const { cases, problems } = parseTestSet('support-call-qa.testset.jsonl', text);
    assert.deepEqual(problems, []);
    assert.equal(cases.length, 12);
    assert.ok(cases.every((c) => c.expected?.disposition), 'every case is labelled');
  });

  it('holds as its README the guide that the repository’s README links from its quick start', () => {
    const root = path.resolve(__dirname, '..', '..', '..');
    const guide = 'assets/demo-workspace/README.md';
    assert.equal(DEMO_WORKSPACE_FILES['README.md'], fs.readFileSync(path.join(root, guide), 'utf8'));
    assert.ok(fs.readFileSync(path.join(root, 'README.md'), 'utf8').includes(`](${guide})`), `the README links ${guide}`);
  });
});
