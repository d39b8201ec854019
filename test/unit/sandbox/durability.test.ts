import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readJournal, WriteJournal } from '../../../src/sandbox/store/journal';
import { MAIN, startCli, TSX_NODE, type Started } from './cliProcess';

/** One call to a running sandbox process, as the extension makes it. */
async function call(started: Started, method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> {
  const { baseUrl, organizationId, token } = started.ready;
  const answer = await fetch(`${baseUrl}${route}${route.includes('?') ? '&' : '?'}organization_id=${organizationId}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: answer.status, body: await answer.json().catch(() => undefined) };
}

describe('sandbox durability: an acknowledged write survives a crash', function () {
  this.timeout(90_000);
  let dataDir: string;
  const running: ChildProcess[] = [];
  const start = async (): Promise<Started> => {
    const started = await startCli(TSX_NODE[0], [...TSX_NODE.slice(1), MAIN, '--port', '0', '--data', dataDir, '--seed', 'demo', '--job-step-ms', '60000']);
    running.push(started.child);
    return started;
  };
  const crash = async (started: Started): Promise<void> => {
    started.child.kill('SIGKILL');
    await started.exited;
  };

  beforeEach(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-durable-'))));
  afterEach(() => {
    for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps a policy version and an agent answered 201 when the process is killed (SIGKILL) right after the answer', async () => {
    const first = await start();
    const policy = (await call(first, 'GET', '/v1/policies/?search=social')).body.results[0];
    const version = await call(first, 'POST', `/v1/policies/${policy.id}/versions/`, { content: { instructions: 'written just before the crash' }, version_name: 'crash test' });
    assert.equal(version.status, 201);
    const agent = await call(first, 'POST', '/v1/agents/', { name: 'Created just before the crash', engine_class_id: 'x' });
    assert.equal(agent.status, 201);
    await crash(first);

    const second = await start();
    const kept = await call(second, 'GET', `/v1/policies/${policy.id}/versions/${version.body.id}/`);
    assert.equal(kept.status, 200, 'the acknowledged policy version is still there');
    assert.deepEqual(kept.body.content, { instructions: 'written just before the crash' });
    assert.equal((await call(second, 'GET', `/v1/policies/${policy.id}/`)).body.current_version_id, version.body.id);
    assert.equal((await call(second, 'GET', `/v1/agents/${agent.body.id}/`)).body.name, 'Created just before the crash');
    await crash(second);

    const third = await start();
    assert.equal((await call(third, 'GET', `/v1/agents/${agent.body.id}/`)).status, 200, 'and still after a second crash (replayed writes are not lost or doubled)');
    assert.equal((await call(third, 'GET', '/v1/agents/?search=Created just before the crash')).body.count, 1);
  });
});

describe('sandbox write journal', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-journal-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads back every unit in order, with blobs and scripts, and drops a last line cut short by a crash', () => {
    const file = path.join(dir, 'sandbox.journal');
    const journal = new WriteJournal(file, 0);
    journal.append([['INSERT INTO t VALUES (?, ?)', [1, new Uint8Array([0, 255])]]]);
    journal.append([['CREATE INDEX i ON t (a)'], ['UPDATE t SET a = ?', [null]]]);
    journal.close();
    fs.appendFileSync(file, '{"n":3,"w":[["DELETE FRO');
    assert.deepEqual(readJournal(file), [
      { sequence: 1, entries: [['INSERT INTO t VALUES (?, ?)', [1, new Uint8Array([0, 255])]]] },
      { sequence: 2, entries: [['CREATE INDEX i ON t (a)'], ['UPDATE t SET a = ?', [null]]] },
    ]);
  });

  it('refuses a journal damaged before its last line rather than skipping acknowledged writes', () => {
    const file = path.join(dir, 'sandbox.journal');
    fs.writeFileSync(file, '{"n":1,"w":[]}\nnot json\n{"n":3,"w":[]}\n');
    assert.throws(() => readJournal(file), /damaged at line 2/);
  });
});
