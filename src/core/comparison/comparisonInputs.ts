/**
 * What a comparison sends before it sends it: each target's input definitions checked against the
 * cases it still has to start (a target that cannot take them fails alone), and file inputs confined
 * to the workspace (a comparison file is something a user opens: it must not name any file on disk).
 */
import * as path from 'node:path';
import { isFileInput } from '../client/resources/runBody';
import { casesToStart, type ComparisonRecord } from './comparisonRecord';

/** The input keys a target's version takes. */
export interface TargetInputs {
  targetId: string;
  keys: readonly string[];
}

/**
 * Why each target cannot run the cases it has left (unknown inputs, missing inputs); targets not named
 * can go. Checked before anything starts, so one old version never stops the others mid-way.
 */
export function targetInputProblems(record: ComparisonRecord, targets: readonly TargetInputs[]): Map<string, string> {
  const problems = new Map<string, string>();
  const plan = casesToStart(record);
  for (const { targetId, keys } of targets) {
    const known = new Set(keys);
    const unknown = new Set<string>();
    const missing = new Set<string>();
    for (const index of plan.get(targetId) ?? []) {
      const inputs = record.cases[index]!.inputs;
      for (const key of Object.keys(inputs)) if (!known.has(key)) unknown.add(key);
      for (const key of keys) if (!Object.hasOwn(inputs, key)) missing.add(key);
    }
    const parts: string[] = [];
    if (unknown.size) parts.push(`it takes no input ${quoted(unknown)} (it takes ${keys.join(', ') || 'none'})`);
    if (missing.size) parts.push(`cases lack its input ${quoted(missing)}`);
    if (parts.length) problems.set(targetId, `${capital(parts.join('; '))}.`);
  }
  return problems;
}

/**
 * Why one case cannot run on a version taking these input keys (an input it does not take, one it
 * lacks or leaves blank), in words; undefined when it can. Checked before anything starts: the service
 * refuses a whole batch for one such case, and a trial leaves the case out instead.
 */
export function caseInputProblem(inputs: Readonly<Record<string, unknown>>, keys: readonly string[]): string | undefined {
  const known = new Set(keys);
  const unknown = new Set(Object.keys(inputs).filter((key) => !known.has(key)));
  const missing = new Set(keys.filter((key) => !Object.hasOwn(inputs, key) || blank(inputs[key])));
  const parts: string[] = [];
  if (unknown.size) parts.push(`takes no input ${quoted(unknown)} (it takes ${keys.join(', ') || 'none'})`);
  if (missing.size) parts.push(`needs the input ${quoted(missing)}, which the case ${[...missing].every((key) => Object.hasOwn(inputs, key)) ? 'leaves blank' : 'lacks'}`);
  return parts.length ? parts.join('; ') : undefined;
}

// An input left blank counts as missing (docs/service.md, What the extension's runs rely on).
function blank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

function quoted(keys: Set<string>): string {
  return [...keys].map((k) => `"${k}"`).join(', ');
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The absolute, real path of a file input, only when it lies inside a workspace folder once links are
 * followed. Absolute paths, `..` ways out and links pointing elsewhere are refused with a sentence.
 */
export async function confinedInputPath(workspaceFolders: readonly string[], inputPath: string, realpath: (p: string) => Promise<string>): Promise<string> {
  if (path.isAbsolute(inputPath) || path.win32.isAbsolute(inputPath)) {
    throw new Error(`The file input "${inputPath}" is an absolute path: a comparison only sends files of the workspace, named relative to its folder.`);
  }
  if (workspaceFolders.length === 0) throw new Error(`The file input "${inputPath}" needs a workspace folder to be found in: open the folder of the comparison.`);
  for (const folder of workspaceFolders) {
    let root: string;
    let real: string;
    try {
      root = await realpath(folder);
      real = await realpath(path.resolve(folder, inputPath));
    } catch {
      continue;
    }
    const relative = path.relative(root, real);
    if (relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)) return real;
  }
  throw new Error(`The file input "${inputPath}" is not a file inside a workspace folder: it is not sent.`);
}

/** The relative file paths the cases still to start would upload (what the user is asked to allow). */
export function filesToSend(record: ComparisonRecord): string[] {
  const files = new Set<string>();
  for (const indexes of casesToStart(record).values()) {
    for (const i of indexes) for (const value of Object.values(record.cases[i]!.inputs)) if (isFileInput(value)) files.add(value.file);
  }
  return [...files];
}

/** A case whose file input is never sent: the file as the case names it, and why in a few words. */
export interface RefusedInput {
  caseIndex: number;
  file: string;
  why: string;
  /** The whole sentence, kept in the comparison file. */
  reason: string;
}

/** The cases still to start whose file inputs would be refused (checked before the user is asked, so they are named as left out). */
export async function refusedInputs(record: ComparisonRecord, workspaceFolders: readonly string[], realpath: (p: string) => Promise<string>): Promise<RefusedInput[]> {
  const indexes = new Set([...casesToStart(record).values()].flat());
  const refused: RefusedInput[] = [];
  for (const caseIndex of [...indexes].sort((a, b) => a - b)) {
    for (const value of Object.values(record.cases[caseIndex]!.inputs)) {
      if (!isFileInput(value)) continue;
      try {
        await confinedInputPath(workspaceFolders, value.file, realpath);
      } catch (error) {
        const why = path.isAbsolute(value.file) || path.win32.isAbsolute(value.file) ? 'an absolute path' : workspaceFolders.length === 0 ? 'no workspace folder is open' : 'outside the workspace';
        refused.push({ caseIndex, file: value.file, why, reason: error instanceof Error ? error.message : String(error) });
        break;
      }
    }
  }
  return refused;
}

/** A case's inputs with every file input made the real path inside the workspace (or a refusal). */
export async function confineInputs(inputs: Readonly<Record<string, unknown>>, workspaceFolders: readonly string[], realpath: (p: string) => Promise<string>): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(inputs)) {
    const file = isFileInput(value) ? { ...value, file: await confinedInputPath(workspaceFolders, value.file, realpath) } : value;
    Object.defineProperty(out, key, { value: file, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
