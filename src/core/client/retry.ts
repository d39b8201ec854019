/** When a read is tried again, and how long to wait first. */
import type { RetryOptions } from './types';

/** Retry bounds with every default filled in. */
export type RetryPolicy = Required<RetryOptions>;

/** Defaults: 4 retries, 0.5 s doubling up to 8 s per wait, nothing started after 30 s. */
export function retryPolicy(options: RetryOptions | undefined): RetryPolicy {
  return {
    maxRetries: options?.maxRetries ?? 4,
    baseDelayMs: options?.baseDelayMs ?? 500,
    maxDelayMs: options?.maxDelayMs ?? 8000,
    maxTotalMs: options?.maxTotalMs ?? 30_000,
  };
}

/** Statuses that say "try again later" (rate limit, proxy, overload). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
}

// Connection failures: refused before anything was sent, or cut by the peer.
const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const CUT_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET']);

/** The error code of a failed request, looking through undici's wrapping. */
export function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (CONNECT_CODES.has(code) || CUT_CODES.has(code))) return code;
    e = (e as { cause?: unknown }).cause;
  }
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True when the connection could not be opened, so the request surely never reached the service. */
export function isConnectFailure(code: string | undefined): boolean {
  return code !== undefined && CONNECT_CODES.has(code);
}

/** True for connection failures worth another try: refused, reset, closed. */
export function isConnectionFailure(code: string | undefined): boolean {
  return code !== undefined && (CONNECT_CODES.has(code) || CUT_CODES.has(code));
}

/** `Retry-After` as milliseconds from now: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Full jitter: a random wait up to an exponentially growing ceiling (`retry` counts from 1). */
export function backoffDelay(retry: number, policy: RetryPolicy, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}
