import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { startSandbox } from '../../../src/sandbox/server';
import { type TestSandbox, eventually, fakeQueryEngine, startTestSandbox } from './helpers';

describe('sandbox storage, in a data folder and in memory', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-persist-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const open = (options: Parameters<typeof startTestSandbox>[0] = {}) => startTestSandbox({ dataDir, memory: false, jobStepMs: 20, ...options });

  it('keeps agents, jobs, policies, uploads and the demo token across a restart', async () => {
    const first = await open();
    const agent = (await first.call('POST', '/v1/agents/', { body: { name: 'Kept agent', engine_class_id: 'x' } })).body;
    const qa = (await first.call('GET', '/v1/agents/?search=support call')).body.results[0];
    const jobId = (await first.call('POST', `/v1/agents/run/${qa.id}/async/`, { body: { transcript: 'kept [ok]', language: 'en' } })).body;
    await eventually(async () => ((await first.call('GET', `/v1/agents/jobs/${jobId}/status/`)).body.status === 3 ? true : undefined));
    const data = new FormData();
    data.set('file', new Blob(['kept bytes']), 'kept.txt');
    const file = (await first.call('POST', '/v1/datasets/files/upload/', { rawBody: data, org: null })).body;
    const policy = (await first.call('GET', '/v1/policies/?search=social')).body.results[0];
    const version = (await first.call('POST', `/v1/policies/${policy.id}/versions/`, { body: { content: { instructions: 'kept' } } })).body;
    const token = first.token;
    await first.close();
    assert.ok(fs.existsSync(path.join(dataDir, 'sandbox.sqlite')));
    assert.deepEqual(fs.readdirSync(dataDir).filter((n) => n.endsWith('.tmp') || n === 'sandbox.lock'), []);

    const second = await open({ seed: 'empty' });
    try {
      assert.equal(second.token, token, 'the demo token is made once and kept');
      assert.equal((await second.call('GET', `/v1/agents/${agent.id}/`)).body.name, 'Kept agent');
      assert.equal((await second.call('GET', `/v1/agents/jobs/${jobId}/status/`)).body.status, 3);
      assert.ok((await second.call('GET', '/v1/agents/')).body.count >= 8, 'the demo seed is not applied again, nor replaced by the empty one');
      const files = (await second.call('GET', `/v1/datasets/${file.dataset.id}/files/`, { org: null })).body.results;
      assert.ok(files.some((f: any) => f.id === file.id && f.size === 10));
      const kept = (await second.call('GET', `/v1/policies/${policy.id}/`)).body;
      assert.equal(kept.current_version_id, version.id);
      assert.deepEqual((await second.call('GET', `/v1/policies/${policy.id}/versions/${version.id}/`)).body.content, { instructions: 'kept' });
    } finally {
      await second.close();
    }
  });

  it('writes the database file soon after a change, not only on close', async () => {
    const t = await open({ seed: 'empty' });
    try {
      const file = path.join(dataDir, 'sandbox.sqlite');
      const before = fs.statSync(file).mtimeMs;
      await t.call('POST', '/v1/agents/', { body: { name: 'Soon written', engine_class_id: 'x' } });
      await eventually(() => (fs.statSync(file).mtimeMs > before ? true : undefined), 4000, 'the debounced write');
      assert.ok(fs.readFileSync(file).includes(Buffer.from('Soon written')));
    } finally {
      await t.close();
    }
  });

  it('refuses a second sandbox on a data folder in use', async () => {
    const t = await open({ seed: 'empty' });
    try {
      await assert.rejects(startSandbox({ port: 0, dataDir, log: () => {} }), /already used by a sandbox|in use/);
    } finally {
      await t.close();
    }
  });

  it('removes debris of interrupted uploads and records of missing files when it starts', async () => {
    const totalFiles = async (t: TestSandbox) => {
      const lists = [(await t.call('GET', '/v1/datasets/')).body.results, (await t.call('GET', '/v1/datasets/', { org: null })).body.results];
      return lists.flat().reduce((sum: number, d: any) => sum + d.file_count, 0);
    };
    const first = await open({ seed: 'demo' });
    const before = await totalFiles(first);
    await first.close();
    const filesDir = path.join(dataDir, 'files');
    fs.writeFileSync(path.join(filesDir, '.part-left-over'), 'half');
    fs.writeFileSync(path.join(filesDir, 'orphan-without-record'), 'x');
    const stored = fs.readdirSync(filesDir).filter((n) => !n.startsWith('.part') && n !== 'orphan-without-record');
    fs.rmSync(path.join(filesDir, stored[0]!));
    const second = await open();
    try {
      assert.ok(!fs.existsSync(path.join(filesDir, '.part-left-over')));
      assert.ok(!fs.existsSync(path.join(filesDir, 'orphan-without-record')));
      assert.ok(second.logs.some((l) => /removed 2 stray file\(s\) and 1 record/.test(l)));
      assert.equal(await totalFiles(second), before - 1);
    } finally {
      await second.close();
    }
  });

  it('runs queries left unfinished by a stop when it starts again', async function () {
    this.timeout(15_000);
    const stuck = fakeQueryEngine(60_000);
    const first = await open({ seed: 'empty', queryEngineFactory: stuck.factory });
    const id = (await first.call('POST', '/v1/database/query/', { body: { query: 'SELECT slow' } })).body.worksheet_query_id;
    await eventually(async () => ((await first.call('GET', `/v1/database/query/${id}/result/`)).body.status === 'STARTED' ? true : undefined));
    await first.close();
    assert.ok(stuck.state.closed);
    const second: TestSandbox = await open({ queryEngineFactory: fakeQueryEngine(1).factory });
    try {
      const done = await eventually(async () => {
        const body = (await second.call('GET', `/v1/database/query/${id}/result/`)).body;
        return body.status === 'SUCCESS' ? body : undefined;
      });
      assert.equal(done.results[0].query, 'SELECT slow');
    } finally {
      await second.close();
    }
  });

  it('in memory, keeps uploads in a temporary folder it removes on close, and removes folders of killed sandboxes', async () => {
    const deadPid = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const abandoned = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-workbench-sandbox-'));
    fs.writeFileSync(path.join(abandoned, 'owner.pid'), deadPid);
    const ownerOf = (name: string) => {
      try {
        return fs.readFileSync(path.join(os.tmpdir(), name, 'owner.pid'), 'utf8');
      } catch {
        return undefined;
      }
    };
    // Other processes may start sandboxes meanwhile: only folders owned by this process count.
    const ours = (before: Set<string>) =>
      fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('agent-workbench-sandbox-') && !before.has(n) && ownerOf(n) === String(process.pid));
    const before = new Set(fs.readdirSync(os.tmpdir()));
    const t = await startTestSandbox({ seed: 'empty' });
    try {
      assert.ok(!fs.existsSync(abandoned), 'the folder of a process that is gone is removed');
      const created = ours(before);
      assert.equal(created.length, 1);
      const data = new FormData();
      data.set('file', new Blob(['in memory']), 'm.txt');
      assert.equal((await t.call('POST', '/v1/datasets/files/upload/', { rawBody: data, org: null })).status, 201);
      assert.equal(fs.readdirSync(path.join(os.tmpdir(), created[0]!, 'files')).length, 1);
      await t.close();
      assert.deepEqual(ours(before), []);
    } finally {
      await t.close();
    }
  });
});
