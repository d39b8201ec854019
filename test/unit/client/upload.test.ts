import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import busboy from 'busboy';
import type { ServiceClient, ServiceError } from '../../../src/core/client';
import { datasetFile } from './helpers/fixtures';
import { clientFor, json, ORG, queryOf, rejectionOf, startFakeService, type FakeService } from './helpers/fakeService';

/** What a multipart upload carried, as the service would read it. */
interface ReceivedForm {
  fields: Record<string, string>;
  fileName?: string;
  fileType?: string;
  file?: Buffer;
}

function readForm(body: string | Buffer, contentType: string): Promise<ReceivedForm> {
  return new Promise((resolve, reject) => {
    const form: ReceivedForm = { fields: {} };
    const parser = busboy({ headers: { 'content-type': contentType } });
    parser.on('field', (name, value) => (form.fields[name] = value));
    parser.on('file', (_name, stream, info) => {
      const chunks: Buffer[] = [];
      form.fileName = info.filename;
      form.fileType = info.mimeType;
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => (form.file = Buffer.concat(chunks)));
    });
    parser.on('close', () => resolve(form));
    parser.on('error', reject);
    parser.end(body);
  });
}

describe('service client: uploading dataset files', () => {
  let dir: string;
  let service: FakeService;
  let client: ServiceClient;
  let bodies: Buffer[];

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-upload-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  beforeEach(async () => {
    bodies = [];
    service = await startFakeService();
    // The recorded body is text; keep the raw bytes too, to compare binary files exactly.
    service.handle((_req, res) => json(res, 201, datasetFile({ name: 'tickets.csv' })));
    client = clientFor(service);
  });
  afterEach(async () => {
    await client.close();
    await service.close();
  });

  function fileOf(name: string, bytes: Buffer): string {
    const filePath = path.join(dir, name);
    fs.writeFileSync(filePath, bytes);
    return filePath;
  }

  it('sends the file, dataset, organization and metadata as a form the service can read', async () => {
    const bytes = Buffer.from('id,text\n1,"Refund, please"\n2,Ünïcode ✓\n');
    const filePath = fileOf('tickets.csv', bytes);
    const uploaded = await client.datasets.upload({ filePath, datasetId: 'd1', metadata: { source: 'crm', batch: 3 } });
    assert.equal(uploaded.name, 'tickets.csv');
    const [req] = service.requests;
    assert.ok(req);
    assert.equal(req.method, 'POST');
    assert.equal(req.url, `/v1/datasets/files/upload/?organization_id=${ORG}`);
    assert.equal(Number(req.headers['content-length']), Buffer.byteLength(req.body));
    const form = await readForm(req.body, String(req.headers['content-type']));
    assert.deepEqual(form.fields, { dataset_id: 'd1', organization_id: ORG, metadata: '{"source":"crm","batch":3}' });
    assert.equal(form.fileName, 'tickets.csv');
    assert.equal(form.fileType, 'text/csv');
    assert.deepEqual(form.file, bytes);
  });

  it('sends binary files byte for byte under the name asked for', async () => {
    const bytes = randomBytes(300_000);
    const filePath = fileOf('blob.bin', bytes);
    const raw = await rawUploadServer((body) => bodies.push(body));
    const direct = clientFor(raw);
    try {
      await direct.datasets.upload({ filePath, fileName: 'report "final".bin' });
      const [body] = bodies;
      assert.ok(body);
      const form = await readForm(body, raw.contentTypes[0] ?? '');
      assert.equal(form.fileName, 'report %22final%22.bin');
      assert.ok(form.file?.equals(bytes), 'the file arrived unchanged');
    } finally {
      await direct.close();
      await raw.close();
    }
  });

  it('leaves organization_id out of the query and the form for the personal dataset', async () => {
    const filePath = fileOf('notes.txt', Buffer.from('hello'));
    await client.datasets.upload({ filePath, personal: true });
    const [req] = service.requests;
    assert.ok(req);
    assert.equal(queryOf(req).has('organization_id'), false);
    const form = await readForm(req.body, String(req.headers['content-type']));
    assert.deepEqual(form.fields, {});
  });

  it('reports progress in bytes, rising to the total', async () => {
    const filePath = fileOf('big.bin', randomBytes(3 * 1024 * 1024));
    const progress: Array<[number, number]> = [];
    await client.datasets.upload({ filePath, onProgress: (sent, total) => progress.push([sent, total]) });
    const total = Number(service.requests[0]?.headers['content-length']);
    assert.ok(progress.length > 3, `only ${progress.length} progress reports`);
    assert.ok(progress.every(([, t]) => t === total));
    assert.ok(progress.every(([sent], i) => i === 0 || sent >= (progress[i - 1]?.[0] ?? 0)), 'progress never goes back');
    assert.deepEqual(progress.at(-1), [total, total]);
  });

  it('cancels an upload at once and closes the file it was reading', async () => {
    const filePath = fileOf('stalled.bin', randomBytes(32 * 1024 * 1024));
    const stalled = await rawUploadServer(() => undefined, { stall: true });
    const direct = clientFor(stalled);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module object itself, so the client sees the patched function
    const promises = require('node:fs/promises') as typeof fs.promises;
    const original = promises.open;
    const opened: Array<{ closed: boolean }> = [];
    promises.open = (async (...args: Parameters<typeof fs.promises.open>) => {
      const handle = await original(...args);
      const seen = { closed: false };
      opened.push(seen);
      const close = handle.close.bind(handle);
      handle.close = async () => {
        seen.closed = true;
        return close();
      };
      return handle;
    });
    try {
      const controller = new AbortController();
      let sent = 0;
      const pending = rejectionOf(direct.datasets.upload({ filePath, onProgress: (n) => (sent = n) }, { signal: controller.signal }));
      while (sent < 1024 * 1024) await new Promise((resolve) => setTimeout(resolve, 5));
      controller.abort();
      const error = (await pending) as ServiceError;
      assert.equal(error.kind, 'aborted');
      assert.equal(error.outcomeUnknown, true);
      assert.equal(opened.length, 1);
      assert.equal(opened[0]?.closed, true, 'the file was closed');
      assert.ok(sent < 32 * 1024 * 1024);
    } finally {
      promises.open = original;
      await direct.close();
      await stalled.close();
    }
  });

  it('does not time out a slow upload while the service keeps taking bytes', async () => {
    // Generous per-chunk timeout (a busy machine can pause a chunk for a while), and an upload that lasts well past it.
    const filePath = fileOf('slow.bin', randomBytes(32 * 1024 * 1024));
    const slow = await rawUploadServer(() => undefined, { throttleMs: 5 });
    const direct = clientFor(slow, { timeoutMs: 1000 });
    try {
      await direct.datasets.upload({ filePath });
      // The server's own pauses alone add up to more than the timeout: the upload outlasted it.
      assert.ok(slow.pauses() * 5 > 1000, `the server paused ${slow.pauses()} times`);
      assert.equal(slow.received[0], Number(slow.lengths[0]));
    } finally {
      await direct.close();
      await slow.close();
    }
  });

  it('fails before sending anything when the file vanished, saying which file and why in a sentence', async () => {
    const error = (await rejectionOf(client.datasets.upload({ filePath: path.join(dir, 'missing.csv') }))) as Error;
    assert.equal(error.message, 'Could not read “missing.csv”: it is no longer there (moved or deleted after it was chosen).');
    assert.doesNotMatch(error.message, /ENOENT|stat/);
    assert.equal(service.requests.length, 0);
  });

  it('streams a 300 MB file without holding it in memory', async function () {
    this.timeout(120_000);
    const size = 300 * 1024 * 1024;
    const filePath = path.join(dir, 'sparse.bin');
    fs.writeFileSync(filePath, '');
    fs.truncateSync(filePath, size);
    const sink = await rawUploadServer(() => undefined);
    const direct = clientFor(sink, { timeoutMs: 60_000 });
    try {
      await direct.datasets.upload({ filePath: fileOf('warm.bin', Buffer.from('warm-up')) });
      const before = process.memoryUsage.rss();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
      try {
        await direct.datasets.upload({ filePath, datasetId: 'd1' });
      } finally {
        clearInterval(sampler);
      }
      peak = Math.max(peak, process.memoryUsage.rss());
      const growthMb = (peak - before) / (1024 * 1024);
      const length = Number(sink.lengths[1]);
      assert.equal(sink.received[1], length, 'the service received every byte announced');
      assert.ok(length > size && length < size + 2048, `content length ${length}`);
      console.log(`      RSS growth while uploading ${size / 1024 / 1024} MB: ${growthMb.toFixed(1)} MB`);
      assert.ok(growthMb < 64, `RSS grew by ${growthMb.toFixed(1)} MB`);
    } finally {
      await direct.close();
      await sink.close();
    }
  });
});

interface RawUploadServer {
  url: string;
  /** Bytes received per request. */
  received: number[];
  /** Content-Length per request. */
  lengths: string[];
  contentTypes: string[];
  /** How many times the server stopped reading for `throttleMs`. */
  pauses: () => number;
  close(): Promise<void>;
}

/** A service that counts (and optionally keeps) upload bytes as they stream in, never buffering them itself. */
async function rawUploadServer(
  keep: (body: Buffer) => void,
  options: { stall?: boolean; throttleMs?: number } = {},
): Promise<RawUploadServer> {
  const received: number[] = [];
  const lengths: string[] = [];
  const contentTypes: string[] = [];
  let pauses = 0;
  const server = http.createServer((req, res) => {
    const index = received.push(0) - 1;
    lengths.push(String(req.headers['content-length']));
    contentTypes.push(String(req.headers['content-type']));
    if (options.stall) {
      // Take the first bytes, then stop reading: the client's socket fills and the upload stalls.
      req.once('data', (chunk: Buffer) => {
        received[index] = (received[index] ?? 0) + chunk.length;
        req.pause();
      });
      return;
    }
    const chunks: Buffer[] = [];
    const small = Number(req.headers['content-length']) < 1024 * 1024;
    req.on('data', (chunk: Buffer) => {
      received[index] = (received[index] ?? 0) + chunk.length;
      if (small) chunks.push(chunk);
      if (options.throttleMs) {
        pauses++;
        req.pause();
        setTimeout(() => req.resume(), options.throttleMs);
      }
    });
    req.on('end', () => {
      if (small) keep(Buffer.concat(chunks));
      json(res, 201, datasetFile());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    lengths,
    contentTypes,
    pauses: () => pauses,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
