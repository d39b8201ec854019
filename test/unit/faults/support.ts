/** Raw HTTP for fault tests: what exactly arrived (headers, how many body bytes, how the connection ended). */
import * as http from 'node:http';
import type { ServiceError } from '../../../src/core/client';

/** What one raw request saw. */
export interface RawResult {
  /** Undefined when the connection was cut before any answer. */
  status?: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** True when the whole announced body arrived. */
  complete: boolean;
  /** The error code when the connection failed (ECONNRESET, ...). */
  error?: string;
}

export interface RawOptions {
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body in pieces of this size, each after the previous one was written. */
  chunkBytes?: number;
}

/** Sends one request on a fresh connection and reports what came back, never throwing for a cut connection. */
export function rawRequest(baseUrl: string, method: string, path: string, options: RawOptions = {}): Promise<RawResult> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve) => {
    const result: RawResult = { headers: {}, body: Buffer.alloc(0), complete: false };
    const chunks: Buffer[] = [];
    const done = (error?: NodeJS.ErrnoException) => {
      if (error && !result.error) result.error = error.code ?? error.message;
      result.body = Buffer.concat(chunks);
      resolve(result);
    };
    const req = http.request(url, { method, headers: options.headers, agent: false }, (res) => {
      result.status = res.statusCode;
      result.headers = res.headers;
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error) => (result.error ??= (error as NodeJS.ErrnoException).code ?? error.message));
      res.on('close', () => {
        result.complete = res.complete;
        done();
      });
    });
    req.on('error', (error) => done(error));
    writeBody(req, options).catch((error: NodeJS.ErrnoException) => (result.error ??= error.code ?? error.message));
  });
}

async function writeBody(req: http.ClientRequest, options: RawOptions): Promise<void> {
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const size = options.chunkBytes;
  if (!body || !size) return void req.end(body);
  for (let at = 0; at < body.length && !req.destroyed; at += size) {
    await new Promise<void>((resolve, reject) => req.write(body.subarray(at, at + size), (error) => (error ? reject(error) : resolve())));
  }
  if (!req.destroyed) req.end();
}

/** `Authorization` for a sandbox token. */
export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** The ServiceError a client call fails with; fails the test when the call succeeds. */
export async function failureOf(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    return error as ServiceError;
  }
  throw new Error('expected the call to fail');
}
