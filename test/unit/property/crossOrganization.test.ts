import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { OTHER_ORGANIZATION_ID, OTHER_TOKEN, type TestSandbox, eventually, fakeQueryEngine, startTestSandbox } from '../sandbox/helpers';
import { type IdPools, describeRequest, requestArb } from './requestArbs';
import { type OrgIds, collectIds, send } from './sandboxRoutes';
import { runs } from './support';

/**
 * Two organizations: A (the demo user) and B (a user of the other organization only). Random
 * operations by A, naming B's ids and B's organization wherever they fit, must never read, change
 * or delete anything of B: B's state stays exactly as it was, and nothing of B shows in A's answers.
 */
describe('property: no random request crosses organizations', function () {
  this.timeout(120_000);
  let t: TestSandbox;
  let pools: IdPools;
  let secrets: string[];
  let initial: string;
  let currentStateOfB: () => Promise<string>;

  /** GET as B, in B's organization (or in B's personal space with `org: null`). */
  async function asB(path: string, org: string | null = OTHER_ORGANIZATION_ID): Promise<any> {
    const target = org ? `${path}${path.includes('?') ? '&' : '?'}organization_id=${org}` : path;
    const answer = await send(t.baseUrl, { method: 'GET', target, headers: { Authorization: `Bearer ${OTHER_TOKEN}` } });
    assert.equal(answer.status, 200, `B could not read ${path}: ${answer.text}`);
    return JSON.parse(answer.text);
  }

  /** Everything B owns, as B sees it: every list, version, job, file and query result. */
  async function stateOfB(b: OrgIds, personal: { dataset: string }): Promise<string> {
    const agents = await asB('/v1/agents/?page_size=1000');
    const policies = await asB('/v1/policies/?page_size=1000');
    const datasets = await asB('/v1/datasets/?page_size=1000');
    const perAgent = await Promise.all(agents.results.map(async (a: any) => [await asB(`/v1/agents/${a.id}/versions/`), await asB(`/v1/agents/${a.id}/jobs/?page_size=1000`)]));
    const perPolicy = await Promise.all(policies.results.map((p: any) => asB(`/v1/policies/${p.id}/versions/?page_size=1000`)));
    const files = await Promise.all(datasets.results.map((d: any) => asB(`/v1/datasets/${d.id}/files/?page_size=1000`)));
    const personalFiles = await asB(`/v1/datasets/${personal.dataset}/files/`, null);
    const query = await asB(`/v1/database/query/${b.query}/result/`);
    return JSON.stringify({ agents, policies, datasets, perAgent, perPolicy, files, personalFiles, query });
  }

  before(async () => {
    t = await startTestSandbox({ queryEngineFactory: fakeQueryEngine(1).factory, jobStepMs: 3_600_000 });
    const a = await collectIds(t.baseUrl, t.token, t.orgId);
    const b = await collectIds(t.baseUrl, OTHER_TOKEN, OTHER_ORGANIZATION_ID);
    await eventually(async () => ((await asB(`/v1/database/query/${b.query}/result/`)).status === 'SUCCESS' ? true : undefined));
    const personal = await personalFileOfB();
    pools = { own: a, foreign: [b, { ...b, dataset: personal.dataset, file: personal.file }] };
    const names = ['Dispatch Call Reviewer', 'Dispatch Call Standard', 'Dispatch recordings index', 'globex-secret.txt'];
    secrets = [...new Set([...Object.values(b), personal.dataset, personal.file, ...names])].map((s) => s.toLowerCase());
    currentStateOfB = () => stateOfB(b, personal);
    initial = await currentStateOfB();
  });
  after(() => t.close());

  /** B's personal dataset with one uploaded file in it. */
  async function personalFileOfB(): Promise<{ dataset: string; file: string }> {
    const boundary = 'b-personal';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="globex-secret.txt"\r\n\r\nsecret\r\n--${boundary}--\r\n`;
    const answer = await send(t.baseUrl, {
      method: 'POST', target: '/v1/datasets/files/upload/', body: Buffer.from(body),
      headers: { Authorization: `Bearer ${OTHER_TOKEN}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    });
    const file = JSON.parse(answer.text);
    return { dataset: file.dataset.id, file: file.id };
  }

  it('shows A nothing of B, and leaves everything of B as it was, whatever A asks', async () => {
    let writes = 0;
    // A may store B's ids as text of its own (a name, metadata): once stored, A's answers may show them.
    const storedByA = new Set<string>();
    await fc.assert(
      fc.asyncProperty(requestArb(pools, t.token), async (request) => {
        const answer = await send(t.baseUrl, request);
        const sent = `${decodeSafe(request.target)} ${request.body?.toString() ?? ''}`.toLowerCase();
        const seen = answer.text.toLowerCase();
        const leaked = secrets.filter((secret) => seen.includes(secret) && !sent.includes(secret) && !storedByA.has(secret));
        if (request.method !== 'GET' && answer.status < 300) for (const secret of secrets) if (sent.includes(secret)) storedByA.add(secret);
        assert.deepEqual(leaked, [], `${describeRequest(request)}\nanswered ${answer.status} with B's ${leaked.join(', ')}: ${answer.text.slice(0, 300)}`);
        // After every fifth request that could write, B's whole state is read again (and once more at the end).
        if (request.method !== 'GET' && ++writes % 5 === 0) {
          assert.equal(await currentStateOfB(), initial, `B's state changed by now; the last request: ${describeRequest(request)}`);
        }
      }),
      runs('cross organization', 3000),
    );
    assert.equal(await currentStateOfB(), initial, 'B\'s state is exactly as it was');
  });
});

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
