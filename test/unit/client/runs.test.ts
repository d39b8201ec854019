import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import busboy from 'busboy';
import { isFileInput, type ServiceClient, type ServiceError } from '../../../src/core/client';
import { clientFor, json, ORG, queryOf, rejectionOf, startFakeService, type FakeService } from './helpers/fakeService';

interface Form {
  fields: Record<string, string>;
  files: Record<string, { name: string; type: string; bytes: Buffer }>;
}

function readForm(body: string, contentType: string): Promise<Form> {
  return new Promise((resolve, reject) => {
    const form: Form = { fields: {}, files: {} };
    const parser = busboy({ headers: { 'content-type': contentType } });
    parser.on('field', (name, value) => (form.fields[name] = value));
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => (form.files[name] = { name: info.filename ?? '', type: info.mimeType, bytes: Buffer.concat(chunks) }));
    });
    parser.on('close', () => resolve(form));
    parser.on('error', reject);
    parser.end(Buffer.from(body));
  });
}

describe('service client: running agents', () => {
  let dir: string;
  let service: FakeService;
  let client: ServiceClient;

  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-run-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    service = await startFakeService((_req, res) => json(res, 200, 'job-1'));
    client = clientFor(service);
  });
  afterEach(async () => {
    await client.close();
    await service.close();
  });

  it('runs the current version with JSON inputs and metadata', async () => {
    const id = await client.agents.run('a1', { inputs: { transcript: 'Hello', limits: { max: 3 } }, metadata: { case: 'A' } });
    assert.equal(id, 'job-1');
    const [req] = service.requests;
    assert.equal(req?.url, `/v1/agents/run/a1/async/?organization_id=${ORG}`);
    assert.equal(req?.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(req?.body ?? ''), { transcript: 'Hello', limits: { max: 3 }, metadata: { case: 'A' } });
  });

  it('runs a chosen version at its own path', async () => {
    await client.agents.runVersion('a1', 'v 2', { inputs: { transcript: 'Hi' } });
    assert.equal(service.requests[0]?.url, `/v1/agents/run/a1/versions/v%202/async/?organization_id=${ORG}`);
  });

  it('sends file inputs as a streamed form with an exact length, other inputs as text parts', async () => {
    const file = path.join(dir, 'call.txt');
    fs.writeFileSync(file, 'Agent: hello\nCustomer: refund ✓\n');
    const pdf = path.join(dir, 'scan');
    fs.writeFileSync(pdf, '%PDF-1.4 scan');
    await client.agents.run('a1', {
      inputs: { transcript: { file }, scan: { file: pdf, filename: 'scan.pdf', contentType: 'application/pdf' }, channel: 'phone', limits: { max: 3 } },
      metadata: { case: 'A' },
    });
    const [req] = service.requests;
    assert.ok(req);
    assert.equal(Number(req.headers['content-length']), Buffer.byteLength(req.body));
    const form = await readForm(req.body, String(req.headers['content-type']));
    assert.deepEqual(form.fields, { channel: 'phone', limits: '{"max":3}', metadata: '{"case":"A"}' });
    assert.equal(form.files.transcript?.name, 'call.txt');
    assert.equal(form.files.transcript?.type, 'text/plain');
    assert.equal(form.files.transcript?.bytes.toString(), 'Agent: hello\nCustomer: refund ✓\n');
    assert.equal(form.files.scan?.name, 'scan.pdf');
    assert.equal(form.files.scan?.type, 'application/pdf');
    assert.equal(form.files.scan?.bytes.toString(), '%PDF-1.4 scan');
  });

  it('fails before sending anything when a file input is missing or not absolute', async () => {
    await assert.rejects(client.agents.run('a1', { inputs: { doc: { file: path.join(dir, 'nope.pdf') } } }), /The file of input "doc" cannot be read/);
    await assert.rejects(client.agents.run('a1', { inputs: { doc: { file: 'relative.pdf' } } }), /must be an absolute path/);
    assert.equal(service.requests.length, 0);
  });

  it('tells file inputs from JSON values', () => {
    assert.equal(isFileInput({ file: '/tmp/a.txt' }), true);
    assert.equal(isFileInput({ file: '/tmp/a.txt', filename: 'b.txt', contentType: 'text/plain' }), true);
    assert.equal(isFileInput({ file: '/tmp/a.txt', other: 1 }), false);
    assert.equal(isFileInput({ file: 3 }), false);
    assert.equal(isFileInput('/tmp/a.txt'), false);
    assert.equal(isFileInput(null), false);
    assert.equal(isFileInput([{ file: '/tmp/a.txt' }]), false);
  });

  it('starts a batch with one request and answers the ids in order', async () => {
    service.handle((_req, res) => json(res, 200, ['j1', 'j2', 'j3']));
    const ids = await client.agents.runMany('a1', [{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    assert.deepEqual(ids, ['j1', 'j2', 'j3']);
    assert.equal(service.requests.length, 1);
    assert.equal(service.requests[0]?.url, `/v1/agents/run/a1/async/many/?organization_id=${ORG}`);
    assert.deepEqual(JSON.parse(service.requests[0]?.body ?? ''), { inputs: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] });
  });

  it('refuses a batch with a file input before sending anything', async () => {
    const error = await rejectionOf(client.agents.runMany('a1', [{ text: 'a' }, { doc: { file: '/tmp/x.pdf' } }]));
    assert.match(String(error), /Input set 2 has a file in "doc"/);
    assert.equal(service.requests.length, 0);
  });

  it('runs synchronously and reads the outputs, nulls and extra fields included', async () => {
    service.handle((_req, res) => json(res, 200, [{ key: 'verdict', description: null, data_type: 'text/plain', value: 'Compliant', cost: null, extra: 1 }]));
    const outputs = await client.agents.runSync('a1', { inputs: { transcript: 'Hi' } });
    assert.equal(service.requests[0]?.url, `/v1/agents/run/a1/?organization_id=${ORG}`);
    assert.deepEqual(outputs, [{ key: 'verdict', description: null, data_type: 'text/plain', value: 'Compliant', cost: null, extra: 1 }]);
  });

  for (const [name, run] of [
    ['a batch run', (c: ServiceClient) => c.agents.runMany('a1', [{ text: 'a' }])],
    ['a run with a file', (c: ServiceClient) => c.agents.run('a1', { inputs: { doc: { file: path.join(dir, 'cut.txt') } } })],
    ['cancelling all jobs', (c: ServiceClient) => c.agents.cancelAllJobs('a1')],
    ['deleting a policy', (c: ServiceClient) => c.policies.delete('p1')],
  ] as const) {
    it(`never sends ${name} again when the answer is lost, and says its outcome is unknown`, async () => {
      fs.writeFileSync(path.join(dir, 'cut.txt'), 'text');
      service.handle((_req, _res, raw) => {
        raw.socket.destroy();
      });
      const error = (await rejectionOf(run(client))) as ServiceError;
      assert.equal(error.kind, 'network');
      assert.equal(error.outcomeUnknown, true);
      assert.match(error.message, /may or may not have been made/);
      assert.equal(service.requests.length, 1);
    });
  }

  it('cancels all jobs of an agent and reads how many were targeted', async () => {
    service.handle((_req, res) => json(res, 200, { task_id: null, targeted_count: 4, note: null, more: true }));
    const answer = await client.agents.cancelAllJobs('a1');
    assert.equal(service.requests[0]?.method, 'POST');
    assert.equal(service.requests[0]?.url, `/v1/agents/a1/jobs/cancel-all/?organization_id=${ORG}`);
    assert.deepEqual(answer, { task_id: null, targeted_count: 4, note: '', more: true });
  });

  it('reads engine types with open engine objects', async () => {
    const engine = { id: 'doc', engine_class_id: 'doc', name: 'Doc', description: null, input_schema: { type: 'object' }, default_engine_config: { model: 'm' }, beta: true };
    service.handle((_req, res) => json(res, 200, { engine_types: ['doc', 'other'], total_count: 2, engines: [engine, {}] }));
    const answer = await client.agents.engineTypes();
    assert.equal(service.requests[0]?.url, `/v1/agents/types/?organization_id=${ORG}`);
    assert.deepEqual(answer.engine_types, ['doc', 'other']);
    assert.deepEqual(answer.engines, [engine, {}]);
  });

  it('reads models, asking for a capability when given one', async () => {
    const model = { id: 'gpt', providers: ['x'], capabilities: ['text', 'image'], context_window: 8000, max_output_tokens: null, supports_json_schema: true, new_flag: 1 };
    service.handle((_req, res) => json(res, 200, { models: [model, { id: 'small' }], total_count: 2, tenant_scope: 'all' }));
    const answer = await client.agents.models({ capability: 'image' });
    assert.equal(queryOf(service.requests[0]!).get('capability'), 'image');
    assert.deepEqual(answer.models, [model, { id: 'small' }]);
    assert.equal(answer.tenant_scope, 'all');
    await client.agents.models();
    assert.equal(queryOf(service.requests[1]!).has('capability'), false);
  });

  it('says which run errors the service gave, in sentences, with the fields it named', async () => {
    const cases: Array<[number, unknown, string]> = [
      [400, ['Missing required input: transcript'], 'Missing required input: transcript.'],
      [400, { error: 'Agent has no current version' }, 'Agent has no current version.'],
      [403, { detail: 'Insufficient credits to start a new job' }, 'Insufficient credits to start a new job.'],
      [404, { detail: 'Not found.' }, 'Not found (404): it may have been deleted, or belong to another organization.'],
    ];
    for (const [status, body, message] of cases) {
      service.handle((_req, res) => json(res, status, body));
      const error = (await rejectionOf(client.agents.run('a1', { inputs: {} }))) as ServiceError;
      assert.equal(error.message, message);
      assert.equal(error.outcomeUnknown, false);
    }
    service.handle((_req, res) => json(res, 400, { inputs: ['This field is required.'] }));
    const error = (await rejectionOf(client.agents.runMany('a1', [{}]))) as ServiceError;
    assert.deepEqual(error.fieldErrors, { inputs: ['This field is required.'] });
    assert.equal(error.message, 'inputs: This field is required.');
  });
});
