import * as assert from 'node:assert/strict';
import type { ServiceClient } from '../../../src/core/client';
import { parseTestSet } from '../../../src/core/comparison/testSet';
import { testSetFromJobs } from '../../../src/core/comparison/testSetFromJobs';
import { draftFromVersion } from '../../../src/core/documents/agentVersionDraft';
import { JobStatus } from '../../../src/core/jobStatus';
import { DEMO_LOOP_AGENT_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf, seedClientOf } from '../trial/trialHelpers';

describe('a test set made from jobs (against the in-process sandbox)', function () {
  this.timeout(30_000);
  let t: TestSandbox;
  let client: ServiceClient;
  beforeEach(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
  });
  afterEach(async () => {
    await client.close();
    await t.close();
  });

  const finishedJobs = async (n: number) => (await client.jobs.list(DEMO_LOOP_AGENT_ID, { page_size: 50, status_code: JobStatus.SUCCESS })).results.slice(0, n);

  it('says in its header why cases are kept as their jobs had them when the current version takes an input they lack', async () => {
    const jobs = await finishedJobs(3);
    const seed = seedClientOf(t);
    const current = await seed.agents.currentVersion(DEMO_LOOP_AGENT_ID);
    const draft = draftFromVersion(current);
    await seed.agents.createVersion(DEMO_LOOP_AGENT_ID, { ...draft, input_definitions: [...draft.input_definitions, { key: 'channel', data_type: 'text/plain' }] });
    await seed.close();
    const made = await testSetFromJobs(client, { id: DEMO_LOOP_AGENT_ID, name: 'Support Call QA' }, jobs);
    const lines = made.text.split('\n');
    assert.match(lines[0]!, /^\/\/ agent: /);
    assert.equal(lines[1], '// note: cases 1, 2, 3 kept as the jobs had them: Missing input: channel.');
    assert.equal(parseTestSet('made.testset.jsonl', made.text).cases.length, 3, 'the notes are comments: every case is still read');
  });

  it('writes no note when every case fits the agent’s current version and policy', async () => {
    const made = await testSetFromJobs(client, { id: DEMO_LOOP_AGENT_ID, name: 'Support Call QA' }, await finishedJobs(3));
    assert.deepEqual(made.text.split('\n').filter((l) => l.startsWith('// note:')), []);
  });
});
