import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Handler, RequestContext, SandboxApp } from './context';
import type { ContractMode } from './contractMode';
import type { FaultMode, Served } from './faults/index';
import { HttpError, notFound } from './http/errors';
import { QueryFields } from './http/queryParams';
import type { Reply, Router } from './http/router';
import { membershipsOf } from './users';

/**
 * The HTTP entry point: route (404 for unknown paths, even malformed ids), authenticate (401),
 * check the method (405), run the handler. Every answer is JSON; an exception that is not an
 * {@link HttpError} is a bug of ours: it is logged with its stack and answered 500, never bad input.
 * With a fault mode, it decides first (its admin endpoint, or a fault for this request). With the
 * checking mode (tests), every answer is checked against the contract before a fault may change it.
 * One log line per request: method, path without query string, status (or `cut`), duration.
 */
export function createRequestHandler(app: SandboxApp, router: Router<Handler>, faults?: FaultMode, contract?: ContractMode): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const path = pathOf(req.url);
    const answer = (): Promise<Reply> => operate(app, router, req, method).catch((error: unknown) => failureReply(app, req, `${method} ${path}`, error));
    const run = contract ? () => answer().then((reply) => contract(req, path, reply)) : answer;
    const plain = async (): Promise<Served> => {
      const reply = await run();
      send(req, res, reply);
      return { status: reply.status };
    };
    void (faults ? faults.serve(req, res, path, run, send) : plain())
      .catch((error: unknown): Served => {
        app.log(`sandbox: error in ${method} ${path}: ${(error as Error)?.stack ?? String(error)}`);
        req.socket.destroy();
        return { status: 'cut' };
      })
      .then(({ status, fault }) => {
        app.log(`${method} ${path} ${status}${fault ? ` (fault: ${fault})` : ''} ${(performance.now() - started).toFixed(1)}ms`);
      });
  };
}

async function operate(app: SandboxApp, router: Router<Handler>, req: IncomingMessage, method: string): Promise<Reply> {
  const url = parseUrl(req.url);
  const match = router.match(method, url.pathname);
  if (!match) throw notFound();
  const userId = app.tokens.authenticate(req);
  if ('allowed' in match) {
    throw new HttpError(405, { detail: `Method "${method}" not allowed.` }, { Allow: match.allowed.join(', ') });
  }
  const ctx: RequestContext = {
    req, url, params: match.params, query: new QueryFields(url.searchParams), app,
    user: { id: userId, orgIds: membershipsOf(app.db, userId) },
  };
  return match.handler(ctx);
}

function failureReply(app: SandboxApp, req: IncomingMessage, what: string, error: unknown): Reply {
  if (error instanceof HttpError) return { status: error.status, body: error.body, headers: error.headers };
  // A client that went away in the middle of its body is not a bug of ours; nobody will read this answer.
  if (!req.complete && req.socket.destroyed) return { status: 400, body: { detail: 'The request was interrupted.' } };
  app.log(`sandbox: error in ${what}: ${(error as Error)?.stack ?? String(error)}`);
  return { status: 500, body: { detail: 'Internal server error.' } };
}

/** The path of a request URL for logs and fault rules ('?' when it cannot be read). */
function pathOf(raw: string | undefined): string {
  try {
    return new URL(raw ?? '/', 'http://sandbox.invalid').pathname;
  } catch {
    return '?';
  }
}

function parseUrl(raw: string | undefined): URL {
  try {
    return new URL(raw ?? '/', 'http://sandbox.invalid');
  } catch {
    throw new HttpError(400, { detail: 'Malformed request URL.' });
  }
}

function send(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...reply.headers };
  // The body was not (fully) read, e.g. an upload over the limit: this connection cannot be reused.
  if (!req.complete) headers.Connection = 'close';
  if (reply.status === 204 || reply.body === undefined) {
    res.writeHead(reply.status, headers).end();
    return;
  }
  const text = JSON.stringify(reply.body);
  res
    .writeHead(reply.status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) })
    .end(text);
}
