/**
 * MCP over Streamable HTTP on 127.0.0.1: one session a client (its own server and transport), with the
 * Host and Origin checked on every request (a web page must not reach the server through DNS rebinding)
 * and `Authorization: Bearer <token>` always required (127.0.0.1 is open to every user of the machine; the
 * token is the server's own, not the service's). Sessions are capped and closed when idle
 * (httpSessions.ts); a JSON-RPC batch is refused (one request a POST: it is one call against the limits,
 * and MCP 2025-06-18 has no batches).
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { HttpSessions, MAX_SESSIONS, SESSION_IDLE_MS } from './httpSessions';

export interface HttpOptions {
  port: number;
  /** The bearer token clients must send (newServerToken() makes one). */
  token: string;
  makeServer(): Server;
  log(line: string): void;
  /** The most sessions open at once (default 16). */
  maxSessions?: number;
  /** How long a session may go unused before it is closed (default 10 minutes). */
  idleMs?: number;
  /** The clock of idleness (tests pass a fake one). */
  now?: () => number;
}

/** The running server: its URL, how many sessions are open, and its end. */
export interface HttpMcpServer {
  server: http.Server;
  url: string;
  openSessions(): number;
  /** Of those, the ones with a request or stream open (never closed as idle). */
  sessionsInUse(): number;
  /** Closes the sessions idle for the idle time (also done every minute). */
  closeIdle(): Promise<void>;
  close(): Promise<void>;
}

/** Whether the Host header names this server on the loopback address (never another name a page could point here). */
export function allowedHost(host: string | undefined, port: number): boolean {
  return host !== undefined && [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(host.toLowerCase());
}

/** Whether the Origin (sent by browsers) is absent or this server itself. */
export function allowedOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`].includes(origin.toLowerCase());
}

/** A random bearer token of the server's own (never the service's): 32 bytes, base64url. */
export function newServerToken(): string {
  return randomBytes(32).toString('base64url');
}

function sameToken(given: string | undefined, token: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(`Bearer ${token}`);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(res: http.ServerResponse, status: number, message: string, code = -32000, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * The one answer to a request without this server's token, whatever its method or session: 401 with the
 * Bearer challenge (RFC 6750), which says `invalid_token` when a bearer token was sent and is not this one.
 */
function unauthorized(res: http.ServerResponse, given: string | undefined): void {
  const wrong = /^Bearer\s+\S/i.test(given ?? '');
  const challenge = `Bearer realm="agent-workbench mcp"${wrong ? ', error="invalid_token", error_description="not this server\'s token"' : ''}`;
  refuse(res, 401, `Unauthorized: ${wrong ? 'that is not this server\'s token' : 'send the server token as a bearer token'}.`, -32000, { 'WWW-Authenticate': challenge });
}

/** The most a request body may hold. */
const MAX_BODY = 4 * 1024 * 1024;
/** How much of a body over the limit is read and dropped, so that the refusal reaches the client; past it the connection is cut. */
const MAX_DRAINED = 16 * MAX_BODY;

/** A body over the limit: refused with 413 on a connection then closed. */
class TooLarge extends Error {
  constructor() {
    super('The request is larger than 4 MB.');
  }
}

/**
 * The JSON body of a request. One over the limit is read to its end and dropped before it is refused:
 * a refusal sent while the client still writes would be lost to a reset, and the connection could not
 * carry the next request. (Up to MAX_DRAINED; past that the connection is cut.)
 */
function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DRAINED) req.destroy(new TooLarge());
      else if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY) return reject(new TooLarge());
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    req.on('error', reject);
  });
}

/** Starts the HTTP server; answers it and the URL of its MCP endpoint. */
export async function serveHttp(o: HttpOptions): Promise<HttpMcpServer> {
  const idleMs = o.idleMs ?? SESSION_IDLE_MS;
  const sessions = new HttpSessions({ max: o.maxSessions ?? MAX_SESSIONS, idleMs, now: o.now ?? Date.now, log: (line) => o.log(line) });
  let port = o.port;
  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      o.log(`http: ${error instanceof Error ? error.message : String(error)}`);
      if (res.headersSent || req.socket.destroyed) return;
      // The connection goes with a body too large: it is not one a client should send the next request on.
      if (error instanceof TooLarge) refuse(res, 413, error.message, -32600, { Connection: 'close' });
      else refuse(res, 400, error instanceof Error ? error.message : 'Bad request');
    });
  });
  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!allowedHost(req.headers.host, port) || !allowedOrigin(req.headers.origin, port)) return refuse(res, 403, 'Forbidden: the Host or Origin is not this local server.');
    if (!sameToken(req.headers.authorization, o.token)) return unauthorized(res, req.headers.authorization);
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') return refuse(res, 404, 'Not found: the MCP endpoint is /mcp.');
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) return refuse(res, 404, `No such session (it was closed, or idle for over ${Math.round(idleMs / 60_000)} minutes): start a new one with initialize.`);
      const body = req.method === 'POST' ? await readBody(req, res) : undefined;
      if (body === BATCH) return;
      sessions.track(session, res);
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST') return refuse(res, 400, 'No session: start with an initialize request.');
    const body = await readBody(req, res);
    if (body === BATCH) return;
    if (!isInitializeRequest(body)) return refuse(res, 400, 'No session: start with an initialize request.');
    if (!sessions.hasRoom()) return refuse(res, 503, sessions.fullText());
    await openSession(req, res, body);
  }
  async function openSession(req: http.IncomingMessage, res: http.ServerResponse, body: unknown): Promise<void> {
    const id = randomUUID();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
    const session = { transport, server: o.makeServer(), inFlight: 0, lastUsed: 0 };
    sessions.add(id, session);
    sessions.track(session, res);
    await session.server.connect(transport);
    await transport.handleRequest(req, res, body);
    // An initialize the transport refused opened nothing.
    if (transport.sessionId === undefined) return sessions.close(id, 'not initialized');
    o.log(`session opened (${sessions.size} open)`);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const sweep = setInterval(() => void sessions.closeIdle(), Math.min(idleMs, 60_000));
  sweep.unref();
  return {
    server,
    url: `http://127.0.0.1:${port}/mcp`,
    openSessions: () => sessions.size,
    sessionsInUse: () => sessions.inUse,
    closeIdle: () => sessions.closeIdle(),
    close: async () => {
      clearInterval(sweep);
      await sessions.closeAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const BATCH = Symbol('batch');

/** The JSON body of a POST; a batch (an array) is refused here with a JSON-RPC error, answering BATCH. */
async function readBody(req: http.IncomingMessage, res: http.ServerResponse): Promise<unknown> {
  const body = await readJson(req);
  if (!Array.isArray(body)) return body;
  refuse(res, 400, 'Batches are not taken: send one request per POST.', -32600);
  return BATCH;
}
