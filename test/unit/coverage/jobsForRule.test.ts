// Past jobs that reach a rule no case reaches: the finished jobs whose outputs say it matched, else jobs like its words.
import * as assert from 'node:assert/strict';
import type { AgentJob, ListJobsParams, ServiceClient } from '../../../src/core/client';
import type { JobResultRecord } from '../../../src/core/client/schemas/results';
import { jobsForRule } from '../../../src/core/coverage/jobsForRule';
import { policyRuleList } from '../../../src/core/coverage/policyRuleList';
import { ruleSearchText } from '../../../src/core/coverage/ruleEdits';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_AGENT_NAME, DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { seedClientOf } from '../trial/trialHelpers';

const PIN = { title: 'Asks for the PIN', category: 'Identity', text: 'Asks for the PIN Listen for “account PIN”.' };

/** A fake jobs API over numbered jobs (newest first), each with the rules its outputs say matched (undefined: no such output). */
function fakeJobs(count: number, rulesOf: (i: number) => { category: string; rule: string }[] | undefined, similar: string[] = []) {
  const jobs: AgentJob[] = Array.from({ length: count }, (_, i) => ({ id: `j${i}`, status_code: 3, created_at: '2026-01-01T00:00:00Z' }));
  const asked: { pages: ListJobsParams[]; listed: ListJobsParams[]; resultIds: number } = { pages: [], listed: [], resultIds: 0 };
  const api = {
    async *pages(_agentId: string, params: ListJobsParams) {
      await Promise.resolve();
      asked.pages.push(params);
      const size = params.page_size ?? 100;
      for (let start = 0; start < jobs.length; start += size) yield { count: jobs.length, results: jobs.slice(start, start + size), page: 1, nextPage: null, previousPage: null };
    },
    list(_agentId: string, params: ListJobsParams) {
      asked.listed.push(params);
      return Promise.resolve({ count: similar.length, results: similar.map((id) => ({ id, status_code: 3, created_at: '2026-01-01T00:00:00Z' })), page: 1, nextPage: null, previousPage: null });
    },
    results(ids: readonly string[]): Promise<JobResultRecord[]> {
      asked.resultIds += ids.length;
      return Promise.resolve(ids.map((id) => {
        const rules = id.startsWith('j') ? rulesOf(Number(id.slice(1))) : undefined;
        const result: JobResultRecord['result'] & object = [{ key: 'disposition', value: 'Compliant', description: null, data_type: null, cost: null }];
        if (rules) result.push({ key: 'matched_rules', value: JSON.stringify(rules), description: null, data_type: 'application/json', cost: null });
        return { id, status: 3, corrected_outputs: null, agent_id: 'a', agent_version_id: null, cost: null, input_tokens: null, output_tokens: null, result };
      }));
    },
  };
  return { client: { jobs: api } as unknown as Pick<ServiceClient, 'jobs'>, asked };
}

const agents = [{ id: 'a', name: 'Support Call QA' }];

describe('jobs that reach a rule no case reaches', () => {
  it('finds the finished jobs whose outputs say the rule matched, by title and category, with their outcome', async () => {
    const { client } = fakeJobs(10, (i) => (i % 4 === 1 ? [{ category: 'Identity', rule: 'Asks for the PIN' }] : i === 2 ? [{ category: 'Other', rule: 'Asks for the PIN' }] : []));
    const found = await jobsForRule(client, { agents, rule: PIN });
    assert.deepEqual(found.jobs.map((j) => [j.job.id, j.how, j.outcome]), [['j1', 'matched', 'Compliant'], ['j5', 'matched', 'Compliant'], ['j9', 'matched', 'Compliant']]);
    assert.equal(found.read, 10);
    assert.deepEqual(found.searchedByText, []);
  });

  it('reads no more than the bound of recent finished jobs, newest first, in bulk', async () => {
    const { client, asked } = fakeJobs(1000, () => []);
    const found = await jobsForRule(client, { agents, rule: PIN, limit: 200 });
    assert.equal(found.read, 200);
    assert.equal(asked.resultIds, 200);
    assert.deepEqual(asked.pages, [{ status_code: '3,6', ordering: '-created_at', page_size: 100 }]);
  });

  it('leaves out jobs the test set already has', async () => {
    const { client } = fakeJobs(3, () => [{ category: 'Identity', rule: 'Asks for the PIN' }]);
    const found = await jobsForRule(client, { agents, rule: PIN, exclude: new Set(['j0', 'j2']) });
    assert.deepEqual(found.jobs.map((j) => j.job.id), ['j1']);
  });

  it('looks for jobs like the rule’s words when the outputs say nothing about rules, and says they are only similar', async () => {
    const { client, asked } = fakeJobs(5, () => undefined, ['s1', 's2']);
    const found = await jobsForRule(client, { agents, rule: PIN });
    assert.deepEqual(found.jobs.map((j) => [j.job.id, j.how]), [['s1', 'similar'], ['s2', 'similar']]);
    assert.deepEqual(found.searchedByText, ['Support Call QA']);
    assert.equal(asked.listed[0]?.semantic_string, PIN.text);
  });

  it('does not guess by text when the outputs say which rules matched and none is this one', async () => {
    const { client, asked } = fakeJobs(5, () => [{ category: 'Identity', rule: 'Verifies the caller' }], ['s1']);
    const found = await jobsForRule(client, { agents, rule: PIN });
    assert.deepEqual(found.jobs, []);
    assert.deepEqual(asked.listed, []);
  });

  it('looks only for jobs like the words of a rule new in an edit (no output can name it yet)', async () => {
    const { client, asked } = fakeJobs(5, () => [{ category: 'Identity', rule: 'Verifies the caller' }], ['s1']);
    const found = await jobsForRule(client, { agents, rule: PIN, byTextOnly: true });
    assert.deepEqual(found.jobs.map((j) => [j.job.id, j.how]), [['s1', 'similar']]);
    assert.deepEqual(asked.pages, []);
  });
});

describe('jobs of the demo that reach the rule its test set does not (the sandbox’s engine)', function () {
  this.timeout(60_000);
  let t: TestSandbox;
  before(async () => (t = await startTestSandbox()));
  after(() => t.close());

  it('finds past jobs of Support Call QA that asked for the account PIN', async () => {
    const client = seedClientOf(t);
    const policy = await client.policies.get(DEMO_LOOP_POLICY_ID);
    const content = (await client.policies.getVersion(policy.id, policy.current_version_id!)).content;
    const rule = policyRuleList(content).find((r) => r.title === 'Asks for the account PIN or a one-time code')!;
    const found = await jobsForRule(client, { agents: [{ id: DEMO_LOOP_AGENT_ID, name: DEMO_LOOP_AGENT_NAME }], rule: { title: rule.title, category: rule.category, text: ruleSearchText(content, rule) } });
    assert.ok(found.jobs.length > 0, `no job of ${found.read} read reached the rule`);
    assert.ok(found.jobs.every((j) => j.how === 'matched'));
  });
});
