import type { IncomingMessage } from 'node:http';
import { HttpError, tooLarge } from './errors';

/** A JSON request body that is an object (the only kind our write endpoints take). */
export type JsonObject = Record<string, unknown>;

/** Reads the whole body as text, refusing (413) as soon as it passes `limitBytes`. */
export async function readBodyText(req: IncomingMessage, limitBytes: number): Promise<string> {
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
  return Buffer.concat(chunks).toString('utf8');
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
    const got = Array.isArray(value) ? 'list' : value === null ? 'NoneType' : typeof value === 'string' ? 'str' : typeof value;
    throw new HttpError(400, { non_field_errors: [`Invalid data. Expected a dictionary, but got ${got}.`] });
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
  const text = await readBodyText(req, limitBytes);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, { detail: `JSON parse error - ${(error as Error).message}` });
  }
}
