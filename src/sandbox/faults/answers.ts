/** The answers a fault sends: error pages, and the ways a good answer is spoiled. Pure functions of text and JSON. */
import type { ForeignNextFault, HugeFault, InsertFault, StatusFault, WrongTypesFault } from './rules';

/** An answer written as is: status, headers and the exact body text. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 413: 'Request Entity Too Large',
  429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Temporarily Unavailable', 504: 'Gateway Time-out',
};
const DEFAULT_FOREIGN_ORIGIN = 'http://proxy.invalid:8443';
const DEFAULT_HUGE_BYTES = 5 * 1024 * 1024;

/** The answer of a `status` fault: a proxy's HTML page for 502/503/504, else JSON as the service words it. */
export function statusAnswer(rule: StatusFault): RawAnswer {
  const headers: Record<string, string> = {};
  const retryAfter = rule.retryAfter ?? (rule.status === 429 ? 1 : undefined);
  if (retryAfter !== undefined) headers['Retry-After'] = String(retryAfter);
  if (rule.status === 502 || rule.status === 503 || rule.status === 504) {
    const title = `${rule.status} ${REASONS[rule.status]}`;
    const text = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
    return { status: rule.status, headers: { ...headers, 'Content-Type': 'text/html' }, text };
  }
  const body = rule.body !== undefined ? rule.body : { detail: defaultDetail(rule.status, retryAfter) };
  return { status: rule.status, headers: { ...headers, 'Content-Type': 'application/json' }, text: JSON.stringify(body) };
}

function defaultDetail(status: number, retryAfter: number | undefined): string {
  if (status === 429) return `Request was throttled. Expected available in ${retryAfter ?? 1} seconds.`;
  if (status === 500) return 'A server error occurred.';
  return REASONS[status] ?? `Error ${status}.`;
}

/** The answer of an `html` fault: the sign-in page of a proxy that stands in front of the service. */
export function htmlAnswer(status = 200): RawAnswer {
  const text = [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head>',
    '<body><h1>Sign in to continue</h1>',
    '<form method="post" action="/login"><input name="username"><input name="password" type="password"><button>Sign in</button></form>',
    '</body></html>',
    '',
  ].join('\n');
  return { status, headers: { 'Content-Type': 'text/html; charset=utf-8' }, text };
}

/** The first half of the JSON text (a character count, so a multi-byte character is never split). */
export function truncateJson(text: string): string {
  return text.slice(0, Math.floor(text.length / 2));
}

/** Text that is not JSON but looks close: single quotes, as a printed Python dict has them. */
export function malformJson(text: string): string {
  return text.includes('"') ? text.replace(/"/g, "'") : `${text}}`;
}

/** The value with numbers and booleans as strings and `remove` dropped from every object (see `WrongTypesFault`). */
export function wrongTypes(value: unknown, rule: WrongTypesFault): unknown {
  const remove = rule.remove ?? 'id';
  if (typeof value === 'string') return value.length;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(v)) if (key !== remove) out[key] = walk(inner);
    return out;
  };
  return walk(value);
}

/** The value with one field set to a huge string; undefined when the answer has no object to carry it. */
export function hugeField(value: unknown, rule: HugeFault): unknown {
  const target = firstObject(value);
  if (target === undefined) return undefined;
  target[rule.field ?? 'name'] = 'x'.repeat(rule.bytes ?? DEFAULT_HUGE_BYTES);
  return value;
}

/** The object an answer is about: itself, or the first item of a page or of a bare list. */
function firstObject(value: unknown): Record<string, unknown> | undefined {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (Array.isArray(value)) return isObject(value[0]) ? value[0] : undefined;
  if (!isObject(value)) return undefined;
  if (Array.isArray(value.results)) return isObject(value.results[0]) ? value.results[0] : undefined;
  return value;
}

/** The page with its links moved to another origin; undefined when the answer is not a page with a link. */
export function foreignLinks(value: unknown, rule: ForeignNextFault): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const page = value as Record<string, unknown>;
  const origin = rule.origin ?? DEFAULT_FOREIGN_ORIGIN;
  let moved = false;
  for (const key of ['next', 'previous']) {
    const link = page[key];
    if (typeof link !== 'string') continue;
    const url = new URL(link);
    page[key] = `${origin}${url.pathname}${url.search}`;
    moved = true;
  }
  return moved ? page : undefined;
}

/** The page with one more item (see `InsertFault`); undefined when the answer is not a page, or has no item to copy. */
export function insertItem(value: unknown, rule: InsertFault): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const results = (value as { results?: unknown }).results;
  if (!Array.isArray(results)) return undefined;
  const copied: unknown = rule.item !== undefined ? rule.item : results[rule.copy ?? 0];
  if (copied === undefined) return undefined;
  results.splice(Math.min(rule.at ?? results.length, results.length), 0, JSON.parse(JSON.stringify(copied)));
  return value;
}
