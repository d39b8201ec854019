import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WriteJournal } from './journal';

/**
 * Quiet time after the last change before the journal is folded into the snapshot. Every answered
 * write is already durable in the journal, so this only bounds how long a restart replays: it can
 * wait for a pause instead of exporting the whole database after every burst.
 */
const FOLD_DELAY_MS = 10_000;
/** A steady stream of changes still gets folded at least this often... */
const MAX_FOLD_DELAY_MS = 120_000;
/** ...or as soon as the journal holds this much. */
const MAX_JOURNAL_BYTES = 8 * 1024 * 1024;

/** What a snapshot writer needs of the database. */
export interface SnapshotSource {
  /** Records the last journal unit the snapshot holds (not journaled itself). */
  markFolded(sequence: number): void;
  export(): Uint8Array;
}

/**
 * Folds the journal into the database file: records the last journal unit it holds, writes the file
 * atomically (temporary file, fsync, rename: a crash leaves the old or the new file, never half of
 * one), then empties the journal. A crash between the rename and the emptying is harmless: a restart
 * skips the units the snapshot already holds.
 */
export class SnapshotWriter {
  private timer: NodeJS.Timeout | undefined;
  private dirtySince: number | undefined;

  constructor(
    private readonly file: string,
    private readonly journal: WriteJournal,
    private readonly source: SnapshotSource,
    private readonly log: (line: string) => void,
  ) {}

  /** Notes a change and schedules a fold. */
  changed(): void {
    const now = Date.now();
    this.dirtySince ??= now;
    if (this.timer) clearTimeout(this.timer);
    const wait = this.journal.size >= MAX_JOURNAL_BYTES ? 0 : Math.max(0, Math.min(FOLD_DELAY_MS, this.dirtySince + MAX_FOLD_DELAY_MS - now));
    this.timer = setTimeout(() => this.flushSafely(), wait);
    this.timer.unref();
  }

  /** Folds now when anything changed since the last fold. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.dirtySince === undefined) return;
    this.dirtySince = undefined;
    this.source.markFolded(this.journal.lastSequence);
    writeFileAtomically(this.file, this.source.export());
    this.journal.clear();
  }

  private flushSafely(): void {
    try {
      this.flush();
    } catch (error) {
      // Keep serving: the journal still holds every change; the next change (or close) tries again.
      this.dirtySince ??= Date.now();
      this.log(`sandbox: could not write ${this.file}: ${(error as Error).message}`);
    }
  }
}

/** Writes bytes to a file through a temporary sibling and a rename. */
export function writeFileAtomically(file: string, bytes: Uint8Array): void {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temp, 'w');
  try {
    fs.writeSync(fd, bytes);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
  syncDirectory(path.dirname(file));
}

/**
 * Moves a received file into place so that it survives a power loss once this resolves: its bytes are
 * flushed before the rename, and the directory (which holds the rename) after it. The flushes run on
 * libuv's threads, so a large upload's fsync never delays another organization's request.
 */
export async function moveFileDurablyAsync(from: string, to: string): Promise<void> {
  const handle = await fs.promises.open(from, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rename(from, to);
  let dir: fs.promises.FileHandle;
  try {
    dir = await fs.promises.open(path.dirname(to), 'r');
  } catch {
    return;
  }
  try {
    await dir.sync();
  } catch (error) {
    if (!UNFLUSHABLE_DIRECTORY.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    await dir.close();
  }
}

/** What fsync of a directory answers on systems that cannot flush one (nothing to flush there). */
const UNFLUSHABLE_DIRECTORY = new Set(['EPERM', 'EISDIR', 'EINVAL', 'EBADF']);

/** Flushes a directory's entries (renames, new files); a system that cannot open directories (Windows) has nothing to flush this way. */
function syncDirectory(dir: string): void {
  let fd: number;
  try {
    fd = fs.openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fs.fsyncSync(fd);
  } catch (error) {
    if (!UNFLUSHABLE_DIRECTORY.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    fs.closeSync(fd);
  }
}

const heldLocks = new Set<string>();

/**
 * Takes the data folder for this process: two sandboxes writing one database file would overwrite
 * each other's changes. A lock left by a process that is gone is taken over.
 */
export function lockDataDir(dir: string): () => void {
  const lockFile = path.join(path.resolve(dir), 'sandbox.lock');
  if (heldLocks.has(lockFile)) throw new Error(`The data folder ${dir} is already used by a sandbox in this process.`);
  const owner = readLockOwner(lockFile);
  if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
    throw new Error(`The data folder ${dir} is in use by another sandbox (process ${owner}).`);
  }
  fs.writeFileSync(lockFile, String(process.pid));
  heldLocks.add(lockFile);
  return () => {
    heldLocks.delete(lockFile);
    fs.rmSync(lockFile, { force: true });
  };
}

function readLockOwner(lockFile: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(lockFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** True when a process with this id exists (one we may not signal counts too). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
