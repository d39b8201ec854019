import * as assert from 'node:assert/strict';
import { type OrgCall, orgCall, ordinaryRound, prepareSlowPolicy, slowWork } from '../../../bench/benchmarks/noisyNeighbour';
import { OTHER_ORGANIZATION_ID, OTHER_TOKEN, type TestSandbox, startTestSandbox } from '../sandbox/helpers';

// The benchmark's noisy neighbour, checked for what holds on any machine: organization B's ordinary
// traffic goes on while organization A's slowest legal work is in flight. Its p99 figures are in the
// benchmark table (bench/benchmarks/noisyNeighbour.ts), never asserted here.
describe('sandbox under hostile input: a noisy neighbour', function () {
  this.timeout(180_000);
  let t: TestSandbox;
  let a: OrgCall;
  let b: OrgCall;
  before(async () => {
    t = await startTestSandbox();
    a = orgCall(t.baseUrl, t.token, t.orgId);
    b = orgCall(t.baseUrl, OTHER_TOKEN, OTHER_ORGANIZATION_ID);
    await prepareSlowPolicy(a);
    await ordinaryRound(b);
  });
  after(() => t.close());

  it('keeps answering organization B, round after round, while organization A’s slow work is in flight', async () => {
    let aDone = false;
    const work = slowWork(a, 300_000, 5_000_000).then(() => (aDone = true));
    let roundsDuringA = 0;
    while (!aDone) {
      const latencies = await ordinaryRound(b);
      assert.equal(latencies.length, 3);
      if (!aDone) roundsDuringA++;
    }
    await work;
    assert.ok(roundsDuringA >= 3, `only ${roundsDuringA} rounds of B finished while A's work ran`);
  });
});
