import * as assert from 'node:assert/strict';
import type { AgentJob, ServiceClient } from '../../../src/core/client';
import { parseTestSet } from '../../../src/core/comparison/testSet';
import { jobChoices, testSetFromJobs } from '../../../src/core/comparison/testSetFromJobs';
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

describe('choosing the jobs of a test set', () => {
  const job = (i: number, status: number, corrected?: string) =>
    ({ id: `j${i}`, status_code: status, created_at: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString(), feedback_review: corrected ? { corrected_verdict: corrected } : null }) as unknown as AgentJob;

  it('asks how many instead of taking every job: the newest finished ones first, those a reviewer corrected, the failed ones, then all — each saying what a comparison would start', () => {
    const jobs = [...Array.from({ length: 30 }, (_, i) => job(i, i % 7 === 0 ? JobStatus.FAILURE : JobStatus.SUCCESS, i === 3 ? 'Compliant' : undefined)), job(40, JobStatus.STARTED), job(41, JobStatus.CANCELLED)];
    const choices = jobChoices(jobs);
    assert.deepEqual(choices.map((c) => [c.label, c.jobs.length]), [
      ['The newest 10 finished jobs', 10],
      ['The newest 25 finished jobs', 25],
      ['The jobs a reviewer corrected', 1],
      ['The failed jobs', 5],
      ['All 30 finished jobs', 30],
    ]);
    assert.equal(choices[0]!.jobs[0]!.id, 'j29', 'newest first');
    assert.equal(choices[0]!.detail, '10 cases; a comparison against the current version starts 10 jobs');
    assert.deepEqual(jobChoices([job(1, JobStatus.STARTED)]), [], 'nothing finished: nothing to choose');
  });
});
