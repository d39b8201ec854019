import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { type TestSandbox, eventually, startTestSandbox } from './helpers';

const BOUNDARY = '----sandbox-test-boundary';

/** Opens a raw connection and sends the start of a multipart upload that claims to be `totalBytes` long. */
function startRawUpload(t: TestSandbox, totalBytes: number, firstChunk: Buffer): net.Socket {
  const { port } = new URL(t.baseUrl);
  const socket = net.connect(Number(port), '127.0.0.1');
  socket.on('error', () => {});
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  socket.write(
    `POST /v1/datasets/files/upload/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${t.token}\r\n` +
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${head.length + totalBytes + 64}\r\n\r\n`,
  );
  socket.write(head);
  socket.write(firstChunk);
  return socket;
}

describe('sandbox uploads while they stream', () => {
  let t: TestSandbox;
  let dataDir: string;
  const files = () => fs.readdirSync(path.join(dataDir, 'files'));
  const fileCount = async () => (await t.call('GET', '/v1/datasets/', { org: null })).body.results[0].file_count;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-stream-'));
    t = await startTestSandbox({ dataDir, memory: false });
  });
  after(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes the bytes to disk as they arrive, and a cut upload leaves no file and no record', async () => {
    const rowsBefore = await fileCount();
    const chunk = Buffer.alloc(256 * 1024, 7);
    const socket = startRawUpload(t, 10 * 1024 * 1024, chunk);
    const partial = await eventually(() => {
      const part = files().find((n) => n.startsWith('.part-'));
      return part && fs.statSync(path.join(dataDir, 'files', part)).size > 0 ? part : undefined;
    }, 5000, 'the upload to reach the disk');
    assert.ok(!partial.includes('cut'), 'the stored name is made by the server');
    socket.destroy();
    await eventually(() => (files().some((n) => n.startsWith('.part-')) ? undefined : true), 5000, 'the partial file to go');
    assert.equal(await fileCount(), rowsBefore);
  });

  it('keeps serving other requests while an upload is in progress', async () => {
    const socket = startRawUpload(t, 1024 * 1024, Buffer.alloc(1024, 1));
    try {
      assert.equal((await t.call('GET', '/v1/agents/')).status, 200);
    } finally {
      socket.destroy();
    }
    await eventually(() => (files().some((n) => n.startsWith('.part-')) ? undefined : true), 5000, 'cleanup');
  });
});
