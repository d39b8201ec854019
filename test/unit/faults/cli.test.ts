import * as assert from 'node:assert/strict';
import { type ChildProcess, fork } from 'node:child_process';
import * as path from 'node:path';
import { parseCliArgs } from '../../../src/sandbox/cliArgs';
import { FaultAdminClient } from '../../../src/sandbox/faults/adminClient';
import { bearer, rawRequest } from './support';

const ROOT = path.resolve(__dirname, '../../..');

interface Ready {
  type: string;
  baseUrl: string;
  organizationId: string;
  token: string;
  adminSecret: string;
}

describe('sandbox fault mode from the command line', function () {
  this.timeout(60_000);

  it('reads --fault (repeatable) and --admin-secret', () => {
    const parsed = parseCliArgs(
      ['--fault', '{"path":"/v1/agents/","kind":"status","status":503}', '--fault={"path":"/v1/**","kind":"latency","ms":5}', '--admin-secret', 'sixteen-chars-at-least'],
      '/d',
    );
    assert.deepEqual(parsed, {
      help: false,
      options: {
        dataDir: '/d', users: [], adminSecret: 'sixteen-chars-at-least',
        faults: [{ path: '/v1/agents/', kind: 'status', status: 503 }, { path: '/v1/**', kind: 'latency', ms: 5 }],
      },
    });
  });

  it('explains a bad rule or secret on the command line', () => {
    assert.throws(() => parseCliArgs(['--fault', '{path:'], '/d'), /--fault takes a rule as JSON/);
    assert.throws(() => parseCliArgs(['--fault', '{"path":"/x/","kind":"status"}'], '/d'), /--fault\.status: required/);
    assert.throws(() => parseCliArgs(['--admin-secret', 'short'], '/d'), /--admin-secret takes at least 16 characters/);
  });

  it('starts with the given faults, reports its admin secret when ready, and switches faults at run time', async () => {
    const child: ChildProcess = fork(
      path.join(ROOT, 'src/sandbox/main.ts'),
      ['--port', '0', '--memory', '--seed', 'empty', '--fault', '{"path":"/v1/agents/","kind":"status","status":503}'],
      { cwd: ROOT, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
    );
    let stdout = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    try {
      const ready = await new Promise<Ready>((resolve, reject) => {
        child.once('message', (message) => resolve(message as Ready));
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      assert.equal(ready.type, 'ready');
      assert.ok(ready.adminSecret.length >= 32);
      const agents = () => rawRequest(ready.baseUrl, 'GET', `/v1/agents/?organization_id=${ready.organizationId}`, { headers: bearer(ready.token) });
      assert.equal((await agents()).status, 503);
      const admin = new FaultAdminClient(ready.baseUrl, ready.adminSecret);
      await admin.clear();
      assert.equal((await agents()).status, 200);
      await admin.set([{ path: '/v1/agents/', kind: 'html' }]);
      assert.match(String((await agents()).headers['content-type']), /html/);
      const line = JSON.parse(stdout.split('\n')[0]!);
      assert.equal(line.adminSecret, ready.adminSecret, 'the ready line carries the secret too');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
