// Getting started without the editor: agent-workbench init and export-policy, then try.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/cli';
import type { ServiceClient } from '../../../src/core/client';
import { testCaseLine } from '../../../src/core/comparison/testSet';
import { parsePolicyFile } from '../../../src/core/trial/policyFile';
import { DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf, editedDemoPolicy, LOOP_CASE, seedClientOf } from './trialHelpers';

describe('agent-workbench init and export-policy (starting without the editor, against the in-process sandbox)', function () {
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
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'aw-start-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  const env = (): Record<string, string> => ({ AGENT_WORKBENCH_BASE_URL: t.baseUrl, AGENT_WORKBENCH_TOKEN: t.token, AGENT_WORKBENCH_ORGANIZATION_ID: t.orgId });

  async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, env(), { out: (l) => out.push(l), err: (l) => err.push(l), cwd: dir });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('exports a policy by its name as <name>.policy.json, which try takes once edited', async () => {
    const policy = await client.policies.get(DEMO_LOOP_POLICY_ID);
    const exported = await cli('export-policy', 'Customer Call Quality Standard');
    assert.equal(exported.code, 0, exported.err);
    assert.match(exported.out, /^Exported Customer Call Quality Standard \(.*\), version "Q2 update: recording disclosure" \(.*\), to customer-call-quality-standard\.policy\.json\.$/m);
    const file = parsePolicyFile(await fs.readFile(path.join(dir, 'customer-call-quality-standard.policy.json'), 'utf8'));
    assert.deepEqual([file.policyId, file.name, file.baseVersionId], [DEMO_LOOP_POLICY_ID, policy.name, policy.current_version_id]);
    assert.deepEqual(file.content, (await client.policies.getVersion(DEMO_LOOP_POLICY_ID, policy.current_version_id!)).content);

    await fs.writeFile(path.join(dir, 'customer-call-quality-standard.policy.json'), JSON.stringify({ ...file, content: (await editedDemoPolicy(client)).content }));
    await fs.writeFile(path.join(dir, 'loop.testset.jsonl'), `${testCaseLine(LOOP_CASE)}\n`);
    const tried = await cli('try', '--policy', 'customer-call-quality-standard.policy.json', '--test-set', 'loop.testset.jsonl');
    assert.equal(tried.code, 0, `${tried.out}\n${tried.err}`);
  });

  it('never replaces a file without --force, and writes by id into --out', async () => {
    assert.equal((await cli('export-policy', 'customer call quality standard')).code, 0, 'a name matches regardless of case when nothing matches exactly');
    await fs.writeFile(path.join(dir, 'customer-call-quality-standard.policy.json'), 'my edit');
    const again = await cli('export-policy', 'Customer Call Quality Standard');
    assert.equal(again.code, 2);
    assert.equal(again.err, 'agent-workbench export-policy: Refused to write customer-call-quality-standard.policy.json: it exists already. --force replaces it.');
    assert.equal(await fs.readFile(path.join(dir, 'customer-call-quality-standard.policy.json'), 'utf8'), 'my edit');
    assert.equal((await cli('export-policy', DEMO_LOOP_POLICY_ID, '--force')).code, 0);
    assert.equal(parsePolicyFile(await fs.readFile(path.join(dir, 'customer-call-quality-standard.policy.json'), 'utf8')).policyId, DEMO_LOOP_POLICY_ID);
    assert.equal((await cli('export-policy', DEMO_LOOP_POLICY_ID, '--out', 'policies')).code, 0);
    await fs.access(path.join(dir, 'policies', 'customer-call-quality-standard.policy.json'));
  });

  it('refuses a name several policies have, listing them with their ids, and a name no policy has, writing nothing', async () => {
    const twins = [await seedClientOf(t).policies.create({ name: 'Twin rules', content: {} }), await seedClientOf(t).policies.create({ name: 'Twin rules', content: {} })];
    try {
      const both = await cli('export-policy', 'Twin rules');
      assert.equal(both.code, 2);
      assert.equal(both.err, `agent-workbench export-policy: "Twin rules" names 2 policies: ${twins.map((p) => `Twin rules (${p.id})`).join(', ')}. Give the id of the one to export.`);
      const none = await cli('export-policy', 'No such rules');
      assert.equal(none.err, 'agent-workbench export-policy: no policy has the id or the name "No such rules".');
      assert.deepEqual(await fs.readdir(dir), []);
      const usage = await cli('export-policy');
      assert.equal(usage.err, 'agent-workbench export-policy: give one policy, by its id or its name (quoted if it has spaces).\nSee agent-workbench export-policy --help.');
    } finally {
      for (const p of twins) await seedClientOf(t).policies.delete(p.id);
    }
  });

  it('init writes the demo’s test set and policy file, a README and .env.example; the edit then passes the docs’ gate against the sandbox', async () => {
    const init = await cli('init');
    assert.equal(init.code, 0, init.err);
    assert.deepEqual((await fs.readdir(dir, { recursive: true })).sort(), ['.env.example', '.gitignore', 'README.md', 'cases', 'cases/support-call-qa.testset.jsonl', 'policies', 'policies/quality.policy.json']);
    assert.match(await fs.readFile(path.join(dir, 'README.md'), 'utf8'), /npx agent-workbench sandbox/);
    assert.match(await fs.readFile(path.join(dir, '.env.example'), 'utf8'), /^AGENT_WORKBENCH_ORGANIZATION_ID=$/m);
    const tried = await cli('try', '--policy', 'policies/quality.policy.json', '--test-set', 'cases/support-call-qa.testset.jsonl', '--out', 'trial', '--min-accuracy', '75', '--max-newly-wrong', '1');
    assert.equal(tried.code, 0, `${tried.out}\n${tried.err}`);
    assert.match(tried.out, /Support Call QA: accuracy 58% → 75%: 3 cases became right, 1 became wrong\./);
  });

  it('init writes nothing when one of its files is there, naming it, and replaces them with --force', async () => {
    await fs.writeFile(path.join(dir, 'README.md'), 'ours');
    const refused = await cli('init');
    assert.equal(refused.code, 2);
    assert.equal(refused.err, 'agent-workbench init: README.md is there already, so nothing was written: run it in an empty folder, or give --force to replace it.');
    assert.deepEqual(await fs.readdir(dir), ['README.md']);
    assert.equal((await cli('init', '--force')).code, 0);
    assert.match(await fs.readFile(path.join(dir, 'README.md'), 'utf8'), /^# Trying policy edits with agent-workbench/);
  });
});
