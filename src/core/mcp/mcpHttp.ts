/**
 * MCP over Streamable HTTP on 127.0.0.1: one session a client (its own server and transport), with the
 * Host and Origin checked on every request (a web page must not reach the server through DNS rebinding)
 * and, when a token is set, `Authorization: Bearer <token>` required. The token is the server's own, not
 * the service's.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

export interface HttpOptions {
  port: number;
  /** A bearer token clients must send; none: any local client may connect. */
  token?: string;
  makeServer(): Server;
  log(line: string): void;
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

function refuse(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 4 * 1024 * 1024) throw new Error('The request is larger than 4 MB.');
    chunks.push(chunk as Buffer);
  }
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

/** Starts the HTTP server; answers it and the URL of its MCP endpoint. */
export async function serveHttp(o: HttpOptions): Promise<{ server: http.Server; url: string; close(): Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let port = o.port;
  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      o.log(`http: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) refuse(res, 400, error instanceof Error ? error.message : 'Bad request');
    });
  });
  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!allowedHost(req.headers.host, port) || !allowedOrigin(req.headers.origin, port)) return refuse(res, 403, 'Forbidden: the Host or Origin is not this local server.');
    if (o.token && !sameToken(req.headers.authorization, o.token)) return refuse(res, 401, 'Unauthorized: send the server token as a bearer token.');
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') return refuse(res, 404, 'Not found: the MCP endpoint is /mcp.');
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (req.method !== 'POST') {
      if (!existing) return refuse(res, 400, 'No such session.');
      return existing.handleRequest(req, res);
    }
    const body = await readJson(req);
    if (existing) return existing.handleRequest(req, res, body);
    if (sessionId !== undefined || !isInitializeRequest(body)) return refuse(res, 400, 'No such session: start with an initialize request.');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
        o.log(`session opened (${sessions.size} open)`);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await o.makeServer().connect(transport);
    await transport.handleRequest(req, res, body);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    server,
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
