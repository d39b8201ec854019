/**
 * One writer per comparison file: the window that runs a comparison holds a lock naming its process,
 * so a second window (or the old extension host of a reloaded one) never writes the same file. The
 * lock dies with its window: a lock whose process is gone is free.
 */

/** Who holds a lock: the extension host's process and a token of the session that took it. */
export interface LockOwner {
  pid: number;
  token: string;
  /** Machine name: a lock taken on another machine (a shared folder) is never judged by process ids. */
  host: string;
}

/** What a lock file says about taking the lock. */
export type LockVerdict = { kind: 'free' } | { kind: 'ours' } | { kind: 'held'; by: LockOwner };

/** Reads a lock file's text (undefined: no lock file) and says whether `self` may write. */
export function lockVerdict(text: string | undefined, self: LockOwner, isAlive: (pid: number) => boolean): LockVerdict {
  if (text === undefined) return { kind: 'free' };
  const owner = parseOwner(text);
  if (!owner) return { kind: 'free' };
  if (owner.token === self.token) return { kind: 'ours' };
  if (owner.host === self.host && !isAlive(owner.pid)) return { kind: 'free' };
  return { kind: 'held', by: owner };
}

/** The lock file's text for an owner. */
export function lockText(owner: LockOwner): string {
  return `${JSON.stringify(owner)}\n`;
}

/** Why a window may not write: one sentence for the view and the log. */
export function heldMessage(owner: LockOwner): string {
  return `another VS Code window (extension host process ${owner.pid}${owner.host ? ` on ${owner.host}` : ''}) is running this comparison; it is left to that window, and this one writes nothing.`;
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner> | null;
    if (value && typeof value.pid === 'number' && typeof value.token === 'string' && typeof value.host === 'string') return { pid: value.pid, token: value.token, host: value.host };
  } catch {
    // A torn or foreign file holds nothing.
  }
  return undefined;
}
