import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MISSING_ID, type TestSandbox, eventually, startTestSandbox } from './helpers';

function form(fields: Record<string, string>, file?: { name: string; bytes: Uint8Array | string }): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  if (file) data.set('file', new Blob([file.bytes]), file.name);
  return data;
}

describe('sandbox datasets and uploads', () => {
  let t: TestSandbox;
  let dataDir: string;
  const filesDir = () => path.join(dataDir, 'files');
  const upload = (data: FormData, org: string | null = null, query = '') =>
    t.call('POST', `/v1/datasets/files/upload/${query}`, { rawBody: data, org });

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-datasets-'));
    t = await startTestSandbox({ dataDir, memory: false, maxUploadBytes: 64 * 1024 });
  });
  after(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists the organization datasets, or the personal dataset without organization_id', async () => {
    const org = (await t.call('GET', '/v1/datasets/?ordering=name')).body;
    assert.deepEqual(org.results.map((d: any) => d.name), ['Call transcripts – March', 'Sample invoices']);
    assert.equal(org.results[0].organization, t.orgId);
    assert.deepEqual(Object.keys(org.results[0].creator).sort(), ['display_name', 'email', 'first_name', 'id', 'last_name']);
    const personal = (await t.call('GET', '/v1/datasets/', { org: null })).body;
    assert.equal(personal.count, 1);
    assert.equal(personal.results[0].organization, null);
    assert.deepEqual((await t.call('GET', '/v1/datasets/?search=sofia')).body.results.map((d: any) => d.name), ['Sample invoices']);
    assert.deepEqual((await t.call('GET', '/v1/datasets/?search=INVOICES')).body.results.map((d: any) => d.name), ['Sample invoices']);
  });

  it('keeps the demo files as real files on disk and lists them per dataset', async () => {
    const invoices = (await t.call('GET', '/v1/datasets/?search=invoices')).body.results[0];
    const files = (await t.call('GET', `/v1/datasets/${invoices.id}/files/?ordering=name`)).body;
    assert.deepEqual(files.results.map((f: any) => f.name), ['INV-10234.pdf', 'labels.json', 'RCPT-88412.pdf'].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    assert.equal(files.results[0].dataset.id, invoices.id);
    const onDisk = fs.readdirSync(filesDir()).map((name) => fs.readFileSync(path.join(filesDir(), name)));
    assert.ok(onDisk.some((bytes) => bytes.subarray(0, 8).toString() === '%PDF-1.4' && bytes.toString('latin1').includes('INV-10234')));
    assert.equal((await t.call('GET', `/v1/datasets/${invoices.id}/files/?search=rcpt`)).body.count, 1);
  });

  it('stores an upload under a server-made name and answers 201 with the file', async () => {
    const before = new Set(fs.readdirSync(filesDir()));
    const answer = await upload(form({ metadata: '{"source":"test"}' }, { name: '../../etc/passwd', bytes: 'hello upload' }));
    assert.equal(answer.status, 201, answer.text);
    assert.equal(answer.body.name, 'passwd');
    assert.equal(answer.body.size, 12);
    assert.deepEqual(answer.body.metadata, { source: 'test' });
    assert.deepEqual(Object.keys(answer.body.creator).sort(), ['email', 'first_name', 'id', 'is_active', 'last_name']);
    assert.equal(answer.body.dataset.organization, null, 'without organization and dataset: the personal dataset');
    const added = fs.readdirSync(filesDir()).filter((name) => !before.has(name));
    assert.equal(added.length, 1);
    assert.match(added[0]!, /^[0-9a-f-]{36}$/);
    assert.equal(fs.readFileSync(path.join(filesDir(), added[0]!), 'utf8'), 'hello upload');
  });

  it('puts an upload into the dataset named by dataset_id, as a form field or a query parameter', async () => {
    const transcripts = (await t.call('GET', '/v1/datasets/?search=transcripts')).body.results[0];
    const viaField = await upload(form({ dataset_id: transcripts.id, organization_id: t.orgId }, { name: 'a.txt', bytes: 'a' }));
    assert.equal(viaField.body.dataset.id, transcripts.id);
    const viaQuery = await upload(form({}, { name: 'b.txt', bytes: 'b' }), t.orgId, `?dataset_id=${transcripts.id}`);
    assert.equal(viaQuery.body.dataset.id, transcripts.id);
    const listed = (await t.call('GET', `/v1/datasets/${transcripts.id}/files/?search=.txt`)).body.results.map((f: any) => f.name);
    assert.ok(listed.includes('a.txt') && listed.includes('b.txt'));
  });

  it('sends an upload with organization_id and no dataset_id to the organization\'s Uploads dataset', async () => {
    const answer = await upload(form({ organization_id: t.orgId }, { name: 'c.csv', bytes: 'x,y\n' }));
    assert.equal(answer.status, 201);
    assert.equal(answer.body.dataset.name, 'Uploads');
    assert.equal(answer.body.dataset.organization, t.orgId);
  });

  it('refuses uploads without a file, with an empty file, with a too long name, or not multipart', async () => {
    assert.deepEqual((await upload(form({ note: 'x' }))).body, { file: ['No file was submitted.'] });
    assert.deepEqual((await upload(form({}, { name: 'empty.txt', bytes: '' }))).body, { file: ['The submitted file is empty.'] });
    const longName = await upload(form({}, { name: `${'n'.repeat(1025)}.txt`, bytes: 'x' }));
    assert.deepEqual(longName.body, { file: ['Ensure this filename has at most 1024 characters (it has 1029).'] });
    assert.deepEqual((await upload(form({ metadata: '{nope' }, { name: 'm.txt', bytes: 'x' }))).body, { metadata: ['Value must be valid JSON.'] });
    assert.deepEqual((await upload(form({ dataset_id: 'abc' }, { name: 'd.txt', bytes: 'x' }))).body, { dataset_id: ['Must be a valid UUID.'] });
    assert.equal((await upload(form({ dataset_id: MISSING_ID }, { name: 'd.txt', bytes: 'x' }))).status, 404);
    const json = await t.call('POST', '/v1/datasets/files/upload/', { body: { file: 'x' } });
    assert.equal(json.status, 415);
    assert.equal(fs.readdirSync(filesDir()).filter((n) => n.startsWith('.part-')).length, 0);
  });

  it('answers 413 for a file over the upload limit and keeps nothing of it', async () => {
    const before = fs.readdirSync(filesDir()).sort();
    const answer = await upload(form({}, { name: 'big.bin', bytes: new Uint8Array(200 * 1024) }));
    assert.equal(answer.status, 413);
    assert.match(answer.body.detail, /65536 bytes/);
    await eventually(() => (fs.readdirSync(filesDir()).sort().join() === before.join() ? true : undefined), 2000, 'cleanup');
  });

  it('deletes a file with 204 and removes its bytes; a file of another dataset is 404', async () => {
    const made = (await upload(form({}, { name: 'gone.txt', bytes: 'bye' }))).body;
    const stored = fs.readdirSync(filesDir()).length;
    const deleted = await t.call('DELETE', `/v1/datasets/${made.dataset.id}/files/${made.id}/`, { org: null });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    assert.equal(fs.readdirSync(filesDir()).length, stored - 1);
    assert.equal((await t.call('DELETE', `/v1/datasets/${made.dataset.id}/files/${made.id}/`, { org: null })).status, 404);
    const invoices = (await t.call('GET', '/v1/datasets/?search=invoices')).body.results[0];
    const invoiceFile = (await t.call('GET', `/v1/datasets/${invoices.id}/files/`)).body.results[0];
    assert.equal((await t.call('DELETE', `/v1/datasets/${made.dataset.id}/files/${invoiceFile.id}/`, { org: null })).status, 404);
  });

  it('needs organization_id to reach an organization dataset, but always reaches the personal one', async () => {
    const invoices = (await t.call('GET', '/v1/datasets/?search=invoices')).body.results[0];
    assert.equal((await t.call('GET', `/v1/datasets/${invoices.id}/files/`, { org: null })).status, 404);
    const personal = (await t.call('GET', '/v1/datasets/', { org: null })).body.results[0];
    assert.equal((await t.call('GET', `/v1/datasets/${personal.id}/files/`)).status, 200);
  });
});
