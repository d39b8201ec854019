/**
 * Where a test set's comparisons are: `*.comparison.json` files beside it (`<base>.comparison.json`,
 * `<base>-2.comparison.json` from the editor, `<base>.trial.comparison.json` from a trial) whose record
 * names it. The newest is the one created last. The choice is pure (the editor reads files its own way);
 * `findNewestComparison` reads them with plain fs, inside a root.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isInsideFolder } from '../runs/workspacePath';
import { testSetBase } from '../trial/trialFiles';
import { parseComparison, type ComparisonRecord } from './comparisonRecord';

/** Comparison files are named so. */
export const COMPARISON_FILE = /\.comparison\.json$/i;
/** The most comparison files of a folder read, and the largest one read. */
const MAX_FILES = 200;
const MAX_BYTES = 64 * 1024 * 1024;

/** A comparison file read: its name (or path) and its record. */
export interface ComparisonFile {
  file: string;
  record: Pick<ComparisonRecord, 'testSet' | 'createdAt'>;
}

/** The newest of the comparisons read whose test set is `testSetName` (its record's `testSet`, beside it); ties go to the last name. */
export function newestComparisonOf<T extends ComparisonFile>(files: readonly T[], testSetName: string): T | undefined {
  let newest: T | undefined;
  for (const f of files) {
    if (path.posix.normalize(f.record.testSet.replaceAll('\\', '/')) !== testSetName) continue;
    if (!newest || f.record.createdAt > newest.record.createdAt || (f.record.createdAt === newest.record.createdAt && f.file > newest.file)) newest = f;
  }
  return newest;
}

/** What {@link findNewestComparison} found, and the comparison files beside the test set it could not read. */
export interface FoundComparison {
  /** The newest comparison of the test set (absolute path and record), or undefined when it has none. */
  newest?: { file: string; record: ComparisonRecord };
  /** Names of comparison files beside it named after the test set that could not be read (not a comparison, too large, a link). */
  unreadable: string[];
}

/**
 * The newest comparison of a test set among the comparison files beside it. `testSet` is absolute or
 * relative to `root`, and its folder must be inside `root` through real paths; links are never followed.
 * Throws one sentence when the test set is outside the root or its folder cannot be read.
 */
export async function findNewestComparison(root: string, testSet: string): Promise<FoundComparison> {
  const realRoot = await fs.realpath(root);
  const folder = await fs.realpath(path.dirname(path.resolve(root, testSet))).catch(() => undefined);
  if (!folder) throw new Error(`The folder of ${testSet} does not exist.`);
  if (!isInsideFolder(realRoot, folder)) throw new Error(`${testSet} is outside ${root}: comparisons are read only inside it.`);
  const names = (await fs.readdir(folder)).filter((n) => COMPARISON_FILE.test(n)).sort().slice(0, MAX_FILES);
  const base = testSetBase(path.basename(testSet));
  const read: { file: string; record: ComparisonRecord }[] = [];
  const unreadable: string[] = [];
  for (const name of names) {
    const file = path.join(folder, name);
    const record = await readComparisonFile(file);
    if (record) read.push({ file, record });
    else if (name.startsWith(base)) unreadable.push(name);
  }
  return { newest: newestComparisonOf(read, path.basename(testSet)), unreadable };
}

// A regular file (never a link), not too large, that is a comparison; else undefined.
async function readComparisonFile(file: string): Promise<ComparisonRecord | undefined> {
  const stat = await fs.lstat(file).catch(() => undefined);
  if (!stat?.isFile() || stat.size > MAX_BYTES) return undefined;
  try {
    return parseComparison(await fs.readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}
