import * as assert from 'node:assert/strict';
import { duplicateAgentAs } from '../../../src/core/agentDuplicate';
import type { ServiceClient } from '../../../src/core/client';
import { findLeftovers } from '../../../src/core/trial/trialEnd';
import { readMarker, trialMarker, withoutTrialMarker } from '../../../src/core/trial/trialMarker';
import { DEMO_LOOP_AGENT_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf, seedClientOf } from './trialHelpers';

const MARKER = trialMarker({ trialId: '0f4c1e2a-7b6d-4c1f-9a35-2d8e6b7c9f01', user: 'priya' });

describe('duplicating a trial copy (against the in-process sandbox)', function () {
  this.timeout(30_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let marked: string;
  before(async () => {
    t = await startTestSandbox();
    client = clientOf(t);
    // A trial's copy, as a trial left it (Clean Up Trials… would offer to remove it).
    const copy = await seedClientOf(t).agents.duplicate(DEMO_LOOP_AGENT_ID);
    marked = (await seedClientOf(t).agents.patch(copy.base_agent.id, { name: 'Support Call QA · trial 2026-11-24 14:05 · priya', description: `Checks calls. ${MARKER}` })).id;
  });
  after(async () => {
    await client.close();
    await t.close();
  });

  it('gives Duplicate Agent…’s copy of a trial copy no trial marker, so Clean Up Trials… never offers to remove it', async () => {
    const copy = await duplicateAgentAs(client, marked, { name: 'Support Call QA, my variant' });
    const read = await client.agents.get(copy.base_agent.id);
    assert.equal(read.name, 'Support Call QA, my variant');
    assert.equal(readMarker(read.description), undefined, read.description ?? '');
    assert.equal(read.description, 'Checks calls.', 'the rest of the description is kept');
    const leftovers = await findLeftovers(client);
    assert.ok(leftovers.some((l) => l.id === marked), 'the trial copy itself is still a leftover');
    assert.ok(!leftovers.some((l) => l.id === copy.base_agent.id), 'the duplicate is not');
  });

  it('keeps the marker the trial set-up asks for in the description', async () => {
    const other = trialMarker({ trialId: '9a1b2c3d-0000-4000-8000-000000000001', user: 'sam' });
    const copy = await duplicateAgentAs(client, marked, { name: 'a trial copy of a trial copy', description: other });
    assert.equal((await client.agents.get(copy.base_agent.id)).description, other);
  });
});

describe('a description without its trial marker', () => {
  it('keeps every other word, and is empty when the marker was all', () => {
    assert.equal(withoutTrialMarker(MARKER), '');
    assert.equal(withoutTrialMarker(`Checks calls.\n\n${MARKER}`), 'Checks calls.');
    assert.equal(withoutTrialMarker(`Before ${MARKER} after`), 'Before after');
    assert.equal(withoutTrialMarker('About agent-workbench-trial: notes'), 'About agent-workbench-trial: notes');
  });
});
