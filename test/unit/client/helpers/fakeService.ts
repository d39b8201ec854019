/** A scripted HTTP service on 127.0.0.1 for client tests: records every request and answers by a handler. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceClient } from '../../../../src/core/client';
import type { ClientOptions } from '../../../../src/core/client';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Handler = (req: RecordedRequest, res: http.ServerResponse, raw: http.IncomingMessage) => void | Promise<void>;

export interface FakeService {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Replaces the handler for the requests to come. */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export const TOKEN = 'tok-3e1f-very-secret';
export const ORG = '11111111-2222-3333-4444-555555555555';

/** Starts a service that reads each request body fully, records it, then calls the handler. */
export async function startFakeService(handler: Handler = (_req, res) => json(res, 200, {})): Promise<FakeService> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const server = http.createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const req: RecordedRequest = { method: raw.method ?? '', url: raw.url ?? '', headers: raw.headers, body: Buffer.concat(chunks).toString(), at: Date.now() };
      requests.push(req);
      Promise.resolve(current(req, res, raw)).catch((err: unknown) => {
        if (!res.headersSent) json(res, 500, { detail: String(err) });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    handle: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers with a JSON body. */
export function json(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Answers with a text body of the given type (HTML pages of proxies, broken JSON). */
export function text(res: http.ServerResponse, status: number, body: string, type = 'text/html', headers: http.OutgoingHttpHeaders = {}): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** A client for a fake service with fast retries, so tests do not sleep for real backoffs. */
export function clientFor(service: { url: string }, options: Partial<ClientOptions> = {}): ServiceClient {
  return new ServiceClient({
    baseUrl: service.url,
    token: TOKEN,
    organizationId: ORG,
    ...options,
    retry: { baseDelayMs: 5, maxDelayMs: 20, ...options.retry },
  });
}

/** The query parameters of a recorded request. */
export function queryOf(req: RecordedRequest): URLSearchParams {
  return new URL(req.url, 'http://x').searchParams;
}

/** The error a promise rejects with; fails when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}
