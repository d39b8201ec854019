// The shared code-server cache (~/.cache/agent-workbench-test/): two demos, or a demo and a test run,
// must not install into it at once, and an install that failed or stopped halfway is done again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { INSTALLED_MARKER, installOnce, withInstallLock } from '../../harness/index.mjs';

const quick = { pollMs: 5, sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) };

describe('the shared install of code-server', () => {
  let root: string;
  let dir: string;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'install-once-'));
    dir = path.join(root, 'tool-1.0');
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  /** A fake installer: writes a file or two, slowly, and counts its runs. */
  function fakeInstaller(steps: string[] = ['bin', 'lib']) {
    const runs: string[][] = [];
    return {
      runs,
      install: async (target: string) => {
        const seen = fs.existsSync(target) ? fs.readdirSync(target) : [];
        runs.push(seen);
        fs.mkdirSync(target, { recursive: true });
        for (const step of steps) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          fs.writeFileSync(path.join(target, step), step);
        }
      },
      verify: (target: string) => {
        for (const step of steps) if (!fs.existsSync(path.join(target, step))) throw new Error(`${step} is missing`);
        return 'tool 1.0';
      },
    };
  }

  it('is installed once when two processes ask for it at the same time; the second waits and says so', async () => {
    const installer = fakeInstaller();
    const warnings: string[] = [];
    const first = installOnce({ dir, what: 'the tool', ...installer, ...quick, pid: 1001, isAlive: () => true, warn: (line) => warnings.push(line) });
    const second = installOnce({ dir, what: 'the tool', ...installer, ...quick, pid: 1002, isAlive: () => true, warn: (line) => warnings.push(line) });
    const [a, b] = await Promise.all([first, second]);
    assert.equal(installer.runs.length, 1, 'one install');
    assert.deepEqual([a, b].sort(), [false, true]);
    assert.equal(fs.readFileSync(path.join(dir, INSTALLED_MARKER), 'utf8'), 'tool 1.0\n');
    assert.deepEqual(warnings, ['Waiting for another install of the tool (pid 1001)…']);
    assert.ok(!fs.existsSync(`${dir}.lock`), 'the lock is released');
  });

  it('installs again over an install that stopped halfway, and never uses it', async () => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'bin'), 'half');
    const installer = fakeInstaller();
    assert.equal(await installOnce({ dir, what: 'the tool', ...installer, ...quick }), true);
    assert.deepEqual(installer.runs, [[]], 'the partial files were removed first');
    assert.equal(fs.readFileSync(path.join(dir, 'bin'), 'utf8'), 'bin');
    assert.equal(await installOnce({ dir, what: 'the tool', ...installer, ...quick }), false, 'a complete install is used as it is');
  });

  it('marks nothing when the install fails or does not work, so the next run installs again', async () => {
    const failing = { install: () => Promise.reject(new Error('npm failed')), verify: () => 'tool 1.0' };
    await assert.rejects(installOnce({ dir, what: 'the tool', ...failing, ...quick }), /npm failed/);
    assert.ok(!fs.existsSync(path.join(dir, INSTALLED_MARKER)));
    const broken = fakeInstaller(['bin']);
    await assert.rejects(installOnce({ dir, what: 'the tool', install: broken.install, verify: () => { throw new Error('--version printed nothing'); }, ...quick }), /--version/);
    assert.ok(!fs.existsSync(path.join(dir, INSTALLED_MARKER)));
    const good = fakeInstaller();
    assert.equal(await installOnce({ dir, what: 'the tool', ...good, ...quick }), true);
    assert.ok(fs.existsSync(path.join(dir, INSTALLED_MARKER)));
    assert.ok(!fs.existsSync(`${dir}.lock`), 'a failed install released its lock too');
  });

  it('takes over the lock of a process that is gone, without waiting', async () => {
    fs.writeFileSync(`${dir}.lock`, '424242\n');
    const warnings: string[] = [];
    const ran = await withInstallLock(`${dir}.lock`, 'the tool', () => Promise.resolve('ran'), { ...quick, pid: 1001, isAlive: (pid) => pid !== 424242, warn: (line) => warnings.push(line) });
    assert.equal(ran, 'ran');
    assert.deepEqual(warnings, []);
    assert.ok(!fs.existsSync(`${dir}.lock`));
  });

  it('waits while a live process holds the lock, then goes on once it is released', async () => {
    fs.writeFileSync(`${dir}.lock`, '777\n');
    const warnings: string[] = [];
    let ran = false;
    const waiting = withInstallLock(`${dir}.lock`, 'the tool', () => Promise.resolve((ran = true)), { ...quick, pid: 1001, isAlive: () => true, warn: (line) => warnings.push(line) });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(ran, false, 'nothing runs while the other install holds the lock');
    fs.rmSync(`${dir}.lock`);
    await waiting;
    assert.equal(ran, true);
    assert.deepEqual(warnings, ['Waiting for another install of the tool (pid 777)…'], 'said once, however long it waits');
  });

  it('gives up with a sentence naming the holder when it waits too long', async () => {
    fs.writeFileSync(`${dir}.lock`, '777\n');
    await assert.rejects(withInstallLock(`${dir}.lock`, 'the tool', () => Promise.resolve(), { ...quick, timeoutMs: 20, pid: 1001, isAlive: () => true, warn: () => undefined }), /Another install of the tool \(pid 777\) did not finish/);
  });
});
