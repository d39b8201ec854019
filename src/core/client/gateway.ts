/**
 * The one place that talks HTTP to the service: base URL, bearer token, `organization_id`, per-attempt
 * timeouts, retries of reads, the concurrency limit, error mapping and response parsing.
 *
 * The token only ever goes to the configured origin: every request is that origin plus a path we built,
 * links in answers are never fetched, and redirects are not followed (a 3xx is an error).
 */
import type { Readable } from 'node:stream';
import { Pool, type Dispatcher } from 'undici';
import type * as z from 'zod/mini';
import { redact } from '../redact';
import { AttemptSignal } from './attemptSignal';
import { ServiceError } from './errors';
import { abortedError, httpError, networkError, parseError, timeoutError, type CallContext } from './failures';
import { Limiter } from './limiter';
import type { BodySource, StreamBody } from './multipart';
import { ParseProblem, parseBody, takeLeftOut } from './parse';
import { queryString, type Query } from './query';
import { backoffDelay, errorCode, isConnectFailure, isConnectionFailure, isRetryableStatus, parseRetryAfter, retryPolicy, type RetryPolicy } from './retry';
import { localFileErrorIn } from '../uploads/localFile';
import { wait } from '../wait';
import type { ClientOptions, RequestEvent } from './types';
import type { WriteGate, WriteGround, WriteTarget } from '../writeGate/writeGate';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One operation, as a resource describes it. */
export interface Call<T> {
  operation: string;
  method: Method;
  /** Under the base URL, from `/v1/`; ids already escaped. */
  path: string;
  query?: Query;
  json?: unknown;
  stream?: StreamBody;
  /** null: the answer carries nothing to read (204). */
  schema: z.ZodMiniType<T> | null;
  /** Leave `organization_id` out: the call is about the user's personal space. */
  personal?: boolean;
  /** A POST that changes nothing (reading statuses), so a cut answer leaves no unknown outcome. */
  readOnly?: boolean;
  /** For our own endpoint decisions: what the call offers, named when a server answers 404/405. */
  feature?: string;
  /** What a write changes, for the write gate (an existing agent, policy, job, dataset or table). */
  target?: WriteTarget;
  /** Why the target may be written (the write gate checks it). */
  ground?: WriteGround;
}

interface Attempt {
  ctx: CallContext;
  /** The request was handed to the connection: a write may have reached the service. */
  sent: boolean;
  write: boolean;
  /** Parts of the answer left out as unreadable, noted for the first time by this client. */
  leftOut?: string[];
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_CONCURRENCY = 6;

/** Sends calls to one service; shared by all resources of a client. */
export class Gateway {
  readonly baseUrl: string;
  readonly organizationId: string | undefined;
  private readonly origin: string;
  private readonly prefix: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly limiter: Limiter;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly userAgent: string;
  private closing: Promise<void> | undefined;
  private readonly noted = new Set<string>();
  private gate: WriteGate | undefined;

  constructor(private readonly options: ClientOptions) {
    const url = new URL(options.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`The service URL must be http or https: ${url.protocol}`);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.baseUrl = this.origin + this.prefix;
    this.organizationId = options.organizationId || undefined;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = retryPolicy(options.retry);
    this.userAgent = options.userAgent ?? 'agent-workbench';
    const max = Math.max(1, Math.floor(options.maxConcurrent ?? DEFAULT_CONCURRENCY));
    this.limiter = new Limiter(max, options.pauseClock);
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new Pool(this.origin, { connections: max });
  }

  /** Every write of this gateway passes `gate` from now on (set once, by the client that owns the gateway). */
  guardWrites(gate: WriteGate): void {
    this.gate = gate;
  }

  /** Runs a call: waits for a slot, sends it, retries reads that may succeed later, returns the parsed answer. */
  async send<T>(call: Call<T>, signal?: AbortSignal): Promise<T> {
    if (call.method !== 'GET' && this.gate) {
      await this.gate.admit({ operation: call.operation, target: call.target, ground: call.ground }, signal);
      const answer = await this.sendAdmitted(call, signal);
      this.gate.recordMade(call.operation, call.target, answer);
      return answer;
    }
    return this.sendAdmitted(call, signal);
  }

  private async sendAdmitted<T>(call: Call<T>, signal?: AbortSignal): Promise<T> {
    const path = call.path + queryString(call.query, call.personal ? undefined : this.organizationId);
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(call, path, attempt, signal);
      } catch (error) {
        const delay = this.retryDelay(call, error as ServiceError, attempt, started);
        if (delay === undefined) throw error;
        if (!(await wait(delay, signal))) throw abortedError({ operation: call.operation, method: call.method, path }, false);
      }
    }
  }

  /** Fails queued calls and closes the connections the client opened. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.limiter.close();
      if (this.ownsDispatcher) await this.dispatcher.close();
    })();
    return this.closing;
  }

  private async attempt<T>(call: Call<T>, path: string, n: number, signal: AbortSignal | undefined): Promise<T> {
    const state: Attempt = {
      ctx: { operation: call.operation, method: call.method, path },
      sent: false,
      write: call.method !== 'GET' && !call.readOnly,
    };
    const token = typeof this.options.token === 'string' ? this.options.token : await this.options.token();
    if (signal?.aborted) throw abortedError(state.ctx, false);
    if (!this.limiter.tryAcquire()) await this.waitForSlot(state.ctx, signal);
    const started = performance.now();
    const control = new AttemptSignal(this.timeoutMs, signal);
    let body: BodySource | undefined;
    let status: number | undefined;
    let failure: ServiceError | undefined;
    try {
      // Aborted while it waited for its slot: nothing has gone out.
      if (control.aborted) throw abortedError(state.ctx, false);
      // An upload can outlast the timeout: every chunk the service takes starts the clock over.
      body = call.stream?.open(() => control.touch());
      state.sent = true;
      const response = await this.dispatcher.request({
        origin: this.origin,
        path: this.prefix + path,
        method: call.method,
        headers: this.headers(call, token),
        // undici sends any async iterable as it is (its types name only Readable).
        body: (body as Readable | undefined) ?? (call.json === undefined ? null : JSON.stringify(call.json)),
        signal: control,
        // Our own timer covers headers and body together.
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      status = response.statusCode;
      return await this.read(call, state, response, token);
    } catch (error) {
      failure = this.failure(error, state, control, signal, token);
      throw failure;
    } finally {
      control.dispose();
      body?.destroy();
      this.limiter.release();
      this.report(state, n, started, status, failure);
    }
  }

  /** The notes not logged before for this operation: an odd field is logged once, not on every refresh. */
  private firstNotes(operation: string, notes: string[]): string[] | undefined {
    const fresh = notes.filter((note) => !this.noted.has(`${operation}: ${note}`));
    for (const note of fresh) this.noted.add(`${operation}: ${note}`);
    return fresh.length > 0 ? [...new Set(fresh)] : undefined;
  }

  private async waitForSlot(ctx: CallContext, signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.limiter.acquire(signal);
    } catch {
      throw abortedError(ctx, false, signal?.aborted ? undefined : 'The service client was closed.');
    }
  }

  private headers(call: Call<unknown>, token: string | undefined): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.userAgent };
    if (token) headers.authorization = `Bearer ${token}`;
    if (call.stream) {
      headers['content-type'] = call.stream.contentType;
      headers['content-length'] = String(call.stream.contentLength);
    } else if (call.json !== undefined) {
      headers['content-type'] = 'application/json';
    }
    return headers;
  }

  private async read<T>(call: Call<T>, state: Attempt, response: Dispatcher.ResponseData, token: string | undefined): Promise<T> {
    const { ctx } = state;
    const { statusCode: status, headers, body } = response;
    if (status >= 200 && status < 300) {
      if (call.schema === null) {
        await body.dump();
        return undefined as T;
      }
      const value = parseBody(call.schema, await body.text(), headers['content-type'], call.operation);
      state.leftOut = this.firstNotes(call.operation, takeLeftOut());
      return value;
    }
    const retryAfterMs = parseRetryAfter(headers['retry-after']);
    if (status === 429 && retryAfterMs !== undefined) this.limiter.pauseFor(Math.min(retryAfterMs, this.retry.maxTotalMs));
    // A redirect is never followed, and its body is not worth reading.
    const text = status >= 300 && status < 400 ? (await body.dump(), '') : await body.text();
    const write = call.method !== 'GET' && !call.readOnly;
    throw httpError(ctx, status, redact(text, token ? [token] : []), { retryAfterMs, feature: call.feature, write });
  }

  private failure(error: unknown, state: Attempt, control: AttemptSignal, signal: AbortSignal | undefined, token: string | undefined): ServiceError {
    const failure = this.classify(error, state, control, signal);
    // Messages are shown and logged; whatever an answer or a low-level error echoed, the token stays out.
    if (token && failure.message.includes(token)) failure.message = redact(failure.message, [token]);
    return failure;
  }

  private classify(error: unknown, state: Attempt, control: AttemptSignal, signal: AbortSignal | undefined): ServiceError {
    if (error instanceof ServiceError) return error;
    if (error instanceof ParseProblem) return parseError(state.ctx, error.message, state.write);
    // The file of an upload failed to read: the body stopped short of its length, so nothing was stored.
    const local = localFileErrorIn(error);
    if (local) return new ServiceError({ ...state.ctx, kind: 'network', code: 'ELOCALFILE', cause: local, message: local.message });
    const unknownOutcome = state.write && state.sent;
    if (signal?.aborted) return abortedError(state.ctx, unknownOutcome);
    if (control.timedOut) return timeoutError(state.ctx, this.timeoutMs, unknownOutcome);
    const code = errorCode(error);
    if (this.closing && (code === 'UND_ERR_CLOSED' || code === 'UND_ERR_DESTROYED')) {
      return abortedError(state.ctx, unknownOutcome, 'The service client was closed.');
    }
    return networkError(state.ctx, code, error, this.origin, unknownOutcome && !isConnectFailure(code));
  }

  /** Milliseconds to wait before trying a read again, or undefined when it must not be tried again. */
  private retryDelay(call: Call<unknown>, error: ServiceError, attempt: number, started: number): number | undefined {
    if (call.method !== 'GET' || attempt > this.retry.maxRetries) return undefined;
    const retryable = error.kind === 'http' ? isRetryableStatus(error.status ?? 0) : error.kind === 'network' && isConnectionFailure(error.code);
    if (!retryable) return undefined;
    const delay = error.retryAfterMs ?? backoffDelay(attempt, this.retry);
    return Date.now() - started + delay > this.retry.maxTotalMs ? undefined : delay;
  }

  private report({ ctx, leftOut }: Attempt, attempt: number, started: number, status: number | undefined, failure: ServiceError | undefined): void {
    const listener = this.options.onRequest;
    if (!listener) return;
    const event: RequestEvent = { ...ctx, status, durationMs: Math.round(performance.now() - started), attempt };
    if (failure) event.error = failure.message;
    if (leftOut) event.leftOut = leftOut;
    try {
      listener(event);
    } catch {
      // A failing log listener must not fail the call.
    }
  }
}
