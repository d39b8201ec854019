/** The body of a run: JSON, or a streamed `multipart/form-data` form when an input is a file. */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { multipartForm, type FilePart, type StreamBody } from '../multipart';

/** An input sent as a file: the file is streamed from disk, never read whole. */
export interface FileInput {
  /** Absolute path of the file. */
  file: string;
  /** The name the service sees; defaults to the file's own name. */
  filename?: string;
  /** Defaults to the type known for the file name's extension. */
  contentType?: string;
}

/** What starts a job: one value per input definition `key` (JSON values or files), and metadata. */
export interface RunAgentBody {
  /** Text or other JSON values, or {@link FileInput}s. */
  inputs: Record<string, unknown>;
  /** Stored on the job as sent; null means none. */
  metadata?: Record<string, unknown> | null;
}

const FILE_INPUT_KEYS = new Set(['file', 'filename', 'contentType']);

/** True for `{ file: string, filename?: string, contentType?: string }` and nothing more. */
export function isFileInput(value: unknown): value is FileInput {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (typeof record.file !== 'string' || !Object.keys(record).every((key) => FILE_INPUT_KEYS.has(key))) return false;
  return (record.filename === undefined || typeof record.filename === 'string') && (record.contentType === undefined || typeof record.contentType === 'string');
}

/** Whether any input of a run is a file (the run then goes as multipart). */
export function hasFileInput(inputs: Record<string, unknown>): boolean {
  return Object.values(inputs).some(isFileInput);
}

/** A run's request body: `json` for text-only runs, `stream` when a file goes with it. */
export type RunRequestBody = { json: Record<string, unknown>; stream?: undefined } | { stream: StreamBody; json?: undefined };

/** Builds the body; a missing or unreadable file fails here, before anything is sent. */
export async function runRequestBody(body: RunAgentBody): Promise<RunRequestBody> {
  if (!hasFileInput(body.inputs)) {
    return { json: body.metadata === undefined ? { ...body.inputs } : { ...body.inputs, metadata: body.metadata } };
  }
  const fields: Array<[string, string]> = [];
  const files: FilePart[] = [];
  for (const [key, value] of Object.entries(body.inputs)) {
    if (value === undefined) continue;
    if (isFileInput(value)) files.push(await filePart(key, value));
    else fields.push([key, typeof value === 'string' ? value : JSON.stringify(value)]);
  }
  if (body.metadata !== undefined && body.metadata !== null) fields.push(['metadata', JSON.stringify(body.metadata)]);
  return { stream: multipartForm(fields, files) };
}

async function filePart(key: string, input: FileInput): Promise<FilePart> {
  if (!path.isAbsolute(input.file)) throw new Error(`The file of input "${key}" must be an absolute path: ${input.file}`);
  let size: number;
  try {
    const stat = await fs.stat(input.file);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    throw new Error(`The file of input "${key}" cannot be read: ${input.file}`);
  }
  return { field: key, filePath: input.file, fileName: input.filename ?? path.basename(input.file), size, contentType: input.contentType };
}

/** A batch goes as one JSON request: files cannot be part of it. */
export function assertNoFileInputs(inputs: ReadonlyArray<Record<string, unknown>>): void {
  const index = inputs.findIndex(hasFileInput);
  if (index >= 0) {
    const key = Object.entries(inputs[index]!).find(([, value]) => isFileInput(value))?.[0];
    throw new Error(`Input set ${index + 1} has a file in "${key}": a batch run takes text and JSON inputs only; run inputs with files one at a time.`);
  }
}
