import type { LimiterClock } from './limiter';
import type { Dispatcher } from 'undici';
import type { WriteGateOptions, WriteGround } from '../writeGate/writeGate';

/** How a {@link ServiceClient} reaches the service. */
export interface ClientOptions {
  /** e.g. `http://127.0.0.1:4010`; may include a path prefix; a trailing slash is fine. */
  baseUrl: string;
  /** The bearer token, or a function asked before every attempt (so a refreshed token is picked up). */
  token: string | (() => string | undefined | Promise<string | undefined>);
  /** Sent as `organization_id` on every call where the interface has it. */
  organizationId?: string;
  /** Per attempt, covering headers and body; default 30000. */
  timeoutMs?: number;
  /** Requests in flight at once; the rest queue in order. Default 6. */
  maxConcurrent?: number;
  retry?: RetryOptions;
  /** Called after every attempt, for the extension's log. Never carries the token. */
  onRequest?: (event: RequestEvent) => void;
  /** Tests may inject a dispatcher; the client then neither owns nor closes it. */
  dispatcher?: Dispatcher;
  userAgent?: string;
  /** The clock of the client-wide pause after a 429; tests inject one to move time themselves. */
  pauseClock?: LimiterClock;
  /**
   * Every write passes the client's write gate (`client.gate`): each must state why its target may be
   * written. The extension, the command line and the MCP server always set it; a client without it
   * (tests seeding a sandbox) sends writes unchecked.
   */
  writeGate?: WriteGateOptions;
}

/** Bounds of the retries of reads (GET). */
export interface RetryOptions {
  /** Default 4. */
  maxRetries?: number;
  /** First backoff ceiling; default 500 ms, doubled per retry. */
  baseDelayMs?: number;
  /** Ceiling of one backoff; default 8000 ms. */
  maxDelayMs?: number;
  /** No retry starts once this much time has passed since the first attempt; default 30000 ms. */
  maxTotalMs?: number;
}

/** One attempt of one operation, as reported to `onRequest`. */
export interface RequestEvent {
  operation: string;
  method: string;
  /** Path under the base URL, with the query string. */
  path: string;
  status?: number;
  durationMs: number;
  attempt: number;
  error?: string;
  /** Parts of the answer left out because they could not be read (each said once per client), e.g. a tag. */
  leftOut?: string[];
}

/** Options every client method takes last. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** Options of a method that writes: why its target may be written (see `src/core/writeGate/`). */
export interface WriteOptions extends CallOptions {
  ground?: WriteGround;
}

/** One page of a paged list, with the page numbers around it (never the server's links). */
export interface Page<T> {
  count: number;
  results: T[];
  page: number;
  nextPage: number | null;
  previousPage: number | null;
}
