/**
 * `/__admin/faults`: switches the fault mode at run time. It answers only a request from this machine
 * that carries `X-Sandbox-Admin: <secret>`; any other request gets the same 404 as an unknown path,
 * so that nothing tells a caller the endpoint exists.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { readJsonValue } from '../http/body';
import { HttpError, notFound } from '../http/errors';
import type { Reply } from '../http/router';
import type { FaultBook } from './faultBook';
import { isLoopback } from './loopback';
import { readFaultRules } from './rules';

/** Where the admin endpoint lives; every path under the prefix is kept away from the service's routes. */
export const ADMIN_PREFIX = '/__admin/';
export const ADMIN_FAULTS_PATH = '/__admin/faults/';
/** The header that carries the admin secret. */
export const ADMIN_HEADER = 'x-sandbox-admin';

const MAX_ADMIN_BODY = 1024 * 1024;

/** True when the presented secret is the secret; the time taken does not depend on how much of it is right. */
export function sameSecret(presented: string, secret: string): boolean {
  // Hashing first gives both sides one length, which timingSafeEqual needs, without revealing the secret's length.
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(secret));
}

/** Answers the admin endpoint: GET the rules and their counters, PUT replaces the rules, POST adds rules, DELETE clears them. */
export async function serveAdmin(req: IncomingMessage, path: string, book: FaultBook, secret: string): Promise<Reply> {
  const presented = req.headers[ADMIN_HEADER];
  const allowed = typeof presented === 'string' && sameSecret(presented, secret) && isLoopback(req.socket.remoteAddress ?? '');
  if (!allowed || (path.endsWith('/') ? path : `${path}/`) !== ADMIN_FAULTS_PATH) {
    req.resume();
    throw notFound();
  }
  switch (req.method) {
    case 'GET':
      return { status: 200, body: { faults: book.report() } };
    case 'PUT':
      book.set(await readRules(req));
      return { status: 200, body: { faults: book.report() } };
    case 'POST':
      book.add(await readRules(req));
      return { status: 200, body: { faults: book.report() } };
    case 'DELETE':
      book.clear();
      return { status: 204 };
    default:
      req.resume();
      throw new HttpError(405, { detail: `Method "${req.method}" not allowed.` }, { Allow: 'GET, PUT, POST, DELETE' });
  }
}

/** Rules from the body: an array of rules, or one rule; 400 naming the first problem. */
async function readRules(req: IncomingMessage) {
  const value = await readJsonValue(req, MAX_ADMIN_BODY);
  try {
    return readFaultRules(value === undefined ? [] : value);
  } catch (error) {
    throw new HttpError(400, { detail: (error as Error).message });
  }
}
