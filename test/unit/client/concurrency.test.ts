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
    const clock = new FakeClock();
    client = clientFor(service, { maxConcurrent: 1, pauseClock: clock });
    let throttled = false;
    // Each request after the 429 notes whether the pause had been let go when it arrived.
    const arrivedAfterPause: boolean[] = [];
    service.handle((_req, res) => {
      if (!throttled) {
        throttled = true;
        return json(res, 429, { detail: 'Request was throttled.' }, { 'retry-after': '1' });
      }
      arrivedAfterPause.push(clock.firedCount > 0);
      json(res, 200, baseAgent());
    });
    const write = rejectionOf(client.agents.update('a1', { name: 'x' }));
    const queued = client.agents.get('queued');
    const error = (await write) as ServiceError;
    assert.equal(error.status, 429);
    assert.equal(error.retryAfterMs, 1000);
    const later = [client.agents.get('new-1'), client.agents.get('new-2')];
    assert.deepEqual(clock.pendingDelays(), [1000], 'one pause of the Retry-After, for the whole queue');
    clock.fireAll();
    await Promise.all([queued, ...later]);
    assert.deepEqual(service.requests.map((r) => r.url.split('/')[3]), ['a1', 'queued', 'new-1', 'new-2']);
    assert.deepEqual(arrivedAfterPause, [true, true, true]);
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
    const clock = new FakeClock();
    const limiter = new Limiter(2, clock);
    limiter.pauseFor(60);
    assert.equal(limiter.tryAcquire(), false);
    const order: number[] = [];
    const waiting = Promise.all([1, 2].map((n) => limiter.acquire(undefined).then(() => order.push(n))));
    assert.deepEqual(clock.pendingDelays(), [60]);
    clock.advance(59);
    assert.equal(limiter.tryAcquire(), false, 'still paused a moment before the end');
    clock.fireAll();
    await waiting;
    assert.deepEqual(order, [1, 2]);
    assert.equal(limiter.inFlight, 2);
  });

  it('extends a pause when a later Retry-After asks for longer', async () => {
    const clock = new FakeClock();
    const limiter = new Limiter(1, clock);
    limiter.pauseFor(20);
    limiter.pauseFor(80);
    let acquired = false;
    const waiting = limiter.acquire(undefined).then(() => (acquired = true));
    assert.deepEqual(clock.pendingDelays(), [80]);
    clock.advance(20);
    assert.equal(limiter.tryAcquire(), false, 'the shorter pause does not end the longer one');
    clock.fireAll();
    await waiting;
    assert.equal(acquired, true);
  });
});

/** A clock whose time and timers move only when the test says. */
class FakeClock {
  private time = 1_000_000;
  private timers = new Map<number, { fn: () => void; at: number }>();
  private next = 1;
  firedCount = 0;

  now(): number {
    return this.time;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.timers.set(id, { fn, at: this.time + ms });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  /** The delays of the timers not fired yet, from now. */
  pendingDelays(): number[] {
    return [...this.timers.values()].map((t) => t.at - this.time);
  }
  advance(ms: number): void {
    this.time += ms;
  }
  /** Moves time to each timer's moment and runs it. */
  fireAll(): void {
    for (const [id, timer] of [...this.timers]) {
      this.timers.delete(id);
      this.time = Math.max(this.time, timer.at);
      this.firedCount++;
      timer.fn();
    }
  }
}
