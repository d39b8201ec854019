/**
 * Reading the error answers of a Django REST framework service (docs/service.md, "Errors"):
 * field maps, `non_field_errors`, `{detail}`, `{error}`, bare arrays, and HTML pages from a proxy.
 */

/** What an error body says, split the way forms show it. */
export interface ErrorDetails {
  fieldErrors: Record<string, string[]>;
  nonFieldErrors: string[];
  /** The parsed JSON body, when it was JSON. */
  body?: unknown;
}

const MAX_MESSAGE = 400;
/** How deep an error body is read: real ones are a few levels; a hostile one must not exhaust the stack. */
const MAX_DEPTH = 32;
/** How many messages are kept: a hostile body must not make a huge error. */
const MAX_MESSAGES = 200;

/** Splits an error body into field and non-field messages; anything that is not JSON says nothing. */
export function readErrorBody(text: string): ErrorDetails {
  const trimmed = text.trim();
  if (!trimmed || (trimmed[0] !== '{' && trimmed[0] !== '[' && trimmed[0] !== '"')) return { fieldErrors: {}, nonFieldErrors: [] };
  let body: unknown;
  try {
    body = JSON.parse(trimmed);
  } catch {
    return { fieldErrors: {}, nonFieldErrors: [] };
  }
  // A null-prototype map while reading: field names such as `toString` or `__proto__` are plain keys here.
  const details: ErrorDetails = { fieldErrors: Object.create(null) as Record<string, string[]>, nonFieldErrors: [] };
  details.body = body;
  try {
    if (typeof body === 'string') details.nonFieldErrors.push(body);
    else if (Array.isArray(body)) details.nonFieldErrors.push(...messagesOf(body));
    // What is left is an object: the text started with `{`.
    else readObject(body as Record<string, unknown>, details);
  } catch {
    // An answer that cannot be read as a DRF error still has its status: the message comes from that.
    return { fieldErrors: {}, nonFieldErrors: [], body };
  }
  details.nonFieldErrors.splice(MAX_MESSAGES);
  // Handed out as a plain object (own properties only, so `toString` or `__proto__` stay plain keys).
  return { ...details, fieldErrors: Object.fromEntries(Object.entries(details.fieldErrors)) };
}

function readObject(body: Record<string, unknown>, details: ErrorDetails): void {
  // `{detail}` and `{error}` are whole-request answers; their other keys (`code`, `dependent_agents`) are extras, not fields.
  if (body.detail !== undefined || typeof body.error === 'string') {
    details.nonFieldErrors.push(...messagesOf(body.detail));
    if (typeof body.error === 'string') details.nonFieldErrors.push(body.error);
    return;
  }
  for (const [key, value] of Object.entries(body)) {
    if (key === 'non_field_errors') details.nonFieldErrors.push(...messagesOf(value));
    else collectField(key, value, details.fieldErrors);
  }
}

function messagesOf(value: unknown, depth = 0): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || value === undefined) return [];
  if (depth >= MAX_DEPTH) return ['(more details not shown)'];
  // Stryker disable next-line MethodExpression: the slice bounds the work only; the messages are cut to the same count afterwards.
  if (Array.isArray(value)) return value.slice(0, MAX_MESSAGES).flatMap((item) => messagesOf(item, depth + 1));
  return [typeof value === 'object' ? shortJson(value) : scalarText(value)];
}

/** A JSON scalar as text: a string as it is, a number or boolean as JSON writes it. */
function scalarText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? typeof value);
}

function shortJson(value: object): string {
  try {
    const text = JSON.stringify(value);
    return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
  } catch {
    return '(details not readable)';
  }
}

/** Nested serializers answer `{"input_definitions": [{}, {"key": ["..."]}]}`: the path becomes `input_definitions[1].key`. */
function collectField(path: string, value: unknown, out: Record<string, string[]>, depth = 0): void {
  if (depth >= MAX_DEPTH) {
    add(out, path, '(more details not shown)');
  } else if (Array.isArray(value)) {
    value.slice(0, MAX_MESSAGES).forEach((item, i) => {
      if (item !== null && typeof item === 'object') collectField(`${path}[${i}]`, item, out, depth + 1);
      else if (item !== null) add(out, path, scalarText(item));
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value).slice(0, MAX_MESSAGES)) collectField(`${path}.${key}`, inner, out, depth + 1);
  } else if (value !== null) {
    add(out, path, scalarText(value));
  }
}

function add(out: Record<string, string[]>, path: string, message: string): void {
  const list = Object.hasOwn(out, path) ? out[path]! : (out[path] = []);
  if (list.length < MAX_MESSAGES) list.push(message);
}

/** A sentence for an HTTP error: the body's own words when it has any, else one built from the status. */
export function httpErrorMessage(status: number, details: ErrorDetails, retryAfterMs?: number): string {
  // Django's bare "Not found." says less than our own sentence for the status.
  if (status === 404 && isGenericNotFound(details)) return statusMessage(status, retryAfterMs);
  const parts = details.nonFieldErrors.map(sentence);
  for (const [field, messages] of Object.entries(details.fieldErrors)) parts.push(`${field}: ${messages.map(sentence).join(' ')}`);
  const text = parts.filter((part) => part.length > 0).join(' ');
  if (text) return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
  return statusMessage(status, retryAfterMs);
}

/** Messages of a bare array ("Missing required input: transcript") read as sentences when joined. */
function sentence(message: string): string {
  const text = message.trim();
  return text === '' || /[.!?…)]$/.test(text) ? text : `${text}.`;
}

function isGenericNotFound(details: ErrorDetails): boolean {
  return Object.keys(details.fieldErrors).length === 0 && details.nonFieldErrors.length === 1 && /^not found\.?$/i.test(details.nonFieldErrors[0]!.trim());
}

/** The message for a status whose body says nothing useful (empty, HTML, or unknown JSON). */
export function statusMessage(status: number, retryAfterMs?: number): string {
  const wait = retryAfterMs === undefined ? 'in a moment' : `in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s`;
  if (status >= 300 && status < 400) {
    return `The service answered with a redirect (${status}); redirects are not followed, check the service URL.`;
  }
  switch (status) {
    case 400: return 'The service rejected the request (400).';
    case 401: return 'The service did not accept the access token (401). Sign in again.';
    case 403: return 'You have no access to this organization or item (403).';
    case 404: return 'Not found (404): it may have been deleted, or belong to another organization.';
    case 405: return 'The service does not allow this operation (405).';
    case 409: return 'The request conflicts with the current state of the item (409).';
    case 413: return 'The request is too large for the service (413).';
    case 429: return `The service is receiving too many requests (429). Try again ${wait}.`;
    case 500: return 'The service failed with an internal error (500).';
    case 502: case 503: case 504: return `The service is unavailable (${status}). Try again ${wait}.`;
    default: return `The service answered with status ${status}.`;
  }
}
