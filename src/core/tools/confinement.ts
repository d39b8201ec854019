/**
 * Paths a tool is given (a test set, a policy file, a comparison file) stay inside the folder the host
 * allows: the workspace in VS Code, `--root` for the MCP server. The same rule as run files (relative,
 * never climbing out), then the real path of the nearest existing parent must still be inside, so a
 * link cannot lead out; a dangling link is refused.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isInsideFolder, relativePathProblem } from '../runs/workspacePath';
import { ToolRefusal } from './toolTypes';

/** The absolute path of `value` (relative to `root`) once checked to stay inside `root`; throws a refusal naming the field. */
export async function confinedPath(root: string | undefined, value: string, field: string): Promise<string> {
  if (!root) throw new ToolRefusal(`\`${field}\`: no folder is open to read files from.`);
  const relative = path.isAbsolute(value) && isInsideFolder(root, path.resolve(value)) ? path.relative(root, value) : value;
  const problem = relativePathProblem(relative);
  if (problem) throw new ToolRefusal(`\`${field}\`: ${problem}.`);
  const realRoot = await fs.realpath(root);
  const target = path.resolve(realRoot, relative);
  const real = await realOfNearestExisting(target);
  if (!isInsideFolder(realRoot, real)) throw new ToolRefusal(`\`${field}\`: "${value}" leads out of the folder through a link.`);
  return real;
}

// The real path of the target, or of its nearest existing parent with the rest appended; a dangling link is refused.
async function realOfNearestExisting(target: string): Promise<string> {
  let rest = '';
  let at = target;
  for (;;) {
    try {
      return path.join(await fs.realpath(at), rest);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const link = await fs.lstat(at).catch(() => undefined);
      if (link?.isSymbolicLink()) throw new ToolRefusal(`"${path.basename(at)}" is a link to nothing.`);
      const parent = path.dirname(at);
      if (parent === at) return target;
      rest = rest ? path.join(path.basename(at), rest) : path.basename(at);
      at = parent;
    }
  }
}

/** Reads a confined text file, at most `maxBytes` (a model's file must not fill the memory). */
export async function readConfined(root: string | undefined, value: string, field: string, maxBytes = 20 * 1024 * 1024): Promise<{ path: string; text: string }> {
  const file = await confinedPath(root, value, field);
  const stat = await fs.stat(file).catch(() => undefined);
  if (!stat?.isFile()) throw new ToolRefusal(`\`${field}\`: no such file: ${value}.`);
  if (stat.size > maxBytes) throw new ToolRefusal(`\`${field}\`: ${value} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`);
  return { path: file, text: await fs.readFile(file, 'utf8') };
}
