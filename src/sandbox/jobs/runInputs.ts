import * as fs from 'node:fs';
import type { InputDefinition } from '../agents/definitions';
import { isFileDataType } from '../agents/definitions';
import type { SandboxApp } from '../context';
import type { JsonObject } from '../http/body';
import { mediaType, nestsTooDeep, readJsonValue } from '../http/body';
import { HttpError } from '../http/errors';
import { fileNameProblem, receiveMultipart } from '../http/multipart';
import type { IncomingMessage } from 'node:http';
import type { JobInput } from './jobStore';
import type { JobStart } from './startJob';

/** A run request: the input values by key (text, or descriptions of sent files), metadata and organization. */
export interface RunRequest {
  values: Map<string, { value: string; fileName: string }[]>;
  metadata: unknown;
  organizationId: unknown;
  /** Messages about values of the wrong type, reported with the other problems. */
  errors: string[];
  /** The text of sent text files (small ones), by input key, for the engine to read. */
  texts: Map<string, string>;
}

/** Text files up to this size are read by the engine; larger ones and binary files count by their name. */
const MAX_TEXT_FILE_BYTES = 1024 * 1024;

/** A 400 answered as a bare JSON array of messages, as the live service does for run requests. */
function runError(messages: string[]): HttpError {
  return new HttpError(400, messages);
}

/**
 * Reads a run request: a JSON object with one property per input key plus `metadata`, or a
 * multipart form whose file parts are file inputs, streamed to disk. Sent files are not kept: the job
 * records each file's name and its SHA-256 (`sha256:...`) as the input value, and the engine reads the
 * text of small text files before they are removed.
 */
export async function readRunRequest(req: IncomingMessage, app: SandboxApp): Promise<RunRequest> {
  if (mediaType(req) === 'multipart/form-data') return readMultipartRun(req, app);
  const body = await readJsonValue(req, app.limits.jsonBytes);
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw runError(['The request body must be a JSON object with one property per input key.']);
  }
  return runRequestOf((body ?? {}) as JsonObject);
}

/** Reads the body of a JSON run: one object of inputs (one set, as {@link readRunRequest} does for an object). */
export function runRequestOf(object: JsonObject): RunRequest {
  const values = new Map<string, { value: string; fileName: string }[]>();
  const errors: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (key === 'metadata' || key === 'organization_id') continue;
    const list = Array.isArray(value) ? value : [value];
    if (list.length === 0 || !list.every((v): v is string => typeof v === 'string')) {
      errors.push(`Input "${key}" must be a string${Array.isArray(value) ? ' or a non-empty list of strings' : ''}.`);
    }
    values.set(key, list.filter((v): v is string => typeof v === 'string').map((v) => ({ value: v, fileName: '' })));
  }
  return { values, metadata: object.metadata, organizationId: object.organization_id, errors, texts: new Map() };
}

async function readMultipartRun(req: IncomingMessage, app: SandboxApp): Promise<RunRequest> {
  const form = await receiveMultipart(req, { tempDir: app.filesDir, maxFileBytes: app.limits.uploadBytes, maxFiles: 20, hash: true });
  const texts = new Map<string, string>();
  try {
    for (const file of form.files) {
      if (!isTextFile(file.mimeType, file.fileName) || file.size > MAX_TEXT_FILE_BYTES) continue;
      const before = texts.get(file.field);
      const text = fs.readFileSync(file.tempPath, 'utf8');
      texts.set(file.field, before === undefined ? text : `${before}\n${text}`);
    }
  } finally {
    for (const file of form.files) fs.rmSync(file.tempPath, { force: true });
  }
  const values = new Map<string, { value: string; fileName: string }[]>();
  for (const [key, value] of form.fields) {
    if (key !== 'metadata' && key !== 'organization_id') values.set(key, [{ value, fileName: '' }]);
  }
  const errors: string[] = [];
  for (const file of form.files) {
    const nameProblem = fileNameProblem(file);
    if (nameProblem) errors.push(`Input "${file.field}": ${nameProblem}`);
    const list = values.get(file.field) ?? [];
    list.push({ value: `sha256:${file.sha256 ?? ''}`, fileName: file.fileName });
    values.set(file.field, list);
  }
  // JSON text, read by validateRun like the JSON text a JSON body may carry.
  const metadata = form.fields.get('metadata');
  return { values, metadata, organizationId: form.fields.get('organization_id'), errors, texts };
}

function isTextFile(mimeType: string, fileName: string): boolean {
  return /^text\/|json|xml|markdown|csv/i.test(mimeType) || /\.(txt|md|json|csv|log|xml|ya?ml)$/i.test(fileName);
}

/**
 * Checks a run request against the current version's input definitions: every defined input
 * present and not blank, no unknown input, one value unless the definition accepts several files,
 * metadata a JSON object (or its JSON text; null is none). Answers the job inputs, or throws 400 with every message at once.
 */
export function validateRun(request: RunRequest, definitions: readonly InputDefinition[]): JobStart {
  const errors = [...request.errors];
  const inputs: JobInput[] = [];
  for (const definition of definitions) {
    const values = request.values.get(definition.key);
    if (request.errors.some((e) => e.startsWith(`Input "${definition.key}" `))) continue;
    if (!values || values.every((v) => v.value.trim() === '' && v.fileName === '')) {
      errors.push(`Missing required input: ${definition.key}`);
      continue;
    }
    if (values.length > 1 && !definition.accepts_multiple_files) errors.push(`Input "${definition.key}" takes a single value.`);
    for (const { value, fileName } of values) {
      const name = fileName || (isFileDataType(definition.data_type) ? value.split(/[\\/]/).pop() ?? '' : '');
      inputs.push({ key: definition.key, description: definition.description, data_type: definition.data_type, value, file_name: name });
    }
  }
  const known = new Set(definitions.map((d) => d.key));
  const unknown = [...request.values.keys()].filter((k) => !known.has(k));
  if (unknown.length > 0) {
    const expected = definitions.length > 0 ? definitions.map((d) => d.key).join(', ') : 'no inputs';
    errors.push(`Unknown input${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}; this agent takes ${expected}.`);
  }
  const metadata = metadataOf(request.metadata);
  if (metadata === undefined) errors.push('"metadata" must be a JSON object.');
  if (errors.length > 0) throw runError(errors);
  return { inputs, metadata: metadata!, texts: request.texts };
}

/** `metadata`: an object, the JSON text of one, or null/absent for none; undefined when it is none of these. */
function metadataOf(raw: unknown): Record<string, unknown> | undefined {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return undefined;
    }
    if (nestsTooDeep(value)) return undefined;
  }
  if (value === undefined || value === null) return {};
  return typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
