/**
 * Every file the command line and the tools write stays in the folder they may write in (the workspace,
 * the MCP server's `--root`, the command line's current folder or `--out`), and is written whole or not
 * at all. A file someone else put there must not turn a write into one elsewhere: the real path of the
 * nearest existing parent must be inside the folder's real path, and the file itself must not be a
 * link, dangling or not (any link is refused, even one pointing inside: simplest, and no file we write
 * is ever meant to be one). The text goes to a temporary file in the same folder, then is renamed over
 * the file, so a failure leaves the old content, and a link put there meanwhile is replaced, not followed.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isInsideFolder } from './runs/workspacePath';

/** A write refused by the folder's rules, said in one sentence naming the path relative to the folder. */
export class ConfinedWriteRefused extends Error {
  constructor(
    message: string,
    /** Why: the file is a link (or a link to nothing is on its way), is outside the folder (through a link or not), exists (`exclusive`), or is no file. */
    readonly reason: 'link' | 'outside' | 'exists' | 'not-a-file',
  ) {
    super(message);
    this.name = 'ConfinedWriteRefused';
  }
}

/** What `writeConfined` takes: the whole text, or its chunks (a source that fails leaves the file as it was). */
export type ConfinedWriteData = string | Uint8Array | AsyncIterable<string | Uint8Array>;

export interface ConfinedWriteOptions {
  /** Refuse when the file exists already (never replaces it, even in a race). */
  exclusive?: boolean;
}

/**
 * The real path `file` (absolute, or relative to `root`) will be written at, once checked: inside `root`
 * through real paths, not a link, not a folder. Throws `ConfinedWriteRefused`. Writes nothing; callers
 * check every file of a long run with it before the run starts anything.
 */
export async function confinedWriteTarget(root: string, file: string): Promise<string> {
  return (await checkedTarget(root, file)).target;
}

// The real path to write at, and the path as the user knows it (for sentences).
async function checkedTarget(root: string, file: string): Promise<{ target: string; shown: string }> {
  const folder = path.resolve(root);
  const target = path.resolve(folder, file);
  const realRoot = await realOfNearestExisting(folder, file);
  const shown = shownPath([folder, realRoot], target);
  const stat = await fs.lstat(target).catch(() => undefined);
  if (stat?.isSymbolicLink()) throw new ConfinedWriteRefused(`Refused to write ${shown}: it is a link, and files are never written through links.`, 'link');
  if (stat && !stat.isFile()) throw new ConfinedWriteRefused(`Refused to write ${shown}: it is not a file.`, 'not-a-file');
  const realParent = await realOfNearestExisting(path.dirname(target), shown);
  if (!isInsideFolder(realRoot, realParent)) {
    const throughLink = isInsideFolder(folder, path.dirname(target)) || isInsideFolder(realRoot, path.dirname(target));
    throw new ConfinedWriteRefused(`Refused to write ${shown}: ${throughLink ? `its folder leads out of ${folder} through a link` : `it is outside ${folder}`}.`, 'outside');
  }
  return { target: path.join(realParent, path.basename(target)), shown };
}

/**
 * Writes `data` to `file` (absolute, or relative to `root`) once `confinedWriteTarget` allows it,
 * creating the missing folders inside `root`: through a temporary file in the same folder renamed over
 * the file, the temporary file removed on failure. Answers the real path written.
 */
export async function writeConfined(root: string, file: string, data: ConfinedWriteData, options: ConfinedWriteOptions = {}): Promise<string> {
  const { target, shown } = await checkedTarget(root, file);
  const dir = path.dirname(target);
  await fs.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // `wx`: never opens something that is there already (a link included).
    await fs.writeFile(temp, data, { flag: 'wx' });
    if (options.exclusive) {
      // A hard link, unlike a rename, fails when the name is taken, so an existing file is never replaced.
      await fs.link(temp, target).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') throw new ConfinedWriteRefused(`Refused to write ${shown}: it exists already.`, 'exists');
        throw error;
      });
      await fs.rm(temp, { force: true });
    } else {
      await fs.rename(temp, target);
    }
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  return target;
}

// The real path of `at`, or of its nearest existing parent with the rest appended; a dangling link on the way is refused.
async function realOfNearestExisting(at: string, shown: string): Promise<string> {
  let rest = '';
  for (;;) {
    try {
      return path.join(await fs.realpath(at), rest);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const link = await fs.lstat(at).catch(() => undefined);
      if (link?.isSymbolicLink()) throw new ConfinedWriteRefused(`Refused to write ${shown}: ${path.basename(at)} on its way is a link to nothing.`, 'link');
      const parent = path.dirname(at);
      if (parent === at) return path.join(at, rest);
      rest = rest ? path.join(path.basename(at), rest) : path.basename(at);
      at = parent;
    }
  }
}

// The path as the user knows it: relative to the folder (as given, or its real path) when inside it, else as given.
function shownPath(folders: readonly string[], target: string): string {
  const inside = folders.find((folder) => folder !== target && isInsideFolder(folder, target));
  return inside ? path.relative(inside, target) : target;
}
