/**
 * Paths named in shared files (run files, test sets): they may only name files of the workspace.
 * Relative paths start at the workspace folder and may not climb out of it; absolute paths are refused,
 * so a file someone else wrote can never point at, say, a key in the home folder.
 */
import * as path from 'node:path';

export type WorkspacePath = { ok: true; path: string } | { ok: false; reason: string };

/** A path from a shared file resolved in the workspace folder, or why it is refused. */
export function workspacePath(value: string, baseDir: string | undefined): WorkspacePath {
  const problem = relativePathProblem(value);
  if (problem) return { ok: false, reason: problem };
  if (!baseDir) return { ok: false, reason: `"${value}" is relative, but there is no workspace folder to find it in: open the folder that holds it` };
  return { ok: true, path: path.resolve(baseDir, value) };
}

/** Why a path from a shared file can name nothing in the workspace (absolute, or climbing out with `..`), or undefined. */
export function relativePathProblem(value: string): string | undefined {
  if (path.isAbsolute(value) || path.win32.isAbsolute(value) || /^[a-z]:/i.test(value)) {
    return `"${value}" is an absolute path: name files by their path relative to the workspace folder`;
  }
  if (value.includes('\0')) return 'the path holds a NUL character';
  // Stryker disable next-line StringLiteral: any absolute folder serves as the stand-in workspace.
  const root = path.resolve('/workspace');
  if (!isInsideFolder(root, path.resolve(root, value.replaceAll('\\', '/')))) return `"${value}" leads out of the workspace folder: only files of the workspace can be sent`;
  return undefined;
}

/** Whether `target` is `folder` or inside it (both absolute; no symlinks are followed here). */
export function isInsideFolder(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  // `..` or `../…` climbs out; a name that merely starts with two dots (`..notes.txt`) is inside.
  const climbs = relative === '..' || relative.startsWith(`..${path.sep}`);
  return !climbs && !path.isAbsolute(relative);
}
