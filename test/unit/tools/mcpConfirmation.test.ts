import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceClient } from '../../../src/core/client';
import { isFinalStatus } from '../../../src/core/jobStatus';
import { createMcpServer } from '../../../src/core/mcp/mcpServer';
import type { JobLimits } from '../../../src/core/tools';
import { DEMO_LOOP_AGENT_ID } from '../../../src/sandbox/seed/demoLoop';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf } from '../trial/trialHelpers';
import { limits } from './toolHelpers';

function text(result: unknown): string {
  return ((result as CallToolResult).content[0] as { text: string }).text;
}

function idOf(result: unknown): string {
  const id = ((result as CallToolResult).structuredContent as { confirmation_id?: string }).confirmation_id;
  assert.ok(id, text(result));
  return id;
}

describe('Confirming paid work over MCP (a real MCP client, the in-process sandbox)', function () {
  this.timeout(60_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let now: number;
  let open: Client[];
  before(async () => {
    t = await startTestSandbox({ jobStepMs: 300 });
    client = clientOf(t);
  });
  after(async () => {
    await client.close();
    await t.close();
  });
  beforeEach(() => {
    now = Date.parse('2025-06-01T10:00:00Z');
    open = [];
  });
  afterEach(() => Promise.all(open.map((c) => c.close())));

  const jobCount = async (): Promise<number> => (await client.jobs.list(DEMO_LOOP_AGENT_ID, { page_size: 1 })).count;
  const run = { agent_id: DEMO_LOOP_AGENT_ID, inputs: [{ transcript: 'Agent: hi.', language: 'en' }] };

  /** A client connected in-process to a new session; `answer` makes it one that can be asked (elicitation). */
  async function connect(o: { answer?: () => 'accept' | 'decline' | 'cancel'; limits?: JobLimits } = {}): Promise<{ mcp: Client; asked: string[] }> {
    const server = createMcpServer({ context: () => ({ client, root: undefined, user: 'tester' }), limits: () => o.limits ?? limits(), readOnly: false, version: '0', log: () => undefined, now: () => now });
    const mcp = new Client({ name: 'test', version: '1' }, o.answer ? { capabilities: { elicitation: {} } } : {});
    const asked: string[] = [];
    const answer = o.answer;
    if (answer) {
      mcp.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params.message);
        return { action: answer() };
      });
    }
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    await mcp.connect(a);
    open.push(mcp);
    return { mcp, asked };
  }

  describe('a client that can ask the user', () => {
    it('starts nothing once the user declined, however the call is repeated (confirm: true included), and does not ask again', async () => {
      const { mcp, asked } = await connect({ answer: () => 'decline' });
      const before = await jobCount();
      assert.match(text(await mcp.callTool({ name: 'run_agent', arguments: run })), /The user declined: nothing was started/);
      assert.match(text(await mcp.callTool({ name: 'run_agent', arguments: { ...run, confirm: true } })), /^Input refused: unknown field `confirm`/);
      for (const args of [run, run]) {
        const again = await mcp.callTool({ name: 'run_agent', arguments: args });
        assert.match(text(again), /^Refused: the user declined this run_agent call/);
      }
      assert.equal(await jobCount(), before, 'no job was started');
      assert.equal(asked.length, 1, 'a declined plan is not asked again');
    });

    it('asks again about a declined plan once a few minutes have passed', async () => {
      const { mcp, asked } = await connect({ answer: () => 'decline' });
      await mcp.callTool({ name: 'run_agent', arguments: run });
      now += 6 * 60_000;
      assert.match(text(await mcp.callTool({ name: 'run_agent', arguments: run })), /The user declined/);
      assert.equal(asked.length, 2);
    });

    it('asks the user even when the first call carries a confirmation id', async () => {
      const { mcp, asked } = await connect({ answer: () => 'decline' });
      const before = await jobCount();
      await mcp.callTool({ name: 'run_agent', arguments: { ...run, confirmation_id: 'made-up' } });
      assert.equal(asked.length, 1);
      assert.match(asked[0]!, /Run an agent: Run .*1 job/);
      assert.equal(await jobCount(), before);
    });

    it('starts the work when the user agrees', async () => {
      const { mcp } = await connect({ answer: () => 'accept' });
      const before = await jobCount();
      const started = await mcp.callTool({ name: 'run_agent', arguments: run });
      assert.match(text(started), /^Started 1 job/);
      assert.equal(await jobCount(), before + 1);
    });
  });

  describe('a client that cannot ask the user', () => {
    it('refuses a first call with confirm: true as a field run_agent does not take, naming the fields it takes, and starts nothing', async () => {
      const { mcp } = await connect();
      const before = await jobCount();
      const answer = await mcp.callTool({ name: 'run_agent', arguments: { ...run, confirm: true } });
      assert.equal(answer.isError, true);
      assert.equal(text(answer), 'Input refused: unknown field `confirm`: run_agent takes only agent_id, version_id, inputs, metadata. Nothing was started.');
      assert.match(text(await mcp.callTool({ name: 'run_agent', arguments: run })), /^Not started yet: Run .*1 job[\s\S]*confirmation_id "[\w-]{20,}"/);
      assert.equal(await jobCount(), before);
    });

    it('runs the plan once with the confirmation id the first call answered, and refuses the id a second time', async () => {
      const { mcp } = await connect();
      const before = await jobCount();
      const id = idOf(await mcp.callTool({ name: 'run_agent', arguments: run }));
      assert.match(text(await mcp.callTool({ name: 'run_agent', arguments: { ...run, confirmation_id: id } })), /^Started 1 job/);
      const reused = await mcp.callTool({ name: 'run_agent', arguments: { ...run, confirmation_id: id } });
      assert.equal(reused.isError, true);
      assert.match(text(reused), /^Refused: this confirmation_id was used already .*ask the user again\. Nothing was started/);
      assert.equal(await jobCount(), before + 1, 'one job, once');
    });

    it('refuses a confirmation id with changed inputs, for another tool, made up, or expired', async () => {
      const { mcp } = await connect();
      const before = await jobCount();
      const changed = await mcp.callTool({ name: 'run_agent', arguments: { ...run, inputs: [...run.inputs, ...run.inputs], confirmation_id: idOf(await mcp.callTool({ name: 'run_agent', arguments: run })) } });
      assert.match(text(changed), /^Refused: the input differs from the call this confirmation_id was given for/);
      const other = await mcp.callTool({ name: 'cancel_jobs', arguments: { job_ids: ['x'], confirmation_id: idOf(await mcp.callTool({ name: 'run_agent', arguments: run })) } });
      assert.match(text(other), /^Refused: this confirmation_id was given for run_agent, not cancel_jobs/);
      assert.match(text(await mcp.callTool({ name: 'run_agent', arguments: { ...run, confirmation_id: 'guessed' } })), /^Refused: this confirmation_id is not one this session gave/);
      const id = idOf(await mcp.callTool({ name: 'run_agent', arguments: run }));
      now += 5 * 60_000 + 1;
      assert.match(text(await mcp.callTool({ name: 'run_agent', arguments: { ...run, confirmation_id: id } })), /^Refused: this confirmation_id expired/);
      assert.equal(await jobCount(), before, 'nothing was started');
    });

    it('refuses a confirmation id whose plan changed since the user was asked', async () => {
      const { mcp } = await connect({ answer: undefined });
      const started = await mcp.callTool({ name: 'run_agent', arguments: { ...run, confirmation_id: idOf(await mcp.callTool({ name: 'run_agent', arguments: run })) } });
      const jobIds = (started.structuredContent as { job_ids: string[] }).job_ids;
      const id = idOf(await mcp.callTool({ name: 'cancel_jobs', arguments: { job_ids: jobIds } }));
      for (let i = 0; i < 100 && !(await client.jobs.statuses(jobIds)).every((s) => typeof s.status === 'number' && isFinalStatus(s.status)); i++) await new Promise((r) => setTimeout(r, 100));
      const refused = await mcp.callTool({ name: 'cancel_jobs', arguments: { job_ids: jobIds, confirmation_id: id } });
      assert.match(text(refused), /^Refused: the plan changed since the user was asked; it is now: Cancel 0 jobs/);
    });
  });

  describe('the job budget of a session', () => {
    it('refuses jobs over the limit of a minute across calls, saying the limit and how to raise it, and allows them a minute later', async () => {
      const { mcp } = await connect({ answer: () => 'accept', limits: limits(2) });
      const two = { ...run, inputs: [...run.inputs, ...run.inputs] };
      assert.match(text(await mcp.callTool({ name: 'run_agent', arguments: two })), /^Started 2 jobs/);
      const before = await jobCount();
      const refused = await mcp.callTool({ name: 'run_agent', arguments: run });
      assert.equal(refused.isError, true);
      assert.match(text(refused), /^Refused: Run .* That is over the limit of 2 jobs a minute with the 2 started in the last minute \(raise it with --max-jobs, or wait a minute\)\. Nothing was started\.$/);
      assert.equal(await jobCount(), before);
      now += 61_000;
      assert.match(text(await mcp.callTool({ name: 'run_agent', arguments: run })), /^Started 1 job/);
    });

    it('refuses jobs over the limit of the session, whatever the minute', async () => {
      const { mcp } = await connect({ answer: () => 'accept', limits: limits(10, 2) });
      assert.match(text(await mcp.callTool({ name: 'run_agent', arguments: run })), /^Started 1 job/);
      now += 61_000;
      assert.match(text(await mcp.callTool({ name: 'run_agent', arguments: run })), /^Started 1 job/);
      now += 61_000;
      assert.match(text(await mcp.callTool({ name: 'run_agent', arguments: run })), /over the limit of 2 jobs a session with the 2 started in this one \(raise it with --max-session-jobs/);
    });

    it('lets calls sent together start no more than the limit between them', async () => {
      const { mcp } = await connect({ answer: () => 'accept', limits: limits(2) });
      const before = await jobCount();
      const answers = await Promise.all([1, 2, 3].map(() => mcp.callTool({ name: 'run_agent', arguments: run })));
      assert.equal(answers.filter((a) => /^Started 1 job/.test(text(a))).length, 2, answers.map(text).join('\n'));
      assert.equal(answers.filter((a) => /over the limit of 2 jobs a minute/.test(text(a))).length, 1);
      assert.equal(await jobCount(), before + 2);
    });
  });
});
