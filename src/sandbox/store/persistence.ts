import * as fs from 'node:fs';
import * as path from 'node:path';

/** Quiet time after the last change before the database file is written. */
const WRITE_DELAY_MS = 1000;
/** A steady stream of changes (a running job, an upload burst) still gets written at least this often. */
const MAX_WRITE_DELAY_MS = 5000;

/**
 * Writes the exported database to its file atomically (temporary file, fsync, rename: a crash
 * leaves the old or the new file, never half of one), debounced after changes and once more on close.
 */
export class DatabaseFileWriter {
  private timer: NodeJS.Timeout | undefined;
  private dirtySince: number | undefined;

  constructor(
    private readonly file: string,
    private readonly exportBytes: () => Uint8Array,
    private readonly log: (line: string) => void,
  ) {}

  /** Notes a change and schedules a write. */
  changed(): void {
    const now = Date.now();
    this.dirtySince ??= now;
    if (this.timer) clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(WRITE_DELAY_MS, this.dirtySince + MAX_WRITE_DELAY_MS - now));
    this.timer = setTimeout(() => this.flushSafely(), wait);
    this.timer.unref();
  }

  /** Writes now when anything changed since the last write. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.dirtySince === undefined) return;
    this.dirtySince = undefined;
    writeFileAtomically(this.file, this.exportBytes());
  }

  private flushSafely(): void {
    try {
      this.flush();
    } catch (error) {
      // Keep serving; the next change (or close) tries again.
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
