import * as assert from 'node:assert/strict';
import type { ServiceClient, ServiceError } from '../../../src/core/client';
import { baseAgent } from './helpers/fixtures';
import { clientFor, json, rejectionOf, startFakeService, type FakeService } from './helpers/fakeService';

describe('service client: timeouts and cancellation', () => {
  let service: FakeService;
  let client: ServiceClient;

  beforeEach(async () => {
    service = await startFakeService();
    client = clientFor(service, { timeoutMs: 200 });
  });
  afterEach(async () => {
    await client.close();
    await service.close();
  });

  const neverAnswer = (): void => service.handle(() => undefined);

  it('fails a read with kind timeout when no answer comes in time, without trying again', async () => {
    neverAnswer();
    const error = (await rejectionOf(client.agents.get('a1'))) as ServiceError;
    assert.equal(error.kind, 'timeout');
    assert.equal(error.outcomeUnknown, false);
    assert.equal(error.message, 'The service did not answer within 0.2 s.');
    assert.equal(service.requests.length, 1);
  });

  it('counts the body in the timeout, not only the headers', async () => {
    service.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id": "a1",');
    });
    const error = (await rejectionOf(client.agents.get('a1'))) as ServiceError;
    assert.equal(error.kind, 'timeout');
  });

  it('says the outcome of a write that timed out is unknown', async () => {
    neverAnswer();
    const error = (await rejectionOf(client.agents.create({ name: 'x', engine_class_id: 'e' }))) as ServiceError;
    assert.equal(error.kind, 'timeout');
    assert.equal(error.outcomeUnknown, true);
    assert.match(error.message, /may or may not have been made: refresh to check/);
  });

  it('knows a write to a service that refused the connection never happened', async () => {
    const port = service.port;
    await service.close();
    const offline = clientFor({ url: `http://127.0.0.1:${port}` });
    try {
      const error = (await rejectionOf(offline.agents.create({ name: 'x', engine_class_id: 'e' }))) as ServiceError;
      assert.equal(error.kind, 'network');
      assert.equal(error.outcomeUnknown, false);
    } finally {
      await offline.close();
      service = await startFakeService();
    }
  });

  it('gives up at once when the caller aborts a request in flight', async () => {
    const slow = clientFor(service);
    try {
      neverAnswer();
      const controller = new AbortController();
      const pending = rejectionOf(slow.agents.get('a1', { signal: controller.signal }));
      while (service.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      // The service never answers and the client's timeout is far off: only the abort can end it.
      controller.abort();
      const error = (await pending) as ServiceError;
      assert.equal(error.kind, 'aborted');
      assert.equal(error.outcomeUnknown, false);
    } finally {
      await slow.close();
    }
  });

  it('says the outcome of an aborted write is unknown', async () => {
    neverAnswer();
    const controller = new AbortController();
    const pending = rejectionOf(client.policies.createVersion('p1', { content: {} }, { signal: controller.signal }));
    while (service.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    controller.abort();
    const error = (await pending) as ServiceError;
    assert.equal(error.kind, 'aborted');
    assert.equal(error.outcomeUnknown, true);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const error = (await rejectionOf(client.agents.get('a1', { signal: AbortSignal.abort() }))) as ServiceError;
    assert.equal(error.kind, 'aborted');
    assert.equal(service.requests.length, 0);
  });

  it('keeps answering after timeouts: the connection pool recovers', async () => {
    neverAnswer();
    await rejectionOf(client.agents.get('a1'));
    service.handle((_req, res) => json(res, 200, baseAgent({ id: 'a2' })));
    assert.equal((await client.agents.get('a2')).id, 'a2');
  });
});
