import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type TestSandbox, startTestSandbox } from '../sandbox/helpers';
import { bearer, rawRequest } from './support';

const BOUNDARY = 'hardening-boundary';

/** A one-file multipart body with the Content-Disposition parameter written exactly as given. */
function uploadBody(filenameParam: string): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; ${filenameParam}\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${BOUNDARY}--\r\n`;
}

/** The sandbox's own defences: where it listens, where uploads go, how big requests may be, how tokens are compared. */
describe('sandbox hardening', () => {
  let t: TestSandbox;
  let root: string;
  let dataDir: string;
  const upload = (filenameParam: string) =>
    rawRequest(t.baseUrl, 'POST', '/v1/datasets/files/upload/', {
      headers: { ...bearer(t.token), 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: uploadBody(filenameParam),
    });

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-hardening-'));
    dataDir = path.join(root, 'data');
    t = await startTestSandbox({ dataDir, memory: false, maxJsonBytes: 4096 });
  });
  after(async () => {
    await t.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 unless told otherwise, without a warning', () => {
    assert.match(t.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(t.logs.filter((line) => /WARNING/.test(line)), []);
  });

  it('stores uploads under names it makes itself, whatever path the client names, and nothing outside its folder', async () => {
    const before = new Set(fs.readdirSync(path.join(dataDir, 'files')));
    const cases: [string, string][] = [
      ['filename="../../escape.txt"', 'escape.txt'],
      ['filename="/etc/passwd"', 'passwd'],
      ['filename="C:\\\\Windows\\\\evil.txt"', 'evil.txt'],
      ['filename="..\\\\..\\\\back.txt"', 'back.txt'],
      ["filename*=UTF-8''..%2F..%2Fencoded.txt", 'encoded.txt'],
      ["filename*=UTF-8''%2Fabs%2Fencoded.txt", 'encoded.txt'],
      ["filename*=UTF-8''nul%00byte.txt", 'nulbyte.txt'],
      ["filename*=UTF-8''right%E2%80%AEtxt.exe", 'righttxt.exe'],
    ];
    for (const [param, shown] of cases) {
      const answer = await upload(param);
      assert.equal(answer.status, 201, `${param}: ${answer.body.toString()}`);
      assert.equal(JSON.parse(answer.body.toString()).name, shown, param);
    }
    const added = fs.readdirSync(path.join(dataDir, 'files')).filter((name) => !before.has(name));
    assert.equal(added.length, cases.length);
    for (const name of added) assert.match(name, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(fs.readdirSync(root), ['data'], 'nothing was written beside the data folder');
  });

  it('refuses file names that are only dots, or that break the form with a raw NUL or line break', async () => {
    for (const param of ['filename=".."', "filename*=UTF-8''..", 'filename="."', 'filename="a\u0000b.txt"', 'filename="two\r\nlines.txt"']) {
      const answer = await upload(param);
      assert.equal(answer.status, 400, param);
    }
    assert.deepEqual(fs.readdirSync(path.join(dataDir, 'files')).filter((n) => n.startsWith('.part-')), []);
  });

  it('refuses an upload or a run whose form ends inside the file, keeps nothing of it, and goes on serving', async () => {
    const cutForm = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="half.txt"\r\nContent-Type: text/plain\r\n\r\nhello wor`;
    const agent = (await t.call('GET', '/v1/agents/?search=invoice')).body.results[0];
    for (const target of ['/v1/datasets/files/upload/', `/v1/agents/run/${agent.id}/async/?organization_id=${t.orgId}`]) {
      const answer = await rawRequest(t.baseUrl, 'POST', target, {
        headers: { ...bearer(t.token), 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` }, body: cutForm,
      });
      assert.equal(answer.status, 400, target);
      assert.match(JSON.parse(answer.body.toString()).detail, /Unexpected end of form/);
    }
    assert.equal((await t.call('GET', '/v1/agents/')).status, 200);
    assert.deepEqual(fs.readdirSync(path.join(dataDir, 'files')).filter((n) => n.startsWith('.part-')), []);
  });

  it('answers 413 to a JSON body that grows past the limit while it streams, without a declared length', async () => {
    const answer = await rawRequest(t.baseUrl, 'POST', `/v1/policies/?organization_id=${t.orgId}`, {
      headers: { ...bearer(t.token), 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      body: JSON.stringify({ name: 'Too big', content: { instructions: 'x'.repeat(20_000) } }),
      chunkBytes: 1024,
    });
    assert.equal(answer.status, 413);
    assert.match(JSON.parse(answer.body.toString()).detail, /4096 bytes/);
    assert.equal(answer.headers.connection, 'close', 'the rest of the body is not waited for');
  });

  it('checks a bearer token against every known token in constant time, wherever the match is', async () => {
    // The module object itself (not an import's read-only view): the sandbox reads `timingSafeEqual` from it at each call.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: an import would be a read-only view
    const crypto = require('node:crypto') as { timingSafeEqual: typeof import('node:crypto').timingSafeEqual };
    const real = crypto.timingSafeEqual;
    const calls: number[] = [];
    crypto.timingSafeEqual = ((a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      calls.push(a.byteLength);
      return real(a, b);
    });
    const counts: number[] = [];
    try {
      for (const token of [t.token, 'other-org-user-token', 'both-orgs-user-token', 'no-such-token-at-all']) {
        calls.length = 0;
        await rawRequest(t.baseUrl, 'GET', `/v1/datasets/`, { headers: bearer(token) });
        counts.push(calls.length);
        assert.ok(calls.every((length) => length === 32), 'hashes of one length are compared, never the tokens themselves');
      }
    } finally {
      crypto.timingSafeEqual = real;
    }
    assert.ok(counts[0]! >= 3);
    assert.deepEqual(new Set(counts).size, 1, `the same number of comparisons for every token: ${counts.join(', ')}`);
  });
});
