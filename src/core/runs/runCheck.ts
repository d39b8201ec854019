/**
 * Checks a run file against the agent version it names and turns it into what the client sends. Bad
 * input never reaches the service: every problem comes back with its place in the text. Problems the
 * editor's JSON schema also shows are marked `schema: true`, so the editor does not underline them twice.
 */
import type { FileInput, InputDefinition } from '../client';
import { checkJson, fieldLocator, formatPath, type JsonProblem } from '../documents/jsonProblems';
import { inputSetsOf, RunFileSchema, type RunFile } from './runFile';
import { inputKind } from './runFileSchema';
import { workspacePath } from './workspacePath';

/** A problem of a run file; `warning` problems do not stop the run. */
export interface RunProblem extends JsonProblem {
  /** The JSON schema says it too (the editor already underlines it). */
  schema?: boolean;
  severity?: 'error' | 'warning';
}

/** What a file path in a run file names on disk; `outside` when, symlinks followed, it lies outside the workspace. */
export type FileKind = 'file' | 'folder' | 'missing' | 'outside';

/** A run ready to send: one input set, or a batch sent as one request. */
export interface RunPlan {
  agentId: string;
  versionId?: string;
  batch: boolean;
  /** Input values as the client takes them: text, JSON text, or {@link FileInput}s. */
  inputSets: Array<Record<string, unknown>>;
  metadata?: Record<string, unknown>;
}

export type RunCheck = { plan: RunPlan; problems: RunProblem[] } | { plan?: undefined; problems: RunProblem[] };

/** Parses a run file's structure; problems are placed in the text. */
export function parseRunFile(text: string): { file?: RunFile; problems: RunProblem[] } {
  const check = checkJson(text, RunFileSchema, { keepDocument: true });
  return check.ok ? { file: check.value, problems: [] } : { problems: check.problems.map((p) => ({ ...p, schema: true })) };
}

/** What checking inputs needs from the outside world. */
export interface RunCheckContext {
  /** The folder relative file paths start from (the workspace folder). */
  baseDir: string | undefined;
  /** What an absolute path names on disk, after symlinks are followed. */
  fileKind(absolutePath: string): Promise<FileKind>;
}

/** Checks the inputs of a parsed run file against the version's input definitions; a plan only when nothing blocks the run. */
export async function checkRun(text: string, file: RunFile, definitions: readonly InputDefinition[], ctx: RunCheckContext): Promise<RunCheck> {
  const { sets, batch } = inputSetsOf(file);
  const problems: RunProblem[] = [];
  // One parse for all the problems: placing each by parsing again made a large batch quadratic.
  const locate = fieldLocator(text);
  const at = (fieldPath: (string | number)[], message: string, extra: Partial<RunProblem> = {}): void => {
    problems.push({ ...locate(fieldPath, message), message: `${formatPath(fieldPath)}: ${message}`, ...extra });
  };
  const known = new Set(definitions.map((d) => d.key));
  const inputSets: Array<Record<string, unknown>> = [];
  for (const [index, set] of sets.entries()) {
    const base: (string | number)[] = batch ? ['inputs', index] : ['inputs'];
    const values: Record<string, unknown> = {};
    for (const definition of definitions) {
      const given = Object.hasOwn(set, definition.key) ? set[definition.key] : undefined;
      const value = await checkValue(given, definition, batch, ctx, (message, extra) => at([...base, definition.key], message, extra));
      // A key like `__proto__` is an input like any other: defined, never assigned through the prototype.
      if (value !== undefined) Object.defineProperty(values, definition.key, { value, enumerable: true, writable: true, configurable: true });
    }
    for (const key of Object.keys(set).filter((k) => !known.has(k))) {
      at([...base, key], `this version has no input "${key}"; it takes ${definitions.map((d) => d.key).join(', ') || 'no inputs'}`, { schema: true });
    }
    inputSets.push(values);
  }
  if (batch && file.metadata && Object.keys(file.metadata).length > 0) {
    at(['metadata'], 'not sent: the service ignores metadata on batch runs', { severity: 'warning' });
  }
  if (problems.some((p) => p.severity !== 'warning')) return { problems };
  const plan: RunPlan = { agentId: file.agent, batch, inputSets, ...(file.version ? { versionId: file.version } : {}), ...(file.metadata && !batch ? { metadata: file.metadata } : {}) };
  return { plan, problems };
}

type Report = (message: string, extra?: Partial<RunProblem>) => void;

async function checkValue(value: unknown, definition: InputDefinition, batch: boolean, ctx: RunCheckContext, report: Report): Promise<unknown> {
  const type = definition.data_type ?? 'text/plain';
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    report(`required input missing (${type}${definition.description ? `: ${definition.description}` : ''})`, { schema: value === undefined || value === '' });
    return undefined;
  }
  const kind = inputKind(definition);
  if (kind === 'text') {
    if (typeof value === 'string') return value;
    report(`must be text (${type}), not ${describe(value)}`, { schema: true });
    return undefined;
  }
  if (kind === 'json') {
    if (typeof value !== 'string') return JSON.stringify(value);
    try {
      JSON.parse(value);
      return value;
    } catch {
      report(`must be JSON (${type}): this text is not valid JSON; write the value as an object or array, or as valid JSON text`);
      return undefined;
    }
  }
  if (typeof value !== 'string') {
    report(`must be the path of a file (${type}), not ${describe(value)}`, { schema: true });
    return undefined;
  }
  if (batch) {
    report('a batch goes as one JSON request and cannot carry files: run input sets with files one at a time (inputs as one object)');
    return undefined;
  }
  const resolved = workspacePath(value, ctx.baseDir);
  if (!resolved.ok) {
    report(`${resolved.reason}; nothing is sent`);
    return undefined;
  }
  const kindOnDisk = await ctx.fileKind(resolved.path);
  if (kindOnDisk === 'missing') report(`file not found: ${value}`);
  else if (kindOnDisk === 'folder') report(`is a folder, not a file: ${value}`);
  else if (kindOnDisk === 'outside') report(`"${value}" is a link to a file outside the workspace: only files of the workspace can be sent; nothing is sent`);
  else return { file: resolved.path } satisfies FileInput;
  return undefined;
}

/** The file paths a run file names that stay in the workspace, resolved (for watching them and checking them). */
export function filePathsOf(file: RunFile, definitions: readonly InputDefinition[], baseDir: string | undefined): string[] {
  const fileKeys = definitions.filter((d) => inputKind(d) === 'file').map((d) => d.key);
  return inputSetsOf(file).sets.flatMap((set) =>
    fileKeys.map((key) => set[key]).flatMap((v) => (typeof v === 'string' && v.trim() ? [workspacePath(v, baseDir)].flatMap((p) => (p.ok ? [p.path] : [])) : [])),
  );
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
