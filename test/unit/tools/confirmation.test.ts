import * as assert from 'node:assert/strict';
import * as z from 'zod';
import type { ServiceClient } from '../../../src/core/client';
import { planBinding } from '../../../src/core/tools/confirmation';
import { CONFIRMATION_ID, Confirmations, JobBudget, ShownPlans, callTool, type AnyTool, type ConfirmedPlan, type ToolContext } from '../../../src/core/tools';
import { defineTool } from '../../../src/core/tools/toolTypes';
import { limits } from './toolHelpers';

/** A paid tool over nothing: its plan is what `planned` holds at the time, and it counts its runs. */
function fakeTool(): { tool: AnyTool; runs: (ConfirmedPlan | undefined)[]; planned: { jobs: number; cost: number; agent: string } } {
  const runs: (ConfirmedPlan | undefined)[] = [];
  const planned = { jobs: 2, cost: 0.5, agent: 'a-1' };
  const tool = defineTool({
    name: 'spend',
    title: 'Spend',
    kind: 'paid',
    description: 'Paid.',
    input: z.object({ n: z.number() }),
    output: z.object({}),
    plan: () => Promise.resolve({ text: `Start ${planned.jobs} jobs of ${planned.agent}.`, jobs: planned.jobs, data: { agent: planned.agent, estimate: { jobs: planned.jobs, cost: planned.cost } } }),
    run: (_i, _ctx, confirmed) => {
      runs.push(confirmed);
      return Promise.resolve({ text: 'Started.', data: {} });
    },
  });
  return { tool, runs, planned };
}

function context(): ToolContext {
  return { client: {} as ServiceClient, root: undefined, budget: new JobBudget(() => limits()), signal: new AbortController().signal, user: 'tester' };
}

describe('Confirmation bound to its plan (core)', () => {
  it('never runs paid work on the input saying so: callTool needs the plan the user agreed to', async () => {
    const { tool, runs } = fakeTool();
    const result = await callTool(tool, { n: 1, confirm: true }, context());
    assert.equal(result.isError, true);
    assert.match(result.text, /runs only once the user agreed to its plan/);
    assert.deepEqual(runs, []);
  });

  it('gives the run the plan the user agreed to, and who asked', async () => {
    const { tool, runs } = fakeTool();
    const confirmations = new Confirmations();
    const ctx = context();
    const first = await confirmations.call(tool, { n: 1 }, ctx);
    await confirmations.call(tool, { n: 1, [CONFIRMATION_ID]: first.data[CONFIRMATION_ID] }, ctx);
    assert.equal(runs.length, 1);
    assert.equal(runs[0]?.by, 'confirmation_id');
    assert.deepEqual(runs[0]?.plan.data, { agent: 'a-1', estimate: { jobs: 2, cost: 0.5 } });
  });

  it('binds a plan by what it does and how many jobs, not by its cost forecast', () => {
    const plan = (jobs: number, cost: number, agent = 'a-1') => ({ text: '', jobs, data: { agent, estimate: { jobs, cost } } });
    assert.equal(planBinding(plan(2, 0.5)), planBinding(plan(2, 0.7)));
    assert.notEqual(planBinding(plan(2, 0.5)), planBinding(plan(3, 0.5)));
    assert.notEqual(planBinding(plan(2, 0.5)), planBinding(plan(2, 0.5, 'a-2')));
  });

  describe("a host's own dialog (VS Code)", () => {
    it('runs the plan it showed, once', async () => {
      const { tool, runs } = fakeTool();
      const shown = new ShownPlans();
      shown.note(tool, { n: 1 }, await tool.plan!({ n: 1 }, context()));
      assert.equal((await shown.call(tool, { n: 1 }, context(), 'vscode')).text, 'Started.');
      assert.equal(runs[0]?.by, 'vscode');
      assert.match((await shown.call(tool, { n: 1 }, context(), 'vscode')).text, /^Refused: no plan of this spend call was shown to the user/);
      assert.equal(runs.length, 1);
    });

    it('refuses a call whose dialog showed no plan (an error instead), another input, or a plan that changed since', async () => {
      const { tool, runs, planned } = fakeTool();
      const shown = new ShownPlans();
      assert.match((await shown.call(tool, { n: 1 }, context(), 'vscode')).text, /^Refused: no plan of this spend call was shown/);
      shown.note(tool, { n: 1 }, await tool.plan!({ n: 1 }, context()));
      assert.match((await shown.call(tool, { n: 2 }, context(), 'vscode')).text, /^Refused: no plan/);
      planned.agent = 'a-2';
      assert.match((await shown.call(tool, { n: 1 }, context(), 'vscode')).text, /^Refused: the plan changed since the user was asked; it is now: Start 2 jobs of a-2\. Call spend again/);
      assert.deepEqual(runs, []);
    });

    it('forgets a plan shown over an hour ago', async () => {
      let now = 0;
      const { tool, runs } = fakeTool();
      const shown = new ShownPlans(() => now);
      shown.note(tool, { n: 1 }, await tool.plan!({ n: 1 }, context()));
      now += 61 * 60_000;
      assert.match((await shown.call(tool, { n: 1 }, context(), 'vscode')).text, /^Refused: no plan/);
      assert.deepEqual(runs, []);
    });
  });
});
