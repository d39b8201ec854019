import type { IncomingMessage } from 'node:http';
import { HttpError, jsonTypeName, tooLarge } from './errors';

/** The JSON bodies read, by request: the sandbox's checking mode checks them against the contract. */
const received = new WeakMap<IncomingMessage, unknown>();

/** The JSON body a handler read from this request (undefined when none was read). */
export function receivedJson(req: IncomingMessage): unknown {
  return received.get(req);
}

/** A JSON request body that is an object (the only kind our write endpoints take). */
export type JsonObject = Record<string, unknown>;

/** Reads the whole body as text, refusing (413) as soon as it passes `limitBytes`. */
export async function readBodyText(req: IncomingMessage, limitBytes: number): Promise<string> {
  return (await readBodyBytes(req, limitBytes)).toString('utf8');
}

/** Reads the whole body, refusing (413) as soon as it passes `limitBytes`. */
async function readBodyBytes(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge(limitBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    // Stop buffering at once: a client streaming gigabytes must not fill our memory.
    if (size > limitBytes) throw tooLarge(limitBytes);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A JSON body as text; bytes that are not UTF-8 are refused as DRF's parser refuses them, never stored as U+FFFD. */
function utf8Text(bytes: Buffer): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    const at = firstInvalidByte(bytes);
    throw new HttpError(400, { detail: `JSON parse error - 'utf-8' codec can't decode byte 0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')} in position ${at}: invalid start byte` });
  }
}

/** Where decoding fails: the end of the longest prefix that decodes (an unfinished sequence at its end counts as fine), found by halving. */
function firstInvalidByte(bytes: Buffer): number {
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (decodes(bytes.subarray(0, mid))) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function decodes(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** The media type of the request without parameters, lower-cased; '' when absent. */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Parses a JSON body. An empty body is `{}` (so that a missing field gets "This field is required.");
 * malformed JSON and non-object JSON are 400 the way DRF words them; another media type is 415.
 */
export async function readJsonObject(req: IncomingMessage, limitBytes: number): Promise<JsonObject> {
  const value = await readJsonValue(req, limitBytes);
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, { non_field_errors: [`Invalid data. Expected a dictionary, but got ${jsonTypeName(value)}.`] });
  }
  return value as JsonObject;
}

/** Parses a JSON body of any shape; undefined when the body is empty. */
export async function readJsonValue(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  const type = mediaType(req);
  if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
    req.resume();
    throw new HttpError(415, { detail: `Unsupported media type "${type}" in request.` });
  }
  const text = utf8Text(await readBodyBytes(req, limitBytes));
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, { detail: `JSON parse error - ${(error as Error).message}` });
  }
  if (nestsTooDeep(value)) throw new HttpError(400, { detail: `JSON parse error - nested more than ${MAX_JSON_DEPTH} levels deep` });
  received.set(req, value);
  return value;
}

/** The deepest nesting of arrays and objects a JSON value may have: storing a deeper one would overflow the stack. */
export const MAX_JSON_DEPTH = 256;

/** True when arrays and objects nest deeper than {@link MAX_JSON_DEPTH}; counted without recursion, so any depth is safe to ask about. */
export function nestsTooDeep(value: unknown): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > MAX_JSON_DEPTH) return true;
    for (const inner of Object.values(item)) pending.push([inner, depth + 1]);
  }
  return false;
}
