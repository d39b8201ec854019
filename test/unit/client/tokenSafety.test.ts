import * as assert from 'node:assert/strict';
import { ServiceClient, type RequestEvent, type ServiceError } from '../../../src/core/client';
import { baseAgent, envelope } from './helpers/fixtures';
import { clientFor, json, ORG, rejectionOf, startFakeService, TOKEN, type FakeService } from './helpers/fakeService';

describe('service client: the token stays with the configured service', () => {
  let service: FakeService;
  let foreign: FakeService;
  let client: ServiceClient;

  beforeEach(async () => {
    service = await startFakeService();
    foreign = await startFakeService((_req, res) => json(res, 200, envelope([baseAgent()])));
    client = clientFor(service);
  });
  afterEach(async () => {
    await client.close();
    await service.close();
    await foreign.close();
  });

  it('sends the token as a bearer header to the configured service', async () => {
    service.handle((_req, res) => json(res, 200, baseAgent()));
    await client.agents.get('a1');
    assert.equal(service.requests[0]?.headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(new URL(service.requests[0]?.url ?? '', 'http://x').searchParams.get('organization_id'), ORG);
  });

  it('reads a next link that names another server only for its page number, and never calls it', async () => {
    service.handle((req, res) => {
      const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? '1');
      const next = page < 3 ? `${foreign.url}/v1/agents/?organization_id=${ORG}&page=${page + 1}` : null;
      const previous = page > 1 ? `https://proxy.example/v1/agents/?page=${page - 1}` : null;
      json(res, 200, envelope([baseAgent({ name: `agent ${page}` })], 3, next, previous));
    });
    const pages = [];
    for await (const page of client.agents.pages({ page_size: 1 })) pages.push(page);
    assert.deepEqual(pages.map((p) => [p.page, p.nextPage, p.previousPage]), [[1, 2, null], [2, 3, 1], [3, null, 2]]);
    assert.equal(foreign.requests.length, 0, 'the foreign server received nothing');
    assert.equal(service.requests.length, 3);
    assert.ok(service.requests.every((r) => r.headers.authorization === `Bearer ${TOKEN}`));
  });

  it('does not follow a redirect to another port, and reports it as an error', async () => {
    service.handle((_req, res) => {
      res.writeHead(302, { location: `${foreign.url}/v1/agents/` });
      res.end();
    });
    const error = (await rejectionOf(client.agents.list())) as ServiceError;
    assert.equal(error.kind, 'http');
    assert.equal(error.status, 302);
    assert.match(error.message, /redirect \(302\); redirects are not followed/);
    assert.equal(foreign.requests.length, 0, 'the foreign server received nothing');
  });

  it('does not follow a 307 of a write either', async () => {
    service.handle((_req, res) => {
      res.writeHead(307, { location: `${foreign.url}/v1/policies/` });
      res.end();
    });
    const error = (await rejectionOf(client.policies.create({ name: 'P', content: {} }))) as ServiceError;
    assert.equal(error.status, 307);
    assert.equal(foreign.requests.length, 0);
  });

  it('keeps ids inside the path, so an id cannot point a request elsewhere', async () => {
    service.handle((_req, res) => json(res, 200, baseAgent()));
    await client.agents.get(`//127.0.0.1:${foreign.port}/x`);
    await client.agents.get('..');
    assert.equal(foreign.requests.length, 0);
    assert.deepEqual(
      service.requests.map((r) => r.url.split('?')[0]),
      [`/v1/agents/%2F%2F127.0.0.1%3A${foreign.port}%2Fx/`, '/v1/agents/%2E%2E/'],
    );
  });

  it('keeps the path prefix of the base URL, with or without a trailing slash', async () => {
    service.handle((_req, res) => json(res, 200, baseAgent()));
    for (const baseUrl of [`${service.url}/api/`, `${service.url}/api`]) {
      const prefixed = new ServiceClient({ baseUrl, token: TOKEN });
      try {
        assert.equal(prefixed.baseUrl, `${service.url}/api`);
        await prefixed.agents.get('a1');
      } finally {
        await prefixed.close();
      }
    }
    assert.deepEqual(service.requests.map((r) => r.url), ['/api/v1/agents/a1/', '/api/v1/agents/a1/']);
  });

  it('never puts the token into request events', async () => {
    const events: RequestEvent[] = [];
    const logged = clientFor(service, { onRequest: (e) => events.push(e) });
    try {
      service.handle((_req, res) => json(res, 400, { detail: `token ${TOKEN} is odd` }));
      await rejectionOf(logged.agents.get('a1'));
      assert.equal(events.length, 1);
      assert.equal(events[0]?.operation, 'getAgent');
      assert.equal(events[0]?.status, 400);
      assert.ok(!JSON.stringify(events).includes(TOKEN));
    } finally {
      await logged.close();
    }
  });

  it('sends no Authorization header when the token function has none', async () => {
    const anonymous = clientFor(service, { token: () => undefined });
    try {
      service.handle((_req, res) => json(res, 401, { detail: 'Authentication credentials were not provided.' }));
      const error = (await rejectionOf(anonymous.agents.get('a1'))) as ServiceError;
      assert.equal(error.status, 401);
      assert.equal(service.requests[0]?.headers.authorization, undefined);
    } finally {
      await anonymous.close();
    }
  });

  it('refuses a base URL that is not http or https', () => {
    assert.throws(() => new ServiceClient({ baseUrl: 'ftp://127.0.0.1/', token: TOKEN }), /must be http or https/);
  });
});
