import * as assert from 'node:assert/strict';
import type { ServiceClient, ServiceError } from '../../../src/core/client';
import { Limiter } from '../../../src/core/client/limiter';
import { baseAgent } from './helpers/fixtures';
import { clientFor, json, rejectionOf, startFakeService, type FakeService } from './helpers/fakeService';

describe('service client: concurrency', () => {
  let service: FakeService;
  let client: ServiceClient;

  beforeEach(async () => {
    service = await startFakeService();
  });
  afterEach(async () => {
    await client.close();
    await service.close();
  });

  /** Holds every request for `ms` and tracks how many are open at once. */
  function slowService(ms: number): { peak: () => number } {
    let open = 0;
    let peak = 0;
    service.handle((req, res) => {
      open++;
      peak = Math.max(peak, open);
      setTimeout(() => {
        open--;
        json(res, 200, baseAgent({ id: new URL(req.url, 'http://x').pathname.split('/')[3] }));
      }, ms);
    });
    return { peak: () => peak };
  }

  it('never has more requests in flight than the limit, and still answers them all', async () => {
    client = clientFor(service, { maxConcurrent: 3 });
    const load = slowService(30);
    const ids = Array.from({ length: 20 }, (_, i) => `a${i}`);
    const agents = await Promise.all(ids.map((id) => client.agents.get(id)));
    assert.deepEqual(agents.map((a) => a.id), ids);
    assert.equal(load.peak(), 3);
  });

  it('allows six requests in flight by default', async () => {
    client = clientFor(service);
    const load = slowService(30);
    await Promise.all(Array.from({ length: 15 }, (_, i) => client.agents.get(`a${i}`)));
    assert.equal(load.peak(), 6);
  });

  it('sends queued requests in the order they were made', async () => {
    client = clientFor(service, { maxConcurrent: 1 });
    slowService(5);
    const ids = Array.from({ length: 8 }, (_, i) => `a${i}`);
    await Promise.all(ids.map((id) => client.agents.get(id)));
    assert.deepEqual(service.requests.map((r) => r.url.split('/')[3]), ids);
  });

  it('drops a queued request that is aborted, without sending it', async () => {
    client = clientFor(service, { maxConcurrent: 1 });
    slowService(100);
    const first = client.agents.get('first');
    const controller = new AbortController();
    const second = rejectionOf(client.agents.get('second', { signal: controller.signal }));
    const third = client.agents.get('third');
    controller.abort();
    const error = (await second) as ServiceError;
    assert.equal(error.kind, 'aborted');
    assert.equal(error.outcomeUnknown, false);
    await Promise.all([first, third]);
    assert.deepEqual(service.requests.map((r) => r.url.split('/')[3]), ['first', 'third']);
  });

  it('holds back every queued and new request after a 429 with Retry-After', async () => {
    client = clientFor(service, { maxConcurrent: 1 });
    let throttledAt = 0;
    service.handle((_req, res) => {
      if (throttledAt > 0) return json(res, 200, baseAgent());
      setTimeout(() => {
        throttledAt = Date.now();
        json(res, 429, { detail: 'Request was throttled.' }, { 'retry-after': '1' });
      }, 30);
    });
    const write = rejectionOf(client.agents.update('a1', { name: 'x' }));
    const queued = client.agents.get('queued');
    const throttled = (await write) as ServiceError;
    assert.equal(throttled.status, 429);
    assert.equal(throttled.retryAfterMs, 1000);
    await Promise.all([queued, client.agents.get('new-1'), client.agents.get('new-2')]);
    assert.deepEqual(service.requests.map((r) => r.url.split('/')[3]), ['a1', 'queued', 'new-1', 'new-2']);
    const earliest = Math.min(...service.requests.slice(1).map((r) => r.at));
    assert.ok(earliest - throttledAt >= 950, `the next request went out ${earliest - throttledAt} ms after the 429`);
  });

  it('fails queued requests when the client is closed', async () => {
    client = clientFor(service, { maxConcurrent: 1 });
    slowService(50);
    const running = client.agents.get('a1');
    const queued = rejectionOf(client.agents.get('a2'));
    while (service.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    const closing = client.close();
    const error = (await queued) as ServiceError;
    assert.equal(error.kind, 'aborted');
    assert.match(error.message, /client was closed/);
    await running;
    await closing;
  });
});

describe('service client: the request gate', () => {
  it('lets nobody past a pause, and everybody in order after it', async () => {
    const limiter = new Limiter(2);
    limiter.pauseFor(60);
    assert.equal(limiter.tryAcquire(), false);
    const order: number[] = [];
    const started = Date.now();
    await Promise.all([1, 2].map((n) => limiter.acquire(undefined).then(() => order.push(n))));
    assert.ok(Date.now() - started >= 55);
    assert.deepEqual(order, [1, 2]);
    assert.equal(limiter.inFlight, 2);
  });

  it('extends a pause when a later Retry-After asks for longer', async () => {
    const limiter = new Limiter(1);
    limiter.pauseFor(20);
    limiter.pauseFor(80);
    const started = Date.now();
    await limiter.acquire(undefined);
    assert.ok(Date.now() - started >= 75);
  });
});
