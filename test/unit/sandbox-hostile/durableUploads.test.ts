import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { type TestSandbox, startTestSandbox } from '../sandbox/helpers';
import { csvForm } from './support';

/**
 * What reaches the disk, in order, while a request is answered: which paths were flushed (fsync of
 * a file or of a directory) and which were renamed. A power loss keeps only what was flushed.
 */
function traceDisk(): { events: string[]; restore(): void } {
  const events: string[] = [];
  const paths = new Map<number, string>();
  const real = { openSync: fs.openSync, fsyncSync: fs.fsyncSync, renameSync: fs.renameSync, closeSync: fs.closeSync };
  // The module object itself (an `import *` namespace is read-only): the sandbox's calls go through it.
  const mutable = createRequire(__filename)('node:fs') as Record<string, unknown>;
  mutable.openSync = (file: fs.PathLike, ...rest: unknown[]) => {
    const fd = (real.openSync as (...a: unknown[]) => number)(file, ...rest);
    paths.set(fd, String(file));
    return fd;
  };
  mutable.closeSync = (fd: number) => {
    paths.delete(fd);
    real.closeSync(fd);
  };
  mutable.fsyncSync = (fd: number) => {
    events.push(`fsync ${paths.get(fd) ?? `fd ${fd}`}`);
    real.fsyncSync(fd);
  };
  mutable.renameSync = (from: fs.PathLike, to: fs.PathLike) => {
    events.push(`rename ${String(from)} -> ${String(to)}`);
    real.renameSync(from, to);
  };
  // The same through fs.promises (the uploads flush on libuv's threads): open, FileHandle.sync, rename.
  const promises = (mutable.promises as Record<string, unknown>);
  const realPromises = { open: promises.open, rename: promises.rename };
  promises.open = async (file: fs.PathLike, ...rest: unknown[]) => {
    const handle = await (realPromises.open as (...a: unknown[]) => Promise<fs.promises.FileHandle>)(file, ...rest);
    const sync = handle.sync.bind(handle);
    handle.sync = async () => {
      events.push(`fsync ${String(file)}`);
      await sync();
    };
    return handle;
  };
  promises.rename = async (from: fs.PathLike, to: fs.PathLike) => {
    events.push(`rename ${String(from)} -> ${String(to)}`);
    await (realPromises.rename as (a: fs.PathLike, b: fs.PathLike) => Promise<void>)(from, to);
  };
  return {
    events,
    restore: () => {
      Object.assign(mutable, real);
      Object.assign(promises, realPromises);
    },
  };
}

/** Asserts that the upload renamed into a folder of the data folder was flushed before its rename, and the folder after it. */
function assertDurablyMoved(events: readonly string[], dataDir: string): void {
  const renameAt = events.findIndex((e) => e.startsWith('rename ') && path.dirname(path.dirname(e.split(' -> ')[1]!)) === dataDir);
  assert.ok(renameAt >= 0, `no file was renamed into a folder of ${dataDir}: ${events.join('; ')}`);
  const dir = path.dirname(events[renameAt]!.split(' -> ')[1]!);
  const from = events[renameAt]!.slice('rename '.length).split(' -> ')[0]!;
  assert.ok(events.slice(0, renameAt).includes(`fsync ${from}`), `the bytes were not flushed before the rename: ${events.join('; ')}`);
  assert.ok(events.slice(renameAt + 1).includes(`fsync ${dir}`), `the directory was not flushed after the rename: ${events.join('; ')}`);
}

describe('sandbox under hostile input: an acknowledged upload survives a power loss', function () {
  this.timeout(60_000);
  let t: TestSandbox;
  let dataDir: string;
  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-durable-'));
    t = await startTestSandbox({ dataDir, memory: false });
  });
  after(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('flushes a dataset file and its directory before answering 201', async () => {
    const form = new FormData();
    form.append('file', new Blob(['some bytes'], { type: 'text/plain' }), 'notes.txt');
    const trace = traceDisk();
    let answer;
    try {
      answer = await t.call('POST', '/v1/datasets/files/upload/', { rawBody: form, org: null });
    } finally {
      trace.restore();
    }
    assert.equal(answer.status, 201, answer.text);
    assertDurablyMoved(trace.events, dataDir);
  });

  it('flushes an uploaded table and its directory before answering 201', async () => {
    const trace = traceDisk();
    let answer;
    try {
      answer = await t.call('POST', '/v1/tables/upload/', { rawBody: csvForm('durable', 'a,b\n1,2\n') });
    } finally {
      trace.restore();
    }
    assert.equal(answer.status, 201, answer.text);
    assertDurablyMoved(trace.events, dataDir);
  });
});
