/**
 * Crafted trial files against every entry point that acts on one: whatever a file says (real ids, real
 * names, another user's marked copies, forged users and trial ids, any state, repeated entities, either
 * subject), nothing that is not the trial's own copy changes — no version, no current version, no job,
 * no policy version, no deletion. A census of the organization is taken before and after each step.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { runCli } from '../../../src/cli/cli';
import type { BaseAgent, ServiceClient } from '../../../src/core/client';
import { draftFromVersion } from '../../../src/core/documents/agentVersionDraft';
import { callTool, toolNamed } from '../../../src/core/tools';
import { discardTrial, findLeftovers, publishTarget, publishTrial, removeLeftovers } from '../../../src/core/trial/trialEnd';
import { readMarker, trialMarker, trialName } from '../../../src/core/trial/trialMarker';
import { signedInTrialUser } from '../../../src/core/trial/trialOwnership';
import { newDraftTrial, newTrial, parseTrial, serializeTrial, type TrialEntity, type TrialRecord } from '../../../src/core/trial/trialRecord';
import { agentsApplying, setUpDraftTrial, setUpTrial } from '../../../src/core/trial/trialSetup';
import { policyFileText } from '../../../src/core/trial/policyFile';
import { testCaseLine } from '../../../src/core/comparison/testSet';
import { JobStatus } from '../../../src/core/jobStatus';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf, seedClientOf } from '../trial/trialHelpers';
import { toolContext } from '../tools/toolHelpers';

/** Runs of the property in `npm test` (fixed seed); the bench run asks for more with AGENT_WORKBENCH_PROPERTY_RUNS. */
const RUNS = Number(process.env.AGENT_WORKBENCH_PROPERTY_RUNS ?? 200);
const SEED = 37;

/** What may not change: every agent (name, versions, current version, jobs) and policy (name, versions, current version) that is not a copy of one of the crafted trials. */
type Census = Map<string, string>;

async function census(client: ServiceClient, ownTrials: ReadonlySet<string>, me: string): Promise<Census> {
  const seen: Census = new Map();
  const own = (description?: string | null): boolean => {
    const marker = readMarker(description);
    return marker !== undefined && ownTrials.has(marker.trialId) && marker.user === me;
  };
  for await (const agent of client.agents.items({ include_job_stats: false })) {
    if (own(agent.description)) continue;
    const versions = await client.agents.listVersions(agent.id);
    const jobs = (await client.jobs.list(agent.id, { page_size: 1 })).count;
    seen.set(`agent ${agent.id}`, JSON.stringify([agent.name, agent.description ?? '', agent.current_version_id, versions.map((v) => v.id).sort(), jobs]));
  }
  for await (const policy of client.policies.items({})) {
    if (own(policy.description)) continue;
    seen.set(`policy ${policy.id}`, JSON.stringify([policy.name, policy.description ?? '', policy.current_version_id, (await client.policies.listVersions(policy.id, { page_size: 1 })).count]));
  }
  return seen;
}

describe('crafted trial files never write what is not their own copy (property, every entry point)', function () {
  this.timeout(30 * 60_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let seed: ServiceClient;
  let me: string;
  let realAgents: BaseAgent[];
  let realPolicyIds: string[];
  let bobsCopy: { trialId: string; agentId: string };
  let root: string;

  before(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
    seed = seedClientOf(t);
    me = await signedInTrialUser(client);
    realAgents = [];
    for await (const a of seed.agents.items({ include_job_stats: false })) realAgents.push(a);
    realPolicyIds = [];
    for await (const p of seed.policies.items({})) realPolicyIds.push(p.id);
    // Another user's trial copy, with a job: marked as Bob's, never this user's to touch.
    const bobTrial = { trialId: 'bob-trial-0001', user: 'Bob' };
    const copy = await seed.agents.duplicate(DEMO_LOOP_AGENT_ID);
    await seed.agents.patch(copy.base_agent.id, { name: trialName('Support Call QA', 'Bob', new Date()), description: trialMarker(bobTrial) });
    await seed.agents.run(copy.base_agent.id, { inputs: { transcript: 'hello', language: 'en' } });
    bobsCopy = { trialId: bobTrial.trialId, agentId: copy.base_agent.id };
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'aw-crafted-')));
  });
  after(async () => {
    await fs.rm(root, { recursive: true, force: true });
    await client.close();
    await seed.close();
    await t.close();
  });

  /** A crafted record, read back as a file would be (what the schema refuses never reaches an entry point). */
  function crafted(spec: { draft: boolean; user: string; trialId: string; state: TrialRecord['state']; entities: TrialEntity[]; base: string | null }): TrialRecord {
    const common = { trialId: spec.trialId, user: spec.user, baseVersionId: spec.base };
    const record = spec.draft
      ? newDraftTrial({ ...common, agentId: DEMO_LOOP_AGENT_ID, agentName: 'Support Call QA', draft: { version_name: 'crafted', input_definitions: [{ key: 'transcript', data_type: 'text/plain' }], engine_config: { model: 'gpt-4o', policy_id: DEMO_LOOP_POLICY_ID, system_prompt: 'Always mark every call Compliant' } } })
      : newTrial({ ...common, policyId: DEMO_LOOP_POLICY_ID, policyName: 'Customer Call Quality Standard', content: { guidelines: { categories: [] }, note: 'Always mark every call Compliant' } });
    record.entities = spec.entities;
    record.state = spec.state;
    return parseTrial(serializeTrial(record));
  }

  /** How many of the command line's trials ran to their end (0: every one agrees, 1: some disagree). */
  let triesRan = 0;

  /** `agent-workbench try` and the try_policy_edit tool on a one-case test set beside the crafted record `record`. */
  async function tryBeside(record: TrialRecord, n: number): Promise<void> {
    const dir = path.join(root, `try-${n}`);
    await fs.mkdir(dir);
    const job = (await seed.jobs.list(DEMO_LOOP_AGENT_ID, { page_size: 5, status_code: JobStatus.SUCCESS })).results[0]!;
    await fs.writeFile(path.join(dir, 'loop.testset.jsonl'), `${testCaseLine({ name: 'crafted neighbour', tags: [], inputs: { transcript: 'Agent: hello.', language: 'en' }, sourceJobId: job.id })}\n`);
    const policy = await seed.policies.get(DEMO_LOOP_POLICY_ID);
    const content = (await seed.policies.getVersion(policy.id, policy.current_version_id!)).content;
    await fs.writeFile(path.join(dir, 'quality.policy.json'), policyFileText({ id: policy.id, name: policy.name }, policy.current_version_id ?? null, content));
    await fs.writeFile(path.join(dir, 'loop.trial.json'), serializeTrial(record));
    const env = { AGENT_WORKBENCH_BASE_URL: t.baseUrl, AGENT_WORKBENCH_TOKEN: t.token, AGENT_WORKBENCH_ORGANIZATION_ID: t.orgId };
    const code = await runCli(['try', '--policy', 'quality.policy.json', '--test-set', 'loop.testset.jsonl'], env, { out: () => undefined, err: () => undefined, cwd: dir });
    if (code === 0 || code === 1) triesRan++;
    await fs.writeFile(path.join(dir, 'loop.trial.json'), serializeTrial(record));
    const ctx = await toolContext(client, { root: dir });
    const tool = toolNamed('try_policy_edit')!;
    const input = { test_set: 'loop.testset.jsonl', policy_file: 'quality.policy.json' };
    const plan = await tool.plan?.(input, ctx).catch(() => undefined);
    if (plan) await callTool(tool, input, ctx, { plan, by: 'vscode' });
  }

  const entityArb = (): fc.Arbitrary<TrialEntity> =>
    fc.oneof(
      fc.constantFrom(...realAgents).map((a): TrialEntity => ({ kind: 'agent', name: a.name, id: a.id, sourceAgentId: a.id, sourceVersionId: a.current_version_id ?? undefined })),
      fc.constantFrom(...realAgents).map((a): TrialEntity => ({ kind: 'agent', name: a.name, sourceAgentId: a.id, sourceVersionId: a.current_version_id ?? undefined })),
      fc.constantFrom(...realPolicyIds).map((id): TrialEntity => ({ kind: 'policy', name: 'Customer Call Quality Standard', id })),
      fc.constant<TrialEntity>({ kind: 'agent', name: 'bob', id: '', sourceAgentId: DEMO_LOOP_AGENT_ID }).map((e) => ({ ...e, id: bobsCopy.agentId })),
      fc.record({ trialVersionId: fc.constantFrom(...realAgents.map((a) => a.current_version_id ?? 'x')) }).map(({ trialVersionId }): TrialEntity => ({ kind: 'agent', name: 'Support Call QA', id: DEMO_LOOP_AGENT_ID, sourceAgentId: DEMO_LOOP_AGENT_ID, trialVersionId })),
    );

  it('leaves the census unchanged for Resume, Publish, the publish tools, try and try_policy_edit beside the file, Discard, Clean Up and clean-up', async () => {
    const ownTrials = new Set<string>();
    let n = 0;
    let runs = 0;
    const specArb = fc.record({
      draft: fc.boolean(),
      user: fc.constantFrom('me', 'Bob', 'bob', ''),
      trialId: fc.constantFrom('fresh', bobsCopy.trialId),
      state: fc.constantFrom<TrialRecord['state']>('started', 'ready', 'published', 'discarded'),
      entities: fc.array(entityArb(), { maxLength: 4 }),
      base: fc.constantFrom<string | null>(null, 'current'),
    });
    await fc.assert(
      fc.asyncProperty(specArb, async (raw) => {
        const trialId = raw.trialId === 'fresh' ? `crafted-${String(++n).padStart(4, '0')}` : raw.trialId;
        ownTrials.add(trialId);
        const user = raw.user === 'me' ? me : raw.user;
        const current = raw.draft ? (await seed.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id : (await seed.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id;
        const spec = { ...raw, user, trialId, base: raw.base === 'current' ? (current ?? null) : null };
        const before = await census(seed, ownTrials, me);
        const tolerate = (work: () => Promise<unknown>) => work().catch(() => undefined);

        // Resume (and Try Again): set-up of the record as the file says.
        const resumed = crafted(spec);
        if (resumed.subject === 'agentVersion') await tolerate(async () => setUpDraftTrial(client, resumed, await client.agents.get(resumed.agentId), () => Promise.resolve()));
        else await tolerate(async () => setUpTrial(client, resumed, await agentsApplying(client, DEMO_LOOP_POLICY_ID), () => Promise.resolve()));
        // Publish, as if the user confirmed the target the file names.
        const published = crafted(spec);
        await tolerate(() => publishTrial(client, published, () => Promise.resolve(), { ground: client.gate!.userPicked(publishTarget(published), 'a confirmation') }));
        // Publish through the tools, confirmed.
        const file = `t${n}.trial.json`;
        await fs.writeFile(path.join(root, file), serializeTrial(crafted(spec)));
        const ctx = await toolContext(client, { root });
        const tool = toolNamed(spec.draft ? 'publish_agent_draft' : 'publish_policy_edit')!;
        const plan = await tool.plan?.({ trial_file: file }, ctx).catch(() => undefined);
        if (plan) await callTool(tool, { trial_file: file }, ctx, { plan, by: 'vscode' });
        // Every tenth run: a trial next to the crafted record, by the command line and by the tool (its own
        // copies come and go; the cases carry results before, so nothing runs on a real agent). A crafted
        // record is never overwritten while the service has copies it names as this user's, and names nothing
        // the trial writes.
        if (++runs % 10 === 0) await tryBeside(crafted(spec), runs);
        // Discard, then Clean Up of the user's leftovers, then the command line's clean-up.
        await tolerate(() => discardTrial(client, crafted(spec), () => Promise.resolve()));
        await tolerate(async () => removeLeftovers(client, await findLeftovers(client, { user: me })));
        await runCli(['clean-up', '--yes'], { AGENT_WORKBENCH_BASE_URL: t.baseUrl, AGENT_WORKBENCH_TOKEN: t.token, AGENT_WORKBENCH_ORGANIZATION_ID: t.orgId }, { out: () => undefined, err: () => undefined });

        assert.deepEqual(await census(seed, ownTrials, me), before);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    assert.ok(triesRan > 0, 'trials beside crafted files ran to their end (a crafted file does not stop an honest run)');
    // The runs did make copies of their own (Resume of a file of this user's): they were theirs to make, and are gone again.
    assert.ok(await seed.agents.get(bobsCopy.agentId), 'Bob’s copy stays');
    assert.equal((await seed.agents.listVersions(DEMO_LOOP_AGENT_ID)).map((v) => draftFromVersion(v)).length > 0, true);
  });
});
