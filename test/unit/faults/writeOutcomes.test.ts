import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type RequestEvent, ServiceClient } from '../../../src/core/client';
import { type TestSandbox, startTestSandbox } from '../sandbox/helpers';
import { failureOf } from './support';

/** Writes under faults: whether the write happened is the test's choice, and the store shows it. */
describe('sandbox fault mode: writes that fail before or after they happen', () => {
  let t: TestSandbox;
  let dataDir: string;
  let client: ServiceClient;
  let events: RequestEvent[];
  let policyId: string;
  const versionCount = async () => (await client.policies.listVersions(policyId, { page_size: 1 })).count;
  const filesDir = () => path.join(dataDir, 'files');

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-fault-writes-'));
    t = await startTestSandbox({ dataDir, memory: false });
    events = [];
    client = new ServiceClient({
      baseUrl: t.baseUrl, token: t.token, organizationId: t.orgId, onRequest: (event) => events.push(event), retry: { baseDelayMs: 5, maxDelayMs: 20 },
    });
    policyId = (await client.policies.list({ search: 'call quality' })).results[0]!.id;
  });
  beforeEach(() => {
    events = [];
  });
  afterEach(() => t.sandbox.clearFaults());
  after(async () => {
    await client.close();
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the store unchanged when a 502 answers instead of the write', async () => {
    const before = await versionCount();
    t.sandbox.setFaults([{ path: '/v1/policies/*/versions/', method: 'POST', kind: 'status', status: 502 }]);
    const error = await failureOf(client.policies.createVersion(policyId, { content: { instructions: 'never saved' } }));
    assert.equal(error.status, 502);
    t.sandbox.clearFaults();
    assert.equal(await versionCount(), before);
  });

  it('has the new version in the store when the 502 comes after the write, and the client says the outcome is unknown', async () => {
    const before = await versionCount();
    t.sandbox.setFaults([{ path: '/v1/policies/*/versions/', method: 'POST', kind: 'status', status: 502, after: true }]);
    const error = await failureOf(client.policies.createVersion(policyId, { version_name: 'saved behind a 502', content: { instructions: 'saved' } }));
    assert.equal(error.kind, 'http');
    assert.equal(error.outcomeUnknown, true);
    t.sandbox.clearFaults();
    assert.equal(await versionCount(), before + 1);
    const newest = (await client.policies.listVersions(policyId, { page_size: 1 })).results[0];
    assert.equal(newest?.version_name, 'saved behind a 502');
  });

  it('has the new record once, not twice, when the connection is cut after the write: the client does not send it again', async () => {
    const before = await versionCount();
    t.sandbox.setFaults([{ path: '/v1/policies/*/versions/', method: 'POST', kind: 'reset', after: true }]);
    const error = await failureOf(client.policies.createVersion(policyId, { content: { instructions: 'cut answer' } }));
    assert.equal(error.kind, 'network');
    assert.equal(error.outcomeUnknown, true);
    assert.equal(events.filter((e) => e.operation === 'createPolicyVersion').length, 1, 'one attempt only');
    assert.equal(t.sandbox.faultReport()[0]?.hits, 1);
    t.sandbox.clearFaults();
    assert.equal(await versionCount(), before + 1);
  });

  it('has no new record when the connection is cut before the write', async () => {
    const before = await versionCount();
    t.sandbox.setFaults([{ path: '/v1/policies/*/versions/', method: 'POST', kind: 'reset' }]);
    const error = await failureOf(client.policies.createVersion(policyId, { content: { instructions: 'never arrived' } }));
    assert.equal(error.kind, 'network');
    assert.equal(error.outcomeUnknown, true, 'the client cannot know the write did not happen');
    t.sandbox.clearFaults();
    assert.equal(await versionCount(), before);
  });

  it('leaves no file and no record when an upload is cut midway, though its bytes had reached the disk', async () => {
    const source = path.join(dataDir, 'upload-source.bin');
    fs.writeFileSync(source, Buffer.alloc(2 * 1024 * 1024, 0x5a));
    const storedBefore = fs.readdirSync(filesDir()).sort();
    const personal = (await client.datasets.list({ personal: true })).results[0]!;
    const filesBefore = (await client.datasets.listFiles(personal.id, { personal: true })).count;
    const seen = new Set<string>();
    const watcher = fs.watch(filesDir(), (_event, name) => name && seen.add(String(name)));
    t.sandbox.setFaults([{ path: '/v1/datasets/files/upload/', kind: 'reset', when: 'upload', bytes: 1024 * 1024 }]);
    try {
      const error = await failureOf(client.datasets.upload({ filePath: source, fileName: 'cut-midway.bin', personal: true }));
      assert.equal(error.kind, 'network');
      assert.equal(error.outcomeUnknown, true);
    } finally {
      t.sandbox.clearFaults();
    }
    // The sandbox removes the partial file when it learns of the cut; give it the moment that takes.
    for (let i = 0; i < 100 && fs.readdirSync(filesDir()).some((n) => n.startsWith('.part-')); i++) await new Promise((r) => setTimeout(r, 20));
    watcher.close();
    assert.ok([...seen].some((name) => name.startsWith('.part-')), 'the upload was being written to disk when it was cut');
    assert.deepEqual(fs.readdirSync(filesDir()).sort(), storedBefore, 'no file, whole or partial, is left');
    assert.equal((await client.datasets.listFiles(personal.id, { personal: true })).count, filesBefore, 'no record');
    assert.deepEqual(t.logs.filter((line) => line.startsWith('sandbox: error')), []);
  });

  it('stores the same upload once the fault is gone', async () => {
    const source = path.join(dataDir, 'upload-source.bin');
    const file = await client.datasets.upload({ filePath: source, fileName: 'whole.bin', personal: true });
    assert.equal(file.size, 2 * 1024 * 1024);
  });
});
