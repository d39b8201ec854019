/** What went wrong with a call, in the terms the UI needs to react. */
export type ServiceErrorKind = 'http' | 'network' | 'timeout' | 'aborted' | 'parse' | 'unsupported';

/** Everything a {@link ServiceError} is made of; the message is already human. */
export interface ServiceErrorInit {
  kind: ServiceErrorKind;
  message: string;
  operation: string;
  method: string;
  path: string;
  status?: number;
  fieldErrors?: Record<string, string[]>;
  nonFieldErrors?: string[];
  retryAfterMs?: number;
  outcomeUnknown?: boolean;
  body?: unknown;
  /** The low-level error code of a network failure, e.g. `ECONNRESET`. */
  code?: string;
  cause?: unknown;
}

/** The one error type the client throws for anything that went wrong with a call. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly kind: ServiceErrorKind;
  readonly status?: number;
  readonly operation: string;
  readonly method: string;
  /** Path under the base URL, with the query string. */
  readonly path: string;
  /** Per-field messages from a validation answer; nested fields read `input_definitions[0].key`. */
  readonly fieldErrors: Record<string, string[]>;
  /** Messages about the request as a whole (`non_field_errors`, `detail`, `error`, bare arrays). */
  readonly nonFieldErrors: string[];
  /** How long the service asked us to wait (`Retry-After`). */
  readonly retryAfterMs?: number;
  /** A write was sent but its answer never came: it may or may not have happened; re-read before retrying. */
  readonly outcomeUnknown: boolean;
  /** The parsed JSON error body, for details such as `dependent_agents` of a 409. */
  readonly body?: unknown;
  /** The low-level error code of a network failure, e.g. `ECONNRESET`. */
  readonly code?: string;

  constructor(init: ServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.operation = init.operation;
    this.method = init.method;
    this.path = init.path;
    this.fieldErrors = init.fieldErrors ?? {};
    this.nonFieldErrors = init.nonFieldErrors ?? [];
    this.retryAfterMs = init.retryAfterMs;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.body = init.body;
    this.code = init.code;
  }
}

/** True for errors thrown by the service client. */
export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof ServiceError;
}
