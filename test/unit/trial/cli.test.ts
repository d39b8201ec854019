import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/cli';
import type { ServiceClient } from '../../../src/core/client';
import { testCaseLine } from '../../../src/core/comparison/testSet';
import { parseComparison } from '../../../src/core/comparison/comparisonRecord';
import { findLeftovers } from '../../../src/core/trial/trialEnd';
import { trialMarker } from '../../../src/core/trial/trialMarker';
import { newTrial, serializeTrial } from '../../../src/core/trial/trialRecord';
import { policyFileText } from '../../../src/core/trial/policyFile';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_DISPOSITION_BEFORE, DEMO_LOOP_INPUTS, DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { draftFromVersion } from '../../../src/core/documents/agentVersionDraft';
import { MISSING_ID, startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf, seedClientOf, editedDemoPolicy, LOOP_CASE } from './trialHelpers';

describe('agent-workbench try (the command line for CI, against the in-process sandbox)', function () {
  this.timeout(60_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let dir: string;
  before(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
  });
  after(async () => {
    await client.close();
    await t.close();
  });
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'aw-try-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  const env = (): Record<string, string> => ({ AGENT_WORKBENCH_BASE_URL: t.baseUrl, AGENT_WORKBENCH_TOKEN: t.token, AGENT_WORKBENCH_ORGANIZATION_ID: t.orgId });

  async function tryEdit(content: unknown, cwd = dir, ...more: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const edit = await editedDemoPolicy(client);
    const policyPath = path.join(dir, 'quality.policy.json');
    await fs.writeFile(policyPath, policyFileText({ id: DEMO_LOOP_POLICY_ID, name: edit.name }, edit.baseVersionId, content));
    await fs.writeFile(path.join(dir, 'loop.testset.jsonl'), `${testCaseLine(LOOP_CASE)}\n`);
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['try', '--policy', policyPath, '--test-set', path.join(dir, 'loop.testset.jsonl'), ...more], env(), { out: (l) => out.push(l), err: (l) => err.push(l), cwd });
    return { code, out, err };
  }

  it('passes when the edited policy gives every expected outcome, and writes the comparison and its summary', async () => {
    const versionBefore = (await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id;
    const { code, out, err } = await tryEdit((await editedDemoPolicy(client)).content);
    assert.equal(code, 0, [...out, ...err].join('\n'));
    const record = parseComparison(await fs.readFile(path.join(dir, 'loop.trial.comparison.json'), 'utf8'));
    assert.equal(record.cases[0]!.runs.trial!.outputs?.find((o) => o.key === 'disposition')?.value, LOOP_CASE.expected!.disposition);
    assert.match(await fs.readFile(path.join(dir, 'loop.trial.comparison.md'), 'utf8'), /Trial of the edit/);
    assert.match(out.join('\n'), /1 job|2 jobs/);
    assert.deepEqual(await findLeftovers(client), [], 'the trial cleaned up after itself');
    assert.equal((await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id, versionBefore, 'nothing was published');
  });

  it('fails (exit 1) when a case with an expected outcome disagrees, and still cleans up', async () => {
    const unchanged = await client.policies.getVersion(DEMO_LOOP_POLICY_ID, (await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id!);
    const { code, out } = await tryEdit(unchanged.content);
    assert.equal(code, 1, out.join('\n'));
    const record = parseComparison(await fs.readFile(path.join(dir, 'loop.trial.comparison.json'), 'utf8'));
    assert.equal(record.cases[0]!.runs.trial!.outputs?.find((o) => o.key === 'disposition')?.value, DEMO_LOOP_DISPOSITION_BEFORE);
    assert.match(out.join('\n'), /1 case with an expected outcome now disagrees/);
    assert.deepEqual(await findLeftovers(client), []);
  });

  it('refuses (exit 2) a comparison file that is a link to a file outside, leaving it unchanged and making no copy', async () => {
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'aw-outside-'));
    try {
      await fs.writeFile(path.join(outside, 'victim.txt'), 'precious');
      await fs.symlink(path.join(outside, 'victim.txt'), path.join(dir, 'loop.trial.comparison.json'));
      const policies = (await client.policies.list({ page_size: 100 })).count;
      const { code, err } = await tryEdit((await editedDemoPolicy(client)).content);
      assert.equal(code, 2);
      assert.match(err.join('\n'), /^agent-workbench try: Refused to write loop\.trial\.comparison\.json: it is a link, and files are never written through links\.$/);
      assert.equal(await fs.readFile(path.join(outside, 'victim.txt'), 'utf8'), 'precious');
      assert.equal((await client.policies.list({ page_size: 100 })).count, policies, 'no trial policy was made');
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });

  it('writes next to a test set only inside the current folder, and anywhere the user names with --out', async () => {
    const elsewhere = await fs.mkdtemp(path.join(os.tmpdir(), 'aw-cwd-'));
    try {
      const refused = await tryEdit((await editedDemoPolicy(client)).content, elsewhere);
      assert.equal(refused.code, 2);
      assert.match(refused.err.join('\n'), /loop\.trial\.json: it is outside .*aw-cwd-.*\. Run it from a folder that holds the test set, or give --out\.$/);
      assert.deepEqual((await fs.readdir(dir)).sort(), ['loop.testset.jsonl', 'quality.policy.json']);
      const { code, out } = await tryEdit((await editedDemoPolicy(client)).content, elsewhere, '--out', path.join(dir, 'results'));
      assert.equal(code, 0, out.join('\n'));
      assert.deepEqual((await fs.readdir(path.join(dir, 'results'))).sort(), ['loop.trial.comparison.json', 'loop.trial.comparison.md']);
    } finally {
      await fs.rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('replaces a trial file that is not one, or whose copies the service no longer has (or are not this user’s)', async () => {
    const trialFile = path.join(dir, 'loop.trial.json');
    await fs.writeFile(trialFile, '{"not": "a trial"}');
    const first = await tryEdit((await editedDemoPolicy(client)).content);
    assert.equal(first.code, 0, first.err.join('\n'));
    const record = newTrial({ trialId: randomUUID(), user: 'ci', policyId: DEMO_LOOP_POLICY_ID, policyName: 'Customer Call Quality Standard', baseVersionId: null, content: {} });
    record.entities = [{ kind: 'agent', name: 'Support Call QA · trial 2026-11-24 14:05 · ci', id: MISSING_ID }];
    record.state = 'ready';
    await fs.writeFile(trialFile, serializeTrial(record));
    const gone = await tryEdit((await editedDemoPolicy(client)).content);
    assert.equal(gone.code, 0, gone.err.join('\n'));
    // Ana's unfinished trial, its copy still there: not this run's user's, so not held back by it (and not touched).
    const anas = { ...record, trialId: randomUUID(), user: 'Ana' };
    const copy = await seedClientOf(t).agents.create({ name: 'Support Call QA · trial 2026-11-24 14:05 · Ana', engine_class_id: 'llm_conversation_reviewer', description: trialMarker(anas) });
    anas.entities = [{ kind: 'agent', name: copy.name, id: copy.id }];
    await fs.writeFile(trialFile, serializeTrial(anas));
    const other = await tryEdit((await editedDemoPolicy(client)).content);
    assert.equal(other.code, 0, other.err.join('\n'));
    assert.equal((await client.agents.get(copy.id)).id, copy.id);
    await seedClientOf(t).agents.delete(copy.id);
  });

  async function tryCli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['try', ...args], env(), { out: (l) => out.push(l), err: (l) => err.push(l), cwd: dir });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  async function writeEdit(baseVersionId?: string): Promise<void> {
    const edit = await editedDemoPolicy(client);
    await fs.writeFile(path.join(dir, 'quality.policy.json'), policyFileText({ id: DEMO_LOOP_POLICY_ID, name: edit.name }, baseVersionId ?? edit.baseVersionId, edit.content));
  }

  // A case whose input key is misspelt: the service refuses a whole batch for it.
  const TYPO = { name: 'typo in the input', tags: [], inputs: { transcrip: DEMO_LOOP_INPUTS.transcript, language: 'en' }, expected: { disposition: 'Compliant' } };

  it('leaves out a case whose inputs the agent does not take, saying its line, name and why on stdout, and runs the others', async () => {
    await writeEdit();
    await fs.writeFile(path.join(dir, 'loop.testset.jsonl'), `${testCaseLine(LOOP_CASE)}\n${testCaseLine(TYPO)}\n`);
    const { code, out, err } = await tryCli('--policy', 'quality.policy.json', '--test-set', 'loop.testset.jsonl');
    assert.equal(code, 0, `${out}\n${err}`);
    assert.match(out, /^loop\.testset\.jsonl:2 “typo in the input”: Support Call QA takes no input "transcrip" \(it takes transcript, language\); needs the input "transcript", which the case lacks \(left out\)$/m);
    assert.match(out, /Support Call QA: every case with an expected outcome agrees/);
    assert.equal(parseComparison(await fs.readFile(path.join(dir, 'loop.trial.comparison.json'), 'utf8')).cases.length, 1);
    assert.match(await fs.readFile(path.join(dir, 'loop.trial.comparison.md'), 'utf8'), /^> \*\*Left out:\*\* 1 line of the test set did not run:\n> - loop\.testset\.jsonl:2 “typo in the input”: Support Call QA takes no input "transcrip"/m);
  });

  it('exits 2 with the reason, before anything is made, when no case of the test set can run', async () => {
    await writeEdit();
    await fs.writeFile(path.join(dir, 'loop.testset.jsonl'), `${testCaseLine(TYPO)}\n`);
    const policies = (await client.policies.list({ page_size: 100 })).count;
    const { code, err } = await tryCli('--policy', 'quality.policy.json', '--test-set', 'loop.testset.jsonl');
    assert.equal(code, 2);
    assert.equal(err, 'agent-workbench try: No case of loop.testset.jsonl can run: loop.testset.jsonl:1 “typo in the input”: Support Call QA takes no input "transcrip" (it takes transcript, language); needs the input "transcript", which the case lacks.');
    assert.equal((await client.policies.list({ page_size: 100 })).count, policies, 'no trial policy was made');
  });

  it('refuses a policy file whose version is no longer the current one before anything runs, naming the current version and how to refresh the file', async () => {
    const stale = (await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id!;
    // Someone saved a new version since the file was exported (the same content: the other tests see the same outcomes).
    const content = (await client.policies.getVersion(DEMO_LOOP_POLICY_ID, stale)).content;
    const newer = await seedClientOf(t).policies.createVersion(DEMO_LOOP_POLICY_ID, { content, version_name: 'Q3 wording', base_version_id: stale });
    await writeEdit(stale);
    await fs.writeFile(path.join(dir, 'loop.testset.jsonl'), `${testCaseLine(LOOP_CASE)}\n`);
    const policies = (await client.policies.list({ page_size: 100 })).count;
    const { code, err } = await tryCli('--policy', 'quality.policy.json', '--test-set', 'loop.testset.jsonl');
    assert.equal(code, 2);
    assert.equal(
      err,
      `agent-workbench try: The policy file of Customer Call Quality Standard was exported from version ${stale}, and its current version is now "Q3 wording" (${newer.id}): a trial of it could never be published. ` +
        `Refresh the file (agent-workbench export-policy ${DEMO_LOOP_POLICY_ID} --force, or Export Policy to Workspace) and make the edit again on it.`,
    );
    assert.equal((await client.policies.list({ page_size: 100 })).count, policies, 'no trial policy was made');
  });

  it('refuses a draft that runs like the agent’s current version before anything runs', async () => {
    const agent = await client.agents.get(DEMO_LOOP_AGENT_ID);
    const current = await client.agents.getVersion(DEMO_LOOP_AGENT_ID, agent.current_version_id!);
    await fs.writeFile(path.join(dir, 'next.json'), JSON.stringify({ ...draftFromVersion(current), version_name: 'renamed only' }));
    await fs.writeFile(path.join(dir, 'loop.testset.jsonl'), `${testCaseLine(LOOP_CASE)}\n`);
    const agents = (await client.agents.list({ page_size: 100 })).count;
    const { code, err } = await tryCli('--agent', DEMO_LOOP_AGENT_ID, '--draft', 'next.json', '--test-set', 'loop.testset.jsonl');
    assert.equal(code, 2);
    assert.equal(err, `agent-workbench try: The draft runs like the current version of Support Call QA ("${current.version_name}", ${current.id}): the same engine_config and input_definitions. Change it first.`);
    assert.equal((await client.agents.list({ page_size: 100 })).count, agents, 'no copy was made');
  });

  it('says what is missing and exits 2 without the connection in the environment', async () => {
    const err: string[] = [];
    assert.equal(await runCli(['try', '--policy', 'a', '--test-set', 'b'], {}, { out: () => undefined, err: (l) => err.push(l) }), 2);
    assert.match(err.join('\n'), /AGENT_WORKBENCH_BASE_URL/);
  });

  it('tries a draft of an agent’s next version with --agent and --draft: exit 0 when it gives every expected outcome, the agent keeps its version', async () => {
    const lenient = await seedClientOf(t).policies.create({ name: 'Call rules, lenient', description: 'made by the user', content: (await editedDemoPolicy(client)).content });
    const agent = await client.agents.get(DEMO_LOOP_AGENT_ID);
    const draft = draftFromVersion(await client.agents.getVersion(DEMO_LOOP_AGENT_ID, agent.current_version_id!));
    const draftPath = path.join(dir, 'next.json');
    await fs.writeFile(draftPath, JSON.stringify({ ...draft, engine_config: { ...draft.engine_config, policy_id: lenient.id } }));
    await fs.writeFile(path.join(dir, 'loop.testset.jsonl'), `${testCaseLine(LOOP_CASE)}\n`);
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (l: string) => void out.push(l), err: (l: string) => void err.push(l), cwd: dir };
    const code = await runCli(['try', '--agent', DEMO_LOOP_AGENT_ID, '--draft', draftPath, '--test-set', path.join(dir, 'loop.testset.jsonl')], env(), io);
    assert.equal(code, 0, [...out, ...err].join('\n'));
    assert.match(out.join('\n'), /Support Call QA: every case with an expected outcome agrees/);
    assert.match(await fs.readFile(path.join(dir, 'loop.trial.comparison.md'), 'utf8'), /Trial of the draft/);
    assert.deepEqual(await findLeftovers(client), [], 'the copy is gone');
    assert.equal((await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id, agent.current_version_id, 'nothing was published');

    // A malformed draft is refused naming its field, before anything is made; --policy with --draft is refused too.
    await fs.writeFile(draftPath, JSON.stringify({ ...draft, engine_config: { model: 3 } }));
    err.length = 0;
    assert.equal(await runCli(['try', '--agent', DEMO_LOOP_AGENT_ID, '--draft', draftPath, '--test-set', path.join(dir, 'loop.testset.jsonl')], env(), io), 2);
    assert.match(err.join('\n'), /next\.json: engine_config\.model: /);
    err.length = 0;
    assert.equal(await runCli(['try', '--policy', 'p.policy.json', '--agent', DEMO_LOOP_AGENT_ID, '--draft', draftPath, '--test-set', 'x.testset.jsonl'], env(), io), 2);
    assert.match(err.join('\n'), /either --policy or both --agent and --draft/);
  });
});
