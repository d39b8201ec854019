import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type RequestEvent, ServiceClient } from '../../../src/core/client';
import { DEMO_LOOP_AGENT_ID } from '../../../src/sandbox/seed/demoLoop';
import { type TestSandbox, startTestSandbox } from '../sandbox/helpers';
import { failureOf } from './support';

/** Runs under faults: a lost answer is never followed by a second run, and the jobs list shows what happened. */
describe('sandbox fault mode: runs whose answer is lost', () => {
  let t: TestSandbox;
  let client: ServiceClient;
  let events: RequestEvent[];
  let dir: string;
  const jobCount = async () => (await client.jobs.list(DEMO_LOOP_AGENT_ID, { page_size: 1 })).count;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-fault-runs-'));
    t = await startTestSandbox({ jobStepMs: 60_000 });
    client = new ServiceClient({ baseUrl: t.baseUrl, token: t.token, organizationId: t.orgId, onRequest: (event) => events.push(event) });
  });
  beforeEach(() => {
    events = [];
  });
  afterEach(() => t.sandbox.clearFaults());
  after(async () => {
    await client.close();
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts a batch once when the connection is cut after it started, and says the outcome is unknown', async () => {
    const before = await jobCount();
    t.sandbox.setFaults([{ path: '/v1/agents/run/*/async/many/', method: 'POST', kind: 'reset', after: true }]);
    const inputs = Array.from({ length: 20 }, (_, i) => ({ transcript: `Agent: cut batch ${i}`, language: 'en' }));
    const error = await failureOf(client.agents.runMany(DEMO_LOOP_AGENT_ID, inputs));
    assert.equal(error.outcomeUnknown, true);
    assert.equal(events.filter((e) => e.operation === 'runAgentMany').length, 1, 'one attempt only');
    t.sandbox.clearFaults();
    assert.equal(await jobCount(), before + 20);
  });

  it('starts no job when a run with a file is cut while the file streams', async () => {
    const file = path.join(dir, 'call.txt');
    fs.writeFileSync(file, 'Agent: hello\n'.repeat(200_000));
    const before = await jobCount();
    t.sandbox.setFaults([{ path: '/v1/agents/run/*/async/', kind: 'reset', when: 'upload', bytes: 512 * 1024 }]);
    const error = await failureOf(client.agents.run(DEMO_LOOP_AGENT_ID, { inputs: { transcript: { file }, language: 'en' } }));
    assert.equal(error.kind, 'network');
    assert.equal(error.outcomeUnknown, true);
    assert.equal(events.filter((e) => e.operation === 'runAgent').length, 1, 'one attempt only');
    t.sandbox.clearFaults();
    assert.equal(await jobCount(), before);
    assert.deepEqual(t.logs.filter((line) => line.startsWith('sandbox: error')), []);
  });

  it('can answer a run as the live service does when credits run out, and the client says so in one sentence', async () => {
    t.sandbox.setFaults([{ path: '/v1/agents/run/*/async/', method: 'POST', kind: 'status', status: 403, body: { detail: 'Insufficient credits to start a new job' } }]);
    const error = await failureOf(client.agents.run(DEMO_LOOP_AGENT_ID, { inputs: { transcript: 'x', language: 'en' } }));
    assert.equal(error.status, 403);
    assert.equal(error.outcomeUnknown, false);
    assert.equal(error.message, 'Insufficient credits to start a new job.');
  });
});
