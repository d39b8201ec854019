/** The ServiceErrors for each way a call can fail, with messages a person can act on. */
import { httpErrorMessage, readErrorBody } from './errorBody';
import { OUTCOME_UNKNOWN_SUFFIX as UNKNOWN_OUTCOME } from '../outcomeUnknown';
import { ServiceError } from './errors';

/** Which call failed. */
export interface CallContext {
  operation: string;
  method: string;
  path: string;
}


/** The caller cancelled; `outcomeUnknown` when a write had already gone out. */
export function abortedError(ctx: CallContext, outcomeUnknown: boolean, message = 'The request was cancelled.'): ServiceError {
  return new ServiceError({ ...ctx, kind: 'aborted', outcomeUnknown, message: message + (outcomeUnknown ? UNKNOWN_OUTCOME : '') });
}

/** No complete answer within the attempt's time. */
export function timeoutError(ctx: CallContext, timeoutMs: number, outcomeUnknown: boolean): ServiceError {
  const seconds = Math.round(timeoutMs / 100) / 10;
  const message = `The service did not answer within ${seconds} s.${outcomeUnknown ? UNKNOWN_OUTCOME : ''}`;
  return new ServiceError({ ...ctx, kind: 'timeout', outcomeUnknown, message });
}

/** The connection failed: refused, unreachable, reset or closed. */
export function networkError(ctx: CallContext, code: string | undefined, cause: unknown, origin: string, outcomeUnknown: boolean): ServiceError {
  const message = networkMessage(code, cause, origin) + (outcomeUnknown ? UNKNOWN_OUTCOME : '');
  return new ServiceError({ ...ctx, kind: 'network', code, cause, outcomeUnknown, message });
}

function networkMessage(code: string | undefined, cause: unknown, origin: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return `Could not connect to the service at ${origin} (connection refused). Is it running?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Could not find the host of the service at ${origin}.`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `The service at ${origin} cannot be reached from this network.`;
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `Could not connect to the service at ${origin} in time.`;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
    case 'UND_ERR_SOCKET':
      return `The connection to the service was closed before the answer was complete (${code}).`;
    default:
      return `The request to the service failed: ${cause instanceof Error ? cause.message : String(cause)}`;
  }
}

/** A 2xx answer that is not what the operation promises. */
export function parseError(ctx: CallContext, message: string, write = false): ServiceError {
  // A write answered 2xx with an unreadable body most likely happened: saying so keeps callers from repeating it.
  const suffix = write ? ' The service accepted the request, but its answer could not be read, so it is not known what it did: check before trying again.' : '';
  return new ServiceError({ ...ctx, kind: 'parse', outcomeUnknown: write, message: message + suffix });
}

/**
 * A non-2xx answer. `feature` names what the call offers: a 404/405 then means this server does not
 * have it at all (endpoints that are our decisions, not the interface's).
 */
export function httpError(
  ctx: CallContext,
  status: number,
  text: string,
  options: { retryAfterMs?: number; feature?: string; write: boolean },
): ServiceError {
  if (options.feature && (status === 404 || status === 405)) {
    return new ServiceError({ ...ctx, kind: 'unsupported', status, message: `This server does not offer ${options.feature} (it answered ${status}).` });
  }
  const details = readErrorBody(text);
  // A proxy's 502/504 may come after the service got the write: whether it happened is unknown.
  const outcomeUnknown = options.write && (status === 502 || status === 504);
  const message = httpErrorMessage(status, details, options.retryAfterMs) + (outcomeUnknown ? UNKNOWN_OUTCOME : '');
  return new ServiceError({ ...ctx, kind: 'http', status, retryAfterMs: options.retryAfterMs, outcomeUnknown, message, ...details });
}
