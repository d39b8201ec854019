import * as assert from 'node:assert/strict';
import { pageNumberOf, type ServiceClient } from '../../../src/core/client';
import { baseAgent, envelope, job } from './helpers/fixtures';
import { clientFor, json, queryOf, startFakeService, type FakeService } from './helpers/fakeService';

describe('service client: page numbers from links', () => {
  it('takes the page number of an absolute link to any host', () => {
    assert.equal(pageNumberOf('https://elsewhere.example:8443/v1/agents/?page=4&page_size=20', 99), 4);
  });

  it('takes the page number of a relative link', () => {
    assert.equal(pageNumberOf('/v1/agents/?page=2', 99), 2);
  });

  it('reads a link without a page parameter as the fallback (DRF drops page=1)', () => {
    assert.equal(pageNumberOf('https://svc.example/v1/agents/?page_size=20', 1), 1);
  });

  it('has no page for a missing link and the fallback for a nonsense page', () => {
    assert.equal(pageNumberOf(null, 5), null);
    assert.equal(pageNumberOf(undefined, 5), null);
    assert.equal(pageNumberOf('/v1/agents/?page=last', 5), 5);
    assert.equal(pageNumberOf('/v1/agents/?page=0', 5), 5);
  });
});

describe('service client: walking pages', () => {
  let service: FakeService;
  let client: ServiceClient;
  const total = 23;

  /** A service holding `total` agents, paged like DRF's page-number pagination. */
  function pagedAgents(): void {
    service.handle((req, res) => {
      const query = queryOf(req);
      const page = Number(query.get('page') ?? '1');
      const size = Number(query.get('page_size') ?? '10');
      const start = (page - 1) * size;
      if (start >= total) return json(res, 404, { detail: 'Invalid page.' });
      const results = Array.from({ length: Math.min(size, total - start) }, (_, i) => baseAgent({ name: `agent ${start + i}` }));
      const link = (p: number): string => `http://internal:8000/v1/agents/?page=${p}&page_size=${size}`;
      json(res, 200, envelope(results, total, start + size < total ? link(page + 1) : null, page > 1 ? link(page - 1) : null));
    });
  }

  beforeEach(async () => {
    service = await startFakeService();
    client = clientFor(service);
    pagedAgents();
  });
  afterEach(async () => {
    await client.close();
    await service.close();
  });

  it('walks every page in order and the counts add up', async () => {
    const sizes: number[] = [];
    for await (const page of client.agents.pages({ page_size: 10, search: 'agent' })) {
      assert.equal(page.count, total);
      sizes.push(page.results.length);
    }
    assert.deepEqual(sizes, [10, 10, 3]);
    assert.deepEqual(service.requests.map((r) => queryOf(r).get('page')), ['1', '2', '3']);
    assert.ok(service.requests.every((r) => queryOf(r).get('page_size') === '10' && queryOf(r).get('search') === 'agent'));
  });

  it('yields every item once, in order', async () => {
    const names: string[] = [];
    for await (const agent of client.agents.items({ page_size: 7 })) names.push(agent.name);
    assert.deepEqual(names, Array.from({ length: total }, (_, i) => `agent ${i}`));
  });

  it('starts from the page asked for', async () => {
    const pages: number[] = [];
    for await (const page of client.agents.pages({ page: 2, page_size: 10 })) pages.push(page.page);
    assert.deepEqual(pages, [2, 3]);
  });

  it('fetches no more pages than the caller reads', async () => {
    for await (const agent of client.agents.items({ page_size: 5 })) {
      assert.equal(agent.name, 'agent 0');
      break;
    }
    assert.equal(service.requests.length, 1);
  });

  it('stops when a next link points backwards instead of looping', async () => {
    service.handle((_req, res) => json(res, 200, envelope([job()], 50, 'http://svc/v1/agents/x/jobs/?page=1')));
    const pages = [];
    for await (const page of client.jobs.pages('x')) pages.push(page);
    assert.equal(pages.length, 1);
  });

  it('reports one page with its neighbours', async () => {
    const page = await client.agents.list({ page: 2, page_size: 10 });
    assert.deepEqual([page.page, page.nextPage, page.previousPage, page.results.length], [2, 3, 1, 10]);
  });
});
