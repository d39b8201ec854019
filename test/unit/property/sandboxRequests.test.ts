import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { OTHER_ORGANIZATION_ID, OTHER_TOKEN, type TestSandbox, fakeQueryEngine, startTestSandbox } from '../sandbox/helpers';
import { type IdPools, describeRequest, requestArb } from './requestArbs';
import { collectIds, isNoResultAnswer, send } from './sandboxRoutes';
import { runs } from './support';

/**
 * Random requests on every operation of the sandbox: random path ids (right kind, wrong kind, other
 * organization's, junk), query strings, bodies (near-valid, arbitrary, hostile) and media types. It
 * may refuse anything, but always with a 4xx and a JSON body: a 5xx would be a bug of ours.
 * (test/unit/sandbox/badInput.test.ts covers fixed junk lists; this covers the combinations.)
 */
describe('property: the sandbox answers any request with a success or a client error', function () {
  this.timeout(120_000);
  let t: TestSandbox;
  let pools: IdPools;
  let bugsBefore = 0;
  const bugs = () => t.logs.filter((line) => line.startsWith('sandbox: error'));

  before(async () => {
    t = await startTestSandbox({ queryEngineFactory: fakeQueryEngine(1).factory, jobStepMs: 20 });
    pools = { own: await collectIds(t.baseUrl, t.token, t.orgId), foreign: [await collectIds(t.baseUrl, OTHER_TOKEN, OTHER_ORGANIZATION_ID)] };
  });
  after(() => t.close());

  it('never answers 5xx, and always answers JSON, to random requests on every operation', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb(pools, t.token), async (request) => {
        const answer = await send(t.baseUrl, request);
        const what = describeRequest(request);
        if (isNoResultAnswer(request.method, request.target, answer)) return;
        assert.ok(answer.status >= 200 && answer.status < 500, `${what}\nanswered ${answer.status}: ${answer.text.slice(0, 300)}`);
        if (answer.status !== 204 && request.method !== 'HEAD') {
          assert.match(answer.contentType, /^application\/json/, what);
          assert.doesNotThrow(() => JSON.parse(answer.text), `${what}\nanswered non-JSON: ${answer.text.slice(0, 200)}`);
        }
        assert.deepEqual(bugs().slice(bugsBefore), [], `${what}\nmade the sandbox log an error`);
      }),
      runs('sandbox requests', 6000),
    );
  });

  it('still serves the demo data as before after all that', async () => {
    bugsBefore = bugs().length;
    const answer = await send(t.baseUrl, { method: 'GET', target: `/v1/agents/?organization_id=${t.orgId}`, headers: { Authorization: `Bearer ${t.token}` } });
    assert.equal(answer.status, 200);
    assert.ok(JSON.parse(answer.text).count > 0);
  });
});
