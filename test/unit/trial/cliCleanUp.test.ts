import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { runCli } from '../../../src/cli/cli';
import type { ServiceClient } from '../../../src/core/client';
import { findLeftovers } from '../../../src/core/trial/trialEnd';
import { trialMarker, trialName } from '../../../src/core/trial/trialMarker';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { seedClientOf } from './trialHelpers';
import { signedInTrialUser } from '../../../src/core/trial/trialOwnership';

describe('agent-workbench clean-up (the trial copies a stopped try left, found by their marker)', function () {
  this.timeout(60_000);
  let t: TestSandbox;
  let client: ServiceClient;
  /** The signed-in user: whose trial copies clean-up removes. */
  let ME: string;
  beforeEach(async () => {
    t = await startTestSandbox();
    // What a try (or anyone) left is made here without the gate: the test stands for them.
    client = seedClientOf(t);
    ME = await signedInTrialUser(client);
  });
  afterEach(async () => {
    await client.close();
    await t.close();
  });

  const env = (): Record<string, string> => ({ AGENT_WORKBENCH_BASE_URL: t.baseUrl, AGENT_WORKBENCH_TOKEN: t.token, AGENT_WORKBENCH_ORGANIZATION_ID: t.orgId });

  async function cleanUp(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['clean-up', ...args], env(), { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  /** An agent as a trial (or anything else) could leave it: named and described as given. */
  function agent(name: string, description: string, engineConfig?: Record<string, string>): Promise<{ id: string }> {
    return client.agents.create({ name, engine_class_id: 'llm_conversation_reviewer', description, ...(engineConfig ? { engine_config: engineConfig } : {}) });
  }

  async function exists(kind: 'agent' | 'policy', id: string): Promise<boolean> {
    return (kind === 'agent' ? client.agents.get(id) : client.policies.get(id)).then(
      () => true,
      () => false,
    );
  }

  it('lists this user’s trial copies and removes nothing (exit 1); --yes removes them (exit 0), leaving other users’ copies and unmarked agents alone', async () => {
    const mine = { trialId: randomUUID(), user: ME };
    const at = new Date('2026-11-24T14:05:00Z');
    const policy = await client.policies.create({ name: trialName('Customer Call Quality Standard', ME, at), description: trialMarker(mine), content: { guidelines: {} } });
    const copy = await agent(trialName('Support Call QA', ME, at), trialMarker(mine));
    const anas = await agent(trialName('Support Call QA', 'Ana', at), trialMarker({ trialId: randomUUID(), user: 'Ana' }));
    const unmarked = await agent(trialName('Support Call QA', ME, at), 'a real agent someone named like a trial');

    const listed = await cleanUp();
    assert.equal(listed.code, 1, listed.err);
    assert.match(listed.out, new RegExp(`Agent “Support Call QA · trial 2026-11-24 14:05 · ${ME}” \\(${copy.id}, created \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC, 0 jobs\\)`));
    assert.match(listed.out, new RegExp(`Policy “Customer Call Quality Standard · trial 2026-11-24 14:05 · ${ME}” \\(${policy.id}, created `));
    assert.match(listed.out, new RegExp(`2 trial copies of ${ME} found, none removed: agent-workbench clean-up --yes removes them\\.`));
    assert.doesNotMatch(listed.out, new RegExp(`${anas.id}|${unmarked.id}`), 'only this user’s marked copies are listed');
    assert.ok((await exists('agent', copy.id)) && (await exists('policy', policy.id)), 'nothing is removed without --yes');

    const removed = await cleanUp('--yes');
    assert.equal(removed.code, 0, removed.err);
    assert.match(removed.out, new RegExp(`Removed 2 trial copies of ${ME}\\.`));
    assert.equal(await exists('agent', copy.id), false);
    assert.equal(await exists('policy', policy.id), false);
    assert.ok(await exists('agent', anas.id), 'another user’s copy stays');
    assert.ok(await exists('agent', unmarked.id), 'an unmarked agent stays, whatever its name');
    assert.deepEqual(await findLeftovers(client, { user: ME }), []);

    const again = await cleanUp();
    assert.equal(again.code, 0);
    assert.match(again.out, new RegExp(`No trial copy of ${ME} is left on the service\\.`));
  });

  it('removes only the signed-in user’s copies: no option names another user', async () => {
    const anas = await agent(trialName('Support Call QA', 'Ana', new Date()), trialMarker({ trialId: randomUUID(), user: 'Ana' }));
    assert.equal((await cleanUp('--yes')).code, 0);
    assert.ok(await exists('agent', anas.id), 'Ana’s copy stays');
    const refused = await cleanUp('--yes', '--user', 'Ana');
    assert.equal(refused.code, 2);
    assert.match(refused.err, /^agent-workbench clean-up: unknown option --user\.\nSee agent-workbench clean-up --help\.$/);
    assert.ok(await exists('agent', anas.id));
  });

  it('exits 3 when a copy is left alone with its reason (a trial policy an unmarked agent still applies), the others removed', async () => {
    const mine = { trialId: randomUUID(), user: ME };
    const policy = await client.policies.create({ name: trialName('Rules', ME, new Date()), description: trialMarker(mine), content: { guidelines: {} } });
    const copy = await agent(trialName('Support Call QA', ME, new Date()), trialMarker(mine));
    const user = await agent('Uses the trial policy', 'a real agent', { policy_id: policy.id });
    const { code, out, err } = await cleanUp('--yes');
    assert.equal(code, 3, `${out}\n${err}`);
    assert.match(err, new RegExp(`Left alone: Policy “Rules · trial .*” \\(${policy.id}\\): still used by an agent that is not removed`));
    assert.match(out, new RegExp(`Removed 1 trial copy of ${ME}\\.`));
    assert.equal(await exists('agent', copy.id), false);
    assert.ok((await exists('policy', policy.id)) && (await exists('agent', user.id)));
  });

  it('says what is missing and exits 2 without the connection, and 2 when the service cannot be reached', async () => {
    const err: string[] = [];
    assert.equal(await runCli(['clean-up'], {}, { out: () => undefined, err: (l) => err.push(l) }), 2);
    assert.match(err.join('\n'), /agent-workbench clean-up: AGENT_WORKBENCH_BASE_URL and AGENT_WORKBENCH_TOKEN must be set/);
    await t.close();
    err.length = 0;
    assert.equal(await runCli(['clean-up', '--yes'], env(), { out: () => undefined, err: (l) => err.push(l) }), 2);
    assert.match(err.join('\n'), /^agent-workbench clean-up: /);
  });

  it('has its help in the style of the other commands, with its exit codes', async () => {
    const out: string[] = [];
    assert.equal(await runCli(['help', 'clean-up'], {}, { out: (l) => out.push(l), err: () => undefined }), 0);
    assert.match(out.join('\n'), /^Usage: agent-workbench clean-up \[--yes\]/);
    assert.match(out.join('\n'), /Exit code: 0 when no trial copy is left.*1 when copies are listed but not removed/s);
    out.length = 0;
    await runCli(['--help'], {}, { out: (l) => out.push(l), err: () => undefined });
    assert.match(out.join('\n'), /clean-up +list the trial copies/);
  });
});
