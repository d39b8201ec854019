import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startCountingProxy, type CountingProxy } from '../../../bench/lib/countingProxy';

describe('The benchmarks\' counting proxy', () => {
  let upstream: http.Server;
  let proxy: CountingProxy;

  before(async () => {
    // Echoes the method, path and body, so a test sees exactly what went through.
    upstream = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, url: req.url, body }));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    proxy = await startCountingProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
  });

  after(async () => {
    await proxy.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  it('passes requests and bodies through unchanged', async () => {
    const answer = await fetch(`${proxy.url}/v1/agents/jobs/statuses/?organization_id=x`, { method: 'POST', body: '{"job_ids":["a"]}' });
    assert.deepEqual(await answer.json(), { method: 'POST', url: '/v1/agents/jobs/statuses/?organization_id=x', body: '{"job_ids":["a"]}' });
  });

  it('counts requests by method and route, with ids folded and the query left out', async () => {
    proxy.reset();
    const ids = ['3f6c2a1e-8b4d-4c7a-9e15-6d2b8f0a4c91', 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d'];
    for (const id of ids) await (await fetch(`${proxy.url}/v1/agents/jobs/${id}/status/?organization_id=o`)).text();
    await (await fetch(`${proxy.url}/v1/agents/jobs/statuses/`, { method: 'POST', body: '{}' })).text();
    assert.deepEqual(proxy.counts(), { 'GET /v1/agents/jobs/{id}/status/': 2, 'POST /v1/agents/jobs/statuses/': 1 });
    assert.equal(proxy.total(), 3);
  });

  it('starts from zero after a reset', async () => {
    await (await fetch(`${proxy.url}/v1/datasets/`)).text();
    proxy.reset();
    assert.deepEqual(proxy.counts(), {});
    assert.equal(proxy.total(), 0);
  });
});
