import * as assert from 'node:assert/strict';
import { bigTranscript, manyRules } from '../../../bench/benchmarks/noisyNeighbour';
import { createJobEngine, type JobEngine } from '../../../src/sandbox/engine/engineThreads';
import { readPolicy } from '../../../src/sandbox/engine/policyRules';
import { matchRules } from '../../../src/sandbox/engine/ruleMatching';
import { createQueryEngine } from '../../../src/sandbox/query';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_INPUTS, DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { type TestSandbox, eventually, startTestSandbox } from '../sandbox/helpers';
import { RUNAWAY_QUERY } from '../sandbox-query/helpers';
import { OTHER, scalar } from './support';

/** The job engine, reporting when it starts and ends judging each job. */
function watchedEngine(events: string[]): () => JobEngine {
  return () => {
    const real = createJobEngine();
    return {
      async judge(orgId, request) {
        events.push('judging');
        try {
          return await real.judge(orgId, request);
        } finally {
          events.push('judged');
        }
      },
      close: () => real.close(),
    };
  };
}

describe('sandbox under hostile input: one organization’s slow work', function () {
  this.timeout(120_000);

  it('matches rules reading each input line once, however many rules there are', () => {
    const lines = 300;
    const text = bigTranscript(lines * 90);
    const splits = (rules: number): number => {
      const read = readPolicy(manyRules(rules));
      // The very method, restored below: counting calls must not change what they do.
      // eslint-disable-next-line @typescript-eslint/unbound-method
      const original = String.prototype.split;
      let count = 0;
      String.prototype.split = function (this: string, ...args: Parameters<typeof original>) {
        count++;
        return original.apply(this, args);
      } as typeof original;
      try {
        matchRules(read.rules, [{ key: 'transcript', text }]);
      } finally {
        String.prototype.split = original;
      }
      return count;
    };
    const few = splits(5);
    const many = splits(500);
    // Each rule's title is split once; the input's lines are split once in all, not once per rule.
    assert.ok(many - few <= 495 * 2, `500 rules split ${many} times, 5 rules ${few} times`);
    assert.ok(few < lines * 3, `${few} splits for ${lines} lines`);
  });

  describe('with a running sandbox', () => {
    let t: TestSandbox;
    const events: string[] = [];
    before(async () => {
      t = await startTestSandbox({ jobEngineFactory: watchedEngine(events), queryEngineFactory: () => createQueryEngine({ timeoutMs: 60_000 }) });
      // Every thread started before anything is compared: starting one is not the work under test.
      assert.equal(await scalar(t, 'SELECT 1'), '1');
      assert.equal(await scalar(t, 'SELECT 1', OTHER), '1');
    });
    after(() => t.close());

    it('answers another organization while a run of 500 rules over a large input is judged', async () => {
      const versions = await t.call('POST', `/v1/policies/${DEMO_LOOP_POLICY_ID}/versions/`, { body: { content: manyRules(500), version_name: '500 rules' } });
      assert.equal(versions.status, 201, versions.text);
      const run = t.call('POST', `/v1/agents/run/${DEMO_LOOP_AGENT_ID}/async/`, { body: { ...DEMO_LOOP_INPUTS, transcript: bigTranscript(1_000_000) } }).then((answer) => {
        events.push('run answered');
        return answer;
      });
      await eventually(() => (events.includes('judging') ? true : undefined), 30_000, 'the engine to start judging');
      assert.equal((await t.call('GET', '/v1/agents/?page_size=5', OTHER)).status, 200);
      assert.equal((await t.call('GET', '/v1/tables/customers/preview/', OTHER)).status, 200);
      events.push('other organization answered');
      assert.equal((await run).status, 200);
      assert.deepEqual(events, ['judging', 'other organization answered', 'judged', 'run answered']);
    });

    it('runs another organization’s query and preview while a runaway query runs', async () => {
      const runaway = await t.call('POST', '/v1/database/query/', { body: { query: RUNAWAY_QUERY } });
      const status = async () => (await t.call('GET', `/v1/database/query/${runaway.body.worksheet_query_id}/result/`)).body.status;
      assert.equal(await status(), 'STARTED');
      assert.equal(await scalar(t, 'SELECT count(*) FROM customers', OTHER), '400');
      assert.equal((await t.call('GET', '/v1/tables/customers/describe/', OTHER)).body.row_count, 400);
      assert.equal(await status(), 'STARTED', 'the runaway query was still running');
    });
  });
});
