/**
 * Reading the files a user chose for an upload. Between choosing and sending, a file may be moved,
 * deleted or locked: every such failure becomes one sentence naming the file and the reason, never a
 * raw `ENOENT: no such file or directory, stat '…'`.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { CandidateFile } from './uploadPlan';

const REASONS: Record<string, string> = {
  ENOENT: 'it is no longer there (moved or deleted after it was chosen)',
  ENOTDIR: 'it is no longer there (moved or deleted after it was chosen)',
  EACCES: 'this account is not allowed to read it',
  EPERM: 'this account is not allowed to read it',
  EISDIR: 'it is a folder (choose the files inside it)',
  EBUSY: 'another program holds it locked',
  ELOOP: 'it is a link that leads back to itself',
};

/** Why a file could not be read, as the end of a sentence ("… : <reason>"). */
export function localFileReason(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return REASONS[code] ?? `it could not be read (${code})`;
  return `it could not be read (${error instanceof Error ? error.message : String(error)})`;
}

/** A chosen file that could not be read: the message names it and says why. */
export class LocalFileError extends Error {
  readonly reason: string;

  constructor(readonly filePath: string, cause: unknown) {
    const reason = localFileReason(cause);
    super(`Could not read “${path.basename(filePath)}”: ${reason}.`, { cause });
    this.name = 'LocalFileError';
    this.reason = reason;
  }
}

/** The size and kind of a file on disk; a LocalFileError when it cannot be read. */
export async function statLocalFile(filePath: string): Promise<{ size: number; isFile: boolean }> {
  try {
    const stat = await fs.stat(filePath);
    return { size: stat.size, isFile: stat.isFile() };
  } catch (error) {
    throw new LocalFileError(filePath, error);
  }
}

/** A chosen file as the upload plan checks it; one that cannot be read carries the reason and is refused. */
export async function describeLocalFile(filePath: string): Promise<CandidateFile> {
  const name = path.basename(filePath);
  try {
    return { path: filePath, name, ...(await statLocalFile(filePath)) };
  } catch (error) {
    return { path: filePath, name, size: 0, isFile: false, unreadable: error instanceof LocalFileError ? error.reason : localFileReason(error) };
  }
}

/** The LocalFileError behind a failure (an upload's body stream fails with it), if there is one. */
export function localFileErrorIn(error: unknown): LocalFileError | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof LocalFileError) return e;
  }
  return undefined;
}
