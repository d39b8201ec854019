import * as assert from 'node:assert/strict';
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { parseCliArgs } from '../../../src/sandbox/cliArgs';

import { MAIN, ROOT, startCli, TSX_NODE } from './cliProcess';

describe('sandbox command line', function () {
  this.timeout(60_000);
  const running: ChildProcess[] = [];
  afterEach(() => {
    for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('prints exactly one JSON line when ready, serves requests, and exits 0 on SIGTERM', async () => {
    const started = await startCli(TSX_NODE[0], [...TSX_NODE.slice(1), MAIN, '--port', '0', '--memory', '--job-step-ms', '100']);
    running.push(started.child);
    const { baseUrl, organizationId, token } = started.ready;
    assert.match(baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    const answer = await fetch(`${baseUrl}/v1/agents/?organization_id=${organizationId}`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(answer.status, 200);
    started.child.kill('SIGTERM');
    assert.equal(await started.exited, 0);
    assert.equal(started.stdout().trim().split('\n').length, 1, 'nothing but the ready line on stdout');
  });

  it('sends a ready message over IPC when forked', async () => {
    const child = fork(path.join(ROOT, MAIN), ['--port', '0', '--memory'], { cwd: ROOT, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    running.push(child);
    const message: any = await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    assert.equal(message.type, 'ready');
    assert.match(message.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(message.token && message.organizationId);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.disconnect();
    assert.equal(await exited, 0, 'a parent that goes away stops the sandbox');
  });

  it('prints its usage with --help and refuses unknown options with exit code 2', () => {
    const help = spawnSync(TSX_NODE[0], [...TSX_NODE.slice(1), MAIN, '--help'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^Usage: npm run sandbox/);
    const bad = spawnSync(TSX_NODE[0], [...TSX_NODE.slice(1), MAIN, '--colour', 'blue'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.equal(bad.stderr, 'sandbox: unknown option --colour.\nSee npm run sandbox -- --help.\n');
  });

  it('builds with `node esbuild.mjs --sandbox-only` into a bundle that starts and runs queries', async () => {
    const build = spawnSync(process.execPath, ['esbuild.mjs', '--sandbox-only'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    const started = await startCli(process.execPath, ['dist/sandbox.js', '--port', '0', '--memory', '--seed', 'empty']);
    running.push(started.child);
    const { baseUrl, organizationId, token } = started.ready;
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const submitted: any = await (await fetch(`${baseUrl}/v1/database/query/?organization_id=${organizationId}`, { method: 'POST', headers, body: '{"query":"SELECT 1 AS one"}' })).json();
    let result: any;
    for (let i = 0; i < 100 && !['SUCCESS', 'FAILURE'].includes(result?.status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      result = await (await fetch(`${baseUrl}/v1/database/query/${submitted.worksheet_query_id}/result/?organization_id=${organizationId}`, { headers })).json();
    }
    assert.equal(result.status, 'SUCCESS', result.error);
    started.child.kill('SIGINT');
    assert.equal(await started.exited, 0);
  });
});

describe('sandbox command line arguments', () => {
  it('defaults to the .sandbox-data folder and reads every option', () => {
    assert.deepEqual(parseCliArgs([], '/x/.sandbox-data'), { help: false, options: { dataDir: '/x/.sandbox-data', users: [] } });
    const parsed = parseCliArgs(
      ['--port', '0', '--host=0.0.0.0', '--seed', 'large', '--user', 'tok12345:a,b', '--user', 'other:c', '--job-step-ms', '10', '--max-upload-bytes', '99', '--memory'],
      '/d',
    );
    assert.deepEqual(parsed, {
      help: false,
      options: {
        dataDir: '/d', port: 0, host: '0.0.0.0', seed: 'large', jobStepMs: 10, maxUploadBytes: 99, memory: true,
        users: [{ token: 'tok12345', organizationIds: ['a', 'b'] }, { token: 'other', organizationIds: ['c'] }],
      },
    });
    assert.deepEqual(parseCliArgs(['--data', 'here'], '/d'), { help: false, options: { dataDir: 'here', memory: false, users: [] } });
  });

  it('explains what is wrong with a bad argument', () => {
    assert.throws(() => parseCliArgs(['--port', 'x'], '/d'), /--port takes a whole number from 0 to 65535, not "x"/);
    assert.throws(() => parseCliArgs(['--port'], '/d'), /--port needs a value/);
    assert.throws(() => parseCliArgs(['--seed', 'huge'], '/d'), /--seed takes demo, empty, large/);
    assert.throws(() => parseCliArgs(['--user', 'no-orgs'], '/d'), /TOKEN:ORG_ID/);
  });
});
