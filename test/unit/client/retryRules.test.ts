import * as assert from 'node:assert/strict';
import { errorCode, isConnectFailure, isConnectionFailure, isRetryableStatus, parseRetryAfter } from '../../../src/core/client/retry';

const CONNECT = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT'];
const CUT = ['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET'];

/** An error as undici throws it: "fetch failed", the socket's error as its cause. */
function wrapped(code: string, levels = 1): Error {
  let error: Error = Object.assign(new Error(`connect ${code}`), { code });
  for (let i = 0; i < levels; i++) error = new TypeError('fetch failed', { cause: error });
  return error;
}

describe('service client: which failures are worth another try', () => {
  it('reads the connection error code that undici wraps in the error’s cause', () => {
    assert.equal(errorCode(wrapped('ECONNREFUSED')), 'ECONNREFUSED');
    assert.equal(errorCode(wrapped('ECONNRESET', 3)), 'ECONNRESET');
    // A code of its own on the wrapper that is no connection failure does not hide the one beneath.
    assert.equal(errorCode(Object.assign(new TypeError('fetch failed', { cause: wrapped('EPIPE', 0) }), { code: 'ERR_WRAPPED' })), 'EPIPE');
  });

  it('looks through at most four wrappings, then falls back to the error’s own code', () => {
    assert.equal(errorCode(wrapped('ECONNREFUSED', 4)), undefined);
    assert.equal(errorCode(Object.assign(wrapped('ECONNREFUSED', 4), { code: 'ERR_OWN' })), 'ERR_OWN');
  });

  it('gives the error’s own code when no connection failure is in it, and nothing for odd errors', () => {
    assert.equal(errorCode(Object.assign(new Error('bad url'), { code: 'ERR_INVALID_URL' })), 'ERR_INVALID_URL');
    assert.equal(errorCode(Object.assign(new Error('odd'), { code: 42 })), undefined);
    assert.equal(errorCode(null), undefined);
    assert.equal(errorCode(undefined), undefined);
    assert.equal(errorCode('ECONNREFUSED'), undefined);
    assert.equal(errorCode(new Error('plain')), undefined);
  });

  it('ends on an error whose cause points back at itself', () => {
    const error = Object.assign(new Error('loop'), { code: 'ERR_LOOP' }) as Error & { cause?: unknown };
    error.cause = error;
    assert.equal(errorCode(error), 'ERR_LOOP');
  });

  it('counts every refused or unreachable connection as never having reached the service', () => {
    for (const code of CONNECT) {
      assert.equal(isConnectFailure(code), true, code);
      assert.equal(isConnectionFailure(code), true, code);
    }
  });

  it('counts a connection cut by the peer as worth another try, but not as unsent', () => {
    for (const code of CUT) {
      assert.equal(isConnectionFailure(code), true, code);
      assert.equal(isConnectFailure(code), false, code);
    }
  });

  it('never counts another error, or none, as a connection failure (a GET is not retried for it)', () => {
    for (const code of [undefined, 'ETIMEDOUT', 'ERR_INVALID_URL', 'UND_ERR_ABORTED', '']) {
      assert.equal(isConnectionFailure(code), false, String(code));
      assert.equal(isConnectFailure(code), false, String(code));
    }
  });

  it('tries again after 429, 502, 503 and 504 only', () => {
    assert.deepEqual([400, 404, 429, 500, 501, 502, 503, 504, 505].filter(isRetryableStatus), [429, 502, 503, 504]);
  });

  it('reads Retry-After in whole or fractional seconds, trimmed, the first of several', () => {
    assert.equal(parseRetryAfter(' 2 '), 2000);
    assert.equal(parseRetryAfter('1.5'), 1500);
    assert.equal(parseRetryAfter('1.25'), 1250);
    assert.equal(parseRetryAfter(['3', '9']), 3000);
  });

  it('reads no wait from an absent, blank or unreadable Retry-After', () => {
    for (const value of [undefined, '', '   ', [], 'soon', '5x', 'abc5', '12 apples']) assert.equal(parseRetryAfter(value as string | string[] | undefined), undefined, String(value));
  });
});
