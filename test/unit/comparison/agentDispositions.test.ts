import * as assert from 'node:assert/strict';
import type { ServiceClient } from '../../../src/core/client';
import { agentDispositions, versionDispositions } from '../../../src/core/comparison/agentDispositions';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_DISPOSITION_AFTER, DEMO_LOOP_DISPOSITION_BEFORE, DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { MISSING_ID, startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf } from '../trial/trialHelpers';

describe('the dispositions an agent can be expected to give', () => {
  let t: TestSandbox;
  let client: ServiceClient;
  before(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
  });
  after(async () => {
    await client.close();
    await t.close();
  });

  it('are the classifications of the current version of the policy its current version applies', async () => {
    const names = await agentDispositions(client, DEMO_LOOP_AGENT_ID);
    assert.ok(names && names.includes(DEMO_LOOP_DISPOSITION_BEFORE) && names.includes(DEMO_LOOP_DISPOSITION_AFTER), JSON.stringify(names));
    const policy = await client.policies.get(DEMO_LOOP_POLICY_ID);
    const version = await client.policies.getVersion(policy.id, policy.current_version_id!);
    const classifications = (version.content as { dispositions: { classifications: { name: string }[] } }).dispositions.classifications.map((c) => c.name);
    assert.deepEqual(names, [...new Set(classifications)]);
  });

  it('are none for a version that applies no policy, and unknown when the policy cannot be read', async () => {
    assert.deepEqual(await versionDispositions(client, { engine_config: {} }), []);
    assert.deepEqual(await versionDispositions(client, { engine_config: null }), []);
    assert.equal(await versionDispositions(client, { engine_config: { policy_id: MISSING_ID } }), undefined);
    assert.equal(await agentDispositions(client, MISSING_ID), undefined);
  });
});
