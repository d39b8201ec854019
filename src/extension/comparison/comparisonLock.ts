import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { heldMessage, lockText, lockVerdict, type LockOwner } from '../../core/comparison/writerLock';

/** A lock taken on one comparison file (see `writerLock.ts`); `check` before each write, `release` when done. */
export interface ComparisonLock {
  /** Throws with the holder's name when another window took the file over since. */
  check(): Promise<void>;
  release(): Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, it is just not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockFileOf(storageDir: string, file: string): string {
  return path.join(storageDir, 'comparison-locks', `${createHash('sha256').update(file).digest('hex').slice(0, 32)}.lock`);
}

/** Who else runs this comparison file now (another live window), without taking anything; undefined when nobody does. */
export async function comparisonLockHolder(storageDir: string, file: string): Promise<LockOwner | undefined> {
  const text = await fs.readFile(lockFileOf(storageDir, file), 'utf8').catch(() => undefined);
  const verdict = lockVerdict(text, { pid: process.pid, token: '', host: os.hostname() }, isAlive);
  // A lock of this very process is a session of this window closing: it is no other window.
  return verdict.kind === 'held' && !(verdict.by.pid === process.pid && verdict.by.host === os.hostname()) ? verdict.by : undefined;
}

/** Takes the writer lock of a comparison file, kept in the extension's storage shared by every window; throws when another live window holds it. */
export async function takeComparisonLock(storageDir: string, file: string): Promise<ComparisonLock> {
  const lockFile = lockFileOf(storageDir, file);
  await fs.mkdir(path.dirname(lockFile), { recursive: true });
  const self: LockOwner = { pid: process.pid, token: randomUUID(), host: os.hostname() };
  const read = (): Promise<string | undefined> => fs.readFile(lockFile, 'utf8').catch(() => undefined);
  for (let attempt = 0; attempt < 3; attempt++) {
    const verdict = lockVerdict(await read(), self, isAlive);
    if (verdict.kind === 'held') throw new Error(`Not started: ${heldMessage(verdict.by)}`);
    if (verdict.kind === 'free') await fs.rm(lockFile, { force: true });
    try {
      // `wx`: of two windows taking a free lock at once, one creates the file and the other sees it.
      await fs.writeFile(lockFile, lockText(self), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt === 2) throw error;
    }
  }
  return {
    check: async () => {
      const verdict = lockVerdict(await read(), self, isAlive);
      if (verdict.kind === 'held') throw new Error(`Stopped: ${heldMessage(verdict.by)}`);
      if (verdict.kind === 'free') throw new Error('Stopped: this window no longer holds the comparison file (its lock was removed); nothing more is written.');
    },
    release: async () => {
      if (lockVerdict(await read(), self, isAlive).kind === 'ours') await fs.rm(lockFile, { force: true });
    },
  };
}
