import * as assert from 'node:assert/strict';
import type { RequestEvent, ServiceClient, ServiceError } from '../../../src/core/client';
import { backoffDelay, parseRetryAfter, retryPolicy } from '../../../src/core/client/retry';
import { baseAgent } from './helpers/fixtures';
import { clientFor, json, rejectionOf, startFakeService, text, TOKEN, type FakeService } from './helpers/fakeService';

describe('service client: retries', () => {
  let service: FakeService;
  let client: ServiceClient;
  let events: RequestEvent[];

  beforeEach(async () => {
    service = await startFakeService();
    events = [];
    client = clientFor(service, { onRequest: (e) => events.push(e) });
  });
  afterEach(async () => {
    await client.close();
    await service.close();
  });

  /** Fails the first `failures` requests with `fail`, then answers with an agent. */
  function failFirst(failures: number, fail: (res: import('node:http').ServerResponse, raw: import('node:http').IncomingMessage) => void): void {
    let seen = 0;
    service.handle((_req, res, raw) => (++seen <= failures ? fail(res, raw) : json(res, 200, baseAgent({ id: 'a1' }))));
  }

  for (const status of [429, 502, 503, 504]) {
    it(`tries a read again after a ${status} and returns the later answer`, async () => {
      failFirst(2, (res) => text(res, status, '<html>busy</html>'));
      const agent = await client.agents.get('a1');
      assert.equal(agent.id, 'a1');
      assert.equal(service.requests.length, 3);
      assert.deepEqual(events.map((e) => [e.attempt, e.status]), [[1, status], [2, status], [3, 200]]);
    });
  }

  it('tries a read again when the connection is reset', async () => {
    failFirst(1, (_res, raw) => raw.socket.destroy());
    const agent = await client.agents.get('a1');
    assert.equal(agent.id, 'a1');
    assert.equal(service.requests.length, 2);
    assert.equal(events[0]?.status, undefined);
    assert.match(events[0]?.error ?? '', /connection to the service was closed/);
  });

  it('tries a read again when the connection is refused, up to the bound', async () => {
    const port = service.port;
    await service.close();
    const offline = clientFor({ url: `http://127.0.0.1:${port}` }, { retry: { maxRetries: 2 }, onRequest: (e) => events.push(e) });
    try {
      const error = (await rejectionOf(offline.agents.get('a1'))) as ServiceError;
      assert.equal(error.code, 'ECONNREFUSED');
      assert.deepEqual(events.map((e) => e.attempt), [1, 2, 3]);
    } finally {
      await offline.close();
      service = await startFakeService();
    }
  });

  for (const status of [400, 404, 500]) {
    it(`does not try a read again after a ${status}`, async () => {
      failFirst(1, (res) => json(res, status, { detail: 'no' }));
      const error = (await rejectionOf(client.agents.get('a1'))) as ServiceError;
      assert.equal(error.status, status);
      assert.equal(service.requests.length, 1);
    });
  }

  it('never tries a write again, even after a 503', async () => {
    failFirst(1, (res) => text(res, 503, ''));
    const error = (await rejectionOf(client.agents.update('a1', { name: 'x' }))) as ServiceError;
    assert.equal(error.status, 503);
    assert.equal(error.outcomeUnknown, false);
    assert.equal(service.requests.length, 1);
  });

  it('says the outcome of a write is unknown when a proxy answers 504', async () => {
    failFirst(1, (res) => text(res, 504, '<html>Gateway Timeout</html>'));
    const error = (await rejectionOf(client.policies.createVersion('p1', { content: {} }))) as ServiceError;
    assert.equal(error.status, 504);
    assert.equal(error.outcomeUnknown, true);
    assert.equal(error.message, 'The service is unavailable (504). Try again in a moment. The change may or may not have been made: refresh to check before trying again.');
    assert.equal(service.requests.length, 1);
  });

  it('never tries a write again after a reset, and says its outcome is unknown', async () => {
    failFirst(1, (_res, raw) => raw.socket.destroy());
    const error = (await rejectionOf(client.agents.create({ name: 'x', engine_class_id: 'e' }))) as ServiceError;
    assert.equal(error.kind, 'network');
    assert.equal(error.outcomeUnknown, true);
    assert.match(error.message, /may or may not have been made/);
    assert.equal(service.requests.length, 1);
  });

  it('waits as long as Retry-After says in seconds', async () => {
    failFirst(1, (res) => json(res, 503, { detail: 'busy' }, { 'retry-after': '1' }));
    await client.agents.get('a1');
    const gap = (service.requests[1]?.at ?? 0) - (service.requests[0]?.at ?? 0);
    assert.ok(gap >= 950, `retried after ${gap} ms`);
  });

  it('waits until the HTTP date of Retry-After', async () => {
    const until = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000);
    failFirst(1, (res) => text(res, 503, '', 'text/plain', { 'retry-after': until.toUTCString() }));
    await client.agents.get('a1');
    const second = service.requests[1]?.at ?? 0;
    assert.ok(second >= until.getTime() - 50, `retried ${until.getTime() - second} ms early`);
  });

  it('gives up after the configured number of retries', async () => {
    const bounded = clientFor(service, { retry: { maxRetries: 2 } });
    try {
      failFirst(100, (res) => text(res, 502, ''));
      const error = (await rejectionOf(bounded.agents.get('a1'))) as ServiceError;
      assert.equal(error.status, 502);
      assert.equal(service.requests.length, 3);
    } finally {
      await bounded.close();
    }
  });

  it('does not start a retry that would end after the total time bound', async () => {
    const bounded = clientFor(service, { retry: { maxTotalMs: 1000 } });
    try {
      failFirst(100, (res) => text(res, 503, '', 'text/plain', { 'retry-after': '5' }));
      const error = (await rejectionOf(bounded.agents.get('a1'))) as ServiceError;
      assert.equal(error.retryAfterMs, 5000);
      assert.match(error.message, /Try again in 5 s/);
      assert.equal(service.requests.length, 1);
    } finally {
      await bounded.close();
    }
  });

  it('stops at once when the call is aborted during a backoff wait', async () => {
    failFirst(100, (res) => text(res, 503, '', 'text/plain', { 'retry-after': '10' }));
    const controller = new AbortController();
    const pending = rejectionOf(client.agents.get('a1', { signal: controller.signal }));
    await waitFor(() => service.requests.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    const error = (await pending) as ServiceError;
    assert.equal(error.kind, 'aborted');
    // Without the abort, the 10 s wait would end in a second request (within the test's time).
    assert.equal(service.requests.length, 1);
  });

  it('asks a token function again for every attempt and never reports the token', async () => {
    let asked = 0;
    const refreshing = clientFor(service, { token: () => Promise.resolve(`${TOKEN}-${++asked}`), onRequest: (e) => events.push(e) });
    try {
      failFirst(1, (res) => text(res, 502, ''));
      await refreshing.agents.get('a1');
      assert.deepEqual(service.requests.map((r) => r.headers.authorization), [`Bearer ${TOKEN}-1`, `Bearer ${TOKEN}-2`]);
      assert.ok(!JSON.stringify(events).includes(TOKEN));
    } finally {
      await refreshing.close();
    }
  });
});

describe('service client: retry timing rules', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('120', now), 120_000);
    assert.equal(parseRetryAfter('0', now), 0);
    assert.equal(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });

  it('draws each backoff between zero and a ceiling that doubles up to the maximum', () => {
    const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });
    assert.equal(backoffDelay(1, policy, () => 0), 0);
    assert.equal(backoffDelay(1, policy, () => 0.999), 99);
    assert.equal(backoffDelay(3, policy, () => 0.999), 399);
    assert.equal(backoffDelay(10, policy, () => 0.999), 999);
  });

  it('defaults to four retries within thirty seconds', () => {
    assert.deepEqual(retryPolicy(undefined), { maxRetries: 4, baseDelayMs: 500, maxDelayMs: 8000, maxTotalMs: 30_000 });
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
