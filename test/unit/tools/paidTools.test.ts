import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServiceClient } from '../../../src/core/client';
import { testCaseLine } from '../../../src/core/comparison/testSet';
import { findLeftovers } from '../../../src/core/trial/trialEnd';
import { policyFileText } from '../../../src/core/trial/policyFile';
import { JobBudget, type ToolContext } from '../../../src/core/tools';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf, seedClientOf, editedDemoPolicy, LOOP_CASE } from '../trial/trialHelpers';
import { call, limits, ok, toolContext } from './toolHelpers';

describe('The tool catalogue: paid work and changes (against the in-process sandbox)', function () {
  this.timeout(90_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let ctx: ToolContext;
  let started: { agentId: string; ids: readonly string[] }[];
  before(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
  });
  after(async () => {
    await client.close();
    await t.close();
  });
  beforeEach(async () => {
    started = [];
    ctx = await toolContext(client, { jobsStarted: (agentId, ids) => void started.push({ agentId, ids }) });
  });
  afterEach(() => fs.rm(ctx.root!, { recursive: true, force: true }));

  const jobCount = async (): Promise<number> => (await client.jobs.list(DEMO_LOOP_AGENT_ID, { page_size: 1 })).count;
  const inputs = [{ transcript: 'Agent: hello.\nCustomer: hi.', language: 'en' }, { transcript: 'Agent: bye.\nCustomer: bye.', language: 'en' }];

  it('answers the estimate of a run and starts nothing until the call is confirmed, then starts one job per input set', async () => {
    const before = await jobCount();
    const plan = ok(await call(ctx, 'run_agent', { agent_id: DEMO_LOOP_AGENT_ID, inputs }));
    assert.match(plan.text, /^Not started yet: Run .* 2 jobs/);
    assert.equal(plan.data.needs_confirmation, true);
    assert.equal(await jobCount(), before, 'nothing ran');
    const run = ok(await call(ctx, 'run_agent', { agent_id: DEMO_LOOP_AGENT_ID, inputs }, true));
    assert.equal((run.data.job_ids as string[]).length, 2);
    assert.deepEqual(started[0]?.ids, run.data.job_ids, 'the host heard of the jobs it started');
  });

  it('refuses more jobs than the limit of a minute allows, saying the estimate, before asking anyone', async () => {
    const small = { ...ctx, budget: new JobBudget(() => limits(1)) };
    const refused = await call(small, 'run_agent', { agent_id: DEMO_LOOP_AGENT_ID, inputs }, true);
    assert.ok(refused.isError);
    assert.match(refused.text, /2 jobs.*over the limit of 1 job/);
    assert.deepEqual(started, []);
  });

  it('names the input key the agent does not take, and starts nothing', async () => {
    const refused = await call(ctx, 'run_agent', { agent_id: DEMO_LOOP_AGENT_ID, inputs: [{ nope: 'x' }] }, true);
    assert.ok(refused.isError);
    assert.match(refused.text, /`inputs\.0\.nope`/);
  });

  it('makes a test set from finished jobs and compares its cases on the current version with the results before', async () => {
    const jobs = (await client.jobs.list(DEMO_LOOP_AGENT_ID, { page_size: 20, status_code: 3 })).results.slice(0, 2);
    const made = ok(await call(ctx, 'create_test_set', { agent_id: DEMO_LOOP_AGENT_ID, job_ids: jobs.map((j) => j.id), path: 'sets/loop.testset.jsonl' }, true));
    assert.equal(made.data.cases, 2);
    const version = (await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id!;
    const progress: number[] = [];
    const withProgress = { ...ctx, progress: (done: number) => void progress.push(done) };
    const compared = ok(await call(withProgress, 'run_comparison', { test_set: 'sets/loop.testset.jsonl', versions: [version] }, true));
    assert.match(compared.text, /Results before/);
    assert.ok(progress.length > 0, 'progress was reported');
    await fs.access(path.join(ctx.root!, 'sets', 'loop.comparison.json'));
  });

  it('names the cases a trial leaves out (inputs the agent does not take) in its plan and in its answer, and runs the others', async () => {
    const edit = await editedDemoPolicy(client);
    const typo = { name: 'typo', tags: [], inputs: { transcrip: 'Agent: hello.', language: 'en' } };
    await fs.writeFile(path.join(ctx.root!, 'loop.testset.jsonl'), `${testCaseLine(LOOP_CASE)}\n${testCaseLine(typo)}\n`);
    const input = { test_set: 'loop.testset.jsonl', policy_id: DEMO_LOOP_POLICY_ID, content: edit.content };
    const leftOut = /Cases left out of the trial:\nloop\.testset\.jsonl:2 “typo”: Support Call QA takes no input "transcrip"/;
    const plan = ok(await call(ctx, 'try_policy_edit', input));
    assert.match(plan.text, /2 jobs/);
    assert.match(plan.text, leftOut);
    const tried = ok(await call(ctx, 'try_policy_edit', input, true));
    assert.equal(tried.data.failing, 0, tried.text);
    assert.match(tried.text, leftOut);
  });

  it('refuses a policy file exported from a version that is no longer current, and starts nothing', async () => {
    const edit = await editedDemoPolicy(client);
    const stale = (await client.policies.listVersions(DEMO_LOOP_POLICY_ID)).results.find((v) => v.id !== edit.baseVersionId)!;
    await fs.writeFile(path.join(ctx.root!, 'quality.policy.json'), policyFileText({ id: DEMO_LOOP_POLICY_ID, name: edit.name }, stale.id, edit.content));
    await fs.writeFile(path.join(ctx.root!, 'loop.testset.jsonl'), `${testCaseLine(LOOP_CASE)}\n`);
    const before = await jobCount();
    const refused = await call(ctx, 'try_policy_edit', { test_set: 'loop.testset.jsonl', policy_file: 'quality.policy.json' });
    assert.ok(refused.isError);
    assert.match(refused.text, new RegExp(`^The policy file of Customer Call Quality Standard was exported from version ${stale.id}, and its current version is now ".*" \\(${edit.baseVersionId}\\).* Nothing was started\\.$`));
    assert.equal(await jobCount(), before);
  });

  it('tries a policy edit on copies, reports the agreement and removes the copies, then publishes it as a new version', async () => {
    const edit = await editedDemoPolicy(client);
    await fs.writeFile(path.join(ctx.root!, 'loop.testset.jsonl'), `${testCaseLine(LOOP_CASE)}\n`);
    const plan = ok(await call(ctx, 'try_policy_edit', { test_set: 'loop.testset.jsonl', policy_id: DEMO_LOOP_POLICY_ID, content: edit.content }));
    assert.match(plan.text, /Not started yet: Try the edit .* 2 jobs/);
    const tried = ok(await call(ctx, 'try_policy_edit', { test_set: 'loop.testset.jsonl', policy_id: DEMO_LOOP_POLICY_ID, content: edit.content }, true));
    assert.equal(tried.data.failing, 0, tried.text);
    assert.match(tried.text, /Every case with an expected outcome agrees\.\nRule coverage: \d+ of 11 rules reached by loop\.testset\.jsonl\. rule_coverage lists the rules not reached\.[\s\S]*Nothing was published/);
    assert.deepEqual(await findLeftovers(client), [], 'the copies are gone');
    assert.equal((await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id, edit.baseVersionId, 'nothing published yet');
    const read = ok(await call(ctx, 'read_result_file', { path: tried.data.trial_file }));
    assert.match(read.text, /by .*: tried; its trial copies were removed and nothing was published \(publish_policy_edit publishes what it tried/);
    assert.doesNotMatch(read.text, /discarded/, 'a trial that can be published is not called discarded');
    const blank = await call(ctx, 'publish_policy_edit', { trial_file: tried.data.trial_file, version_name: '  ' });
    assert.equal(blank.text, 'Input refused: `version_name`: The version name must not be empty. Nothing was started.');
    const named = { trial_file: tried.data.trial_file, version_name: 'lenient on greetings' };
    const asked = ok(await call(ctx, 'publish_policy_edit', named));
    assert.match(asked.text, /Not started yet: Publish the tried edit as a new version “lenient on greetings” of/);
    const published = ok(await call(ctx, 'publish_policy_edit', named, true));
    assert.equal((await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id, published.data.version_id);
    assert.equal((await client.policies.getVersion(DEMO_LOOP_POLICY_ID, published.data.version_id as string)).version_name, 'lenient on greetings');
    assert.match(published.text, /as version “lenient on greetings” \(/);
  });
});

describe('The tool catalogue writes files only inside its folder (against the in-process sandbox)', function () {
  this.timeout(90_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let ctx: ToolContext;
  let outside: string;
  before(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
  });
  after(async () => {
    await client.close();
    await t.close();
  });
  beforeEach(async () => {
    ctx = await toolContext(client);
    outside = await fs.mkdtemp(path.join(os.tmpdir(), 'aw-outside-'));
    await fs.writeFile(path.join(outside, 'victim.txt'), 'precious');
  });
  afterEach(async () => {
    await fs.rm(ctx.root!, { recursive: true, force: true });
    await fs.rm(outside, { recursive: true, force: true });
  });

  it('refuses to try a policy edit whose trial file is a link to a file outside, leaving that file unchanged and making no copy', async () => {
    const edit = await editedDemoPolicy(client);
    await fs.mkdir(path.join(ctx.root!, 'tests'));
    await fs.writeFile(path.join(ctx.root!, 'tests', 'qa.testset.jsonl'), `${testCaseLine(LOOP_CASE)}\n`);
    await fs.symlink(path.join(outside, 'victim.txt'), path.join(ctx.root!, 'tests', 'qa.trial.json'));
    const agents = (await client.agents.list({ page_size: 100 })).count;
    const refused = await call(ctx, 'try_policy_edit', { test_set: 'tests/qa.testset.jsonl', policy_id: DEMO_LOOP_POLICY_ID, content: edit.content }, true);
    assert.ok(refused.isError, refused.text);
    assert.equal(refused.text, 'Refused to write tests/qa.trial.json: it is a link, and files are never written through links.');
    assert.equal(await fs.readFile(path.join(outside, 'victim.txt'), 'utf8'), 'precious');
    assert.equal((await client.agents.list({ page_size: 100 })).count, agents, 'no trial copy was made');
  });

  it('refuses to run a comparison whose comparison file is a dangling link to outside, creating nothing there', async () => {
    const jobs = (await client.jobs.list(DEMO_LOOP_AGENT_ID, { page_size: 20, status_code: 3 })).results.slice(0, 1);
    ok(await call(ctx, 'create_test_set', { agent_id: DEMO_LOOP_AGENT_ID, job_ids: jobs.map((j) => j.id), path: 'tests/qa.testset.jsonl' }, true));
    await fs.symlink(path.join(outside, 'made.json'), path.join(ctx.root!, 'tests', 'qa.comparison.json'));
    const version = (await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id!;
    const before = await client.jobs.list(DEMO_LOOP_AGENT_ID, { page_size: 1 });
    const refused = await call(ctx, 'run_comparison', { test_set: 'tests/qa.testset.jsonl', versions: [version] }, true);
    assert.ok(refused.isError, refused.text);
    assert.match(refused.text, /^Refused to write tests\/qa\.comparison\.json: it is a link/);
    assert.deepEqual(await fs.readdir(outside), ['victim.txt']);
    assert.equal((await client.jobs.list(DEMO_LOOP_AGENT_ID, { page_size: 1 })).count, before.count, 'no job was started');
  });
});

describe('The tool catalogue: trying and publishing an agent version draft (against the in-process sandbox)', function () {
  this.timeout(90_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let ctx: ToolContext;
  before(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
    ctx = await toolContext(client);
  });
  after(async () => {
    await fs.rm(ctx.root!, { recursive: true, force: true });
    await client.close();
    await t.close();
  });

  it('takes the draft describe_agent answers, refuses it unchanged or malformed, tries it changed on a copy, then publishes it as the agent’s new version', async () => {
    await fs.writeFile(path.join(ctx.root!, 'loop.testset.jsonl'), `${testCaseLine(LOOP_CASE)}\n`);
    const lenient = await seedClientOf(t).policies.create({ name: 'Call rules, lenient', description: 'made by the user', content: (await editedDemoPolicy(client)).content });
    const described = ok(await call(ctx, 'describe_agent', { agent_id: DEMO_LOOP_AGENT_ID }));
    const draft = described.data.next_version_draft as { engine_config: Record<string, string> };
    const before = (await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id;
    const versions = (await client.agents.listVersions(DEMO_LOOP_AGENT_ID)).length;

    const unchanged = await call(ctx, 'try_agent_draft', { agent_id: DEMO_LOOP_AGENT_ID, draft, test_set: 'loop.testset.jsonl' }, true);
    assert.ok(unchanged.isError);
    assert.match(unchanged.text, /runs like the current version of Support Call QA .*Nothing was started/);
    const malformed = await call(ctx, 'try_agent_draft', { agent_id: DEMO_LOOP_AGENT_ID, draft: { ...draft, engine_config: { model: 3 } }, test_set: 'loop.testset.jsonl' }, true);
    assert.ok(malformed.isError);
    assert.equal(malformed.text, '`draft.engine_config.model`: must be a string, not a number. Nothing was started.', 'the field is said once');

    const changed = { ...draft, engine_config: { ...draft.engine_config, policy_id: lenient.id } };
    const plan = ok(await call(ctx, 'try_agent_draft', { agent_id: DEMO_LOOP_AGENT_ID, draft: changed, test_set: 'loop.testset.jsonl' }));
    assert.match(plan.text, /Not started yet: Try the draft of Support Call QA's next version .* 2 jobs/);
    const tried = ok(await call(ctx, 'try_agent_draft', { agent_id: DEMO_LOOP_AGENT_ID, draft: changed, test_set: 'loop.testset.jsonl' }, true));
    assert.equal(tried.data.failing, 0, tried.text);
    assert.match(tried.text, /Every case with an expected outcome agrees[\s\S]*Nothing was published[\s\S]*publish_agent_draft with trial_file "loop\.trial\.json"/);
    assert.deepEqual(await findLeftovers(client), [], 'the copy is gone');
    assert.equal((await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id, before, 'the agent keeps its version');

    const wrongTool = await call(ctx, 'publish_policy_edit', { trial_file: tried.data.trial_file }, true);
    assert.ok(wrongTool.isError);
    assert.match(wrongTool.text, /publish it with publish_agent_draft\. Nothing was changed/);
    const asked = ok(await call(ctx, 'publish_agent_draft', { trial_file: tried.data.trial_file }));
    assert.match(asked.text, /Not started yet: Publish the tried draft as a new version of Support Call QA/);
    assert.equal((await client.agents.listVersions(DEMO_LOOP_AGENT_ID)).length, versions, 'asking changes nothing');
    const published = ok(await call(ctx, 'publish_agent_draft', { trial_file: tried.data.trial_file }, true));
    const agent = await client.agents.get(DEMO_LOOP_AGENT_ID);
    assert.equal(agent.current_version_id, published.data.version_id);
    assert.equal((await client.agents.listVersions(DEMO_LOOP_AGENT_ID)).length, versions + 1);
    assert.equal(((await client.agents.getVersion(agent.id, agent.current_version_id!)).engine_config as Record<string, string>).policy_id, lenient.id);
  });
});

describe('Cancelling the work of a tool (slow sandbox jobs)', function () {
  this.timeout(90_000);
  let t: TestSandbox;
  let client: ServiceClient;
  before(async () => {
    t = await startTestSandbox({ jobStepMs: 1500 });
    client = clientOf(t);
  });
  after(async () => {
    await client.close();
    await t.close();
  });

  it('cancels a trial midway: its jobs are cancelled and its copies removed', async () => {
    const controller = new AbortController();
    const jobs: string[] = [];
    const ctx = await toolContext(client, { signal: controller.signal, jobsStarted: (_a, ids) => void (jobs.push(...ids), controller.abort()) });
    const edit = await editedDemoPolicy(client);
    await fs.writeFile(path.join(ctx.root!, 'loop.testset.jsonl'), `${testCaseLine(LOOP_CASE)}\n`);
    const result = await call(ctx, 'try_policy_edit', { test_set: 'loop.testset.jsonl', policy_id: DEMO_LOOP_POLICY_ID, content: edit.content }, true);
    assert.ok(result.isError);
    assert.match(result.text, /cancelled|abort/i);
    assert.ok(jobs.length > 0);
    const statuses = await client.jobs.statuses(jobs);
    assert.ok(statuses.every((s) => s.status === 5 || s.status === 3 || s.status === 4), JSON.stringify(statuses));
    assert.ok(statuses.some((s) => s.status === 5), 'at least one job was cancelled');
    assert.deepEqual(await findLeftovers(client), []);
    await fs.rm(ctx.root!, { recursive: true, force: true });
  });

  it('cancels the jobs asked for that have not finished, after saying which', async () => {
    const ctx = await toolContext(client);
    const run = ok(await call(ctx, 'run_agent', { agent_id: DEMO_LOOP_AGENT_ID, inputs: [{ transcript: 'Agent: hi.', language: 'en' }] }, true));
    const ids = run.data.job_ids as string[];
    assert.match(ok(await call(ctx, 'cancel_jobs', { job_ids: ids })).text, /Not started yet: Cancel 1 job not finished/);
    assert.match(ok(await call(ctx, 'cancel_jobs', { job_ids: ids }, true)).text, /cancel 1 job/);
    assert.equal((await client.jobs.status(ids[0]!)).status, 5);
    await fs.rm(ctx.root!, { recursive: true, force: true });
  });
});
