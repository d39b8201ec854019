import * as assert from 'node:assert/strict';
import { deleteAgentVersion, renameAgentVersion } from '../../../src/core/agentVersionChanges';
import { agentVersionNameProblem } from '../../../src/core/limits';
import type { ServiceClient } from '../../../src/core/client';
import { isWriteRefused } from '../../../src/core/writeGate/writeGate';
import { agentVersion, baseAgent } from './helpers/fixtures';
import { clientFor, json, rejectionOf, startFakeService, type FakeService } from './helpers/fakeService';

const sent = (service: FakeService) => service.requests.map((r) => `${r.method} ${r.url.split('?')[0]}${r.body ? ` ${r.body}` : ''}`);

describe('renaming and deleting a version of an agent', () => {
  let service: FakeService;
  let client: ServiceClient;

  beforeEach(async () => {
    service = await startFakeService();
    client = clientFor(service);
  });
  afterEach(async () => {
    await client.close();
    await service.close();
  });

  it('renames with PATCH of the name alone, trimmed, then reads the version again (the service answers only a message)', async () => {
    service.handle((req, res) => (req.method === 'PATCH' ? json(res, 200, { message: 'Agent version updated successfully.' }) : json(res, 200, agentVersion({ id: 'v2', version_name: 'Stricter refunds' }))));
    const renamed = await renameAgentVersion(client, 'a1', 'v2', '  Stricter refunds ');
    assert.equal(renamed.version_name, 'Stricter refunds');
    assert.deepEqual(sent(service), ['PATCH /v1/agents/a1/versions/v2/ {"version_name":"Stricter refunds"}', 'GET /v1/agents/a1/versions/v2/']);
  });

  it('sends nothing for an empty or too long name, and says why', async () => {
    assert.equal(((await rejectionOf(renameAgentVersion(client, 'a1', 'v2', '   '))) as Error).message, 'Not renamed: The version name must not be empty.');
    assert.match(((await rejectionOf(renameAgentVersion(client, 'a1', 'v2', 'x'.repeat(256)))) as Error).message, /At most 255 characters \(now 256\)/);
    assert.equal(agentVersionNameProblem('x'.repeat(255)), undefined);
    assert.deepEqual(service.requests, []);
  });

  it('deletes a version that is not the current one, after reading the agent', async () => {
    service.handle((req, res) => (req.method === 'GET' ? json(res, 200, baseAgent({ id: 'a1', current_version_id: 'v3' })) : void res.writeHead(204).end()));
    assert.deepEqual(await deleteAgentVersion(client, 'a1', 'v2'), {});
    assert.deepEqual(sent(service), ['GET /v1/agents/a1/', 'DELETE /v1/agents/a1/versions/v2/']);
  });

  it('refuses to delete the current version, read from the service (not from the list shown), and sends no DELETE', async () => {
    service.handle((_req, res) => json(res, 200, baseAgent({ id: 'a1', name: 'Support triage', current_version_id: 'v2' })));
    const error = (await rejectionOf(deleteAgentVersion(client, 'a1', 'v2'))) as Error;
    assert.match(error.message, /^Not deleted: this is the current version of “Support triage”/);
    assert.deepEqual(sent(service), ['GET /v1/agents/a1/']);
  });

  it('reports a version deleted with a failed clean-up (500 with failed_collections) as deleted, with the service’s words, and never sends it twice', async () => {
    service.handle((req, res) =>
      req.method === 'GET' ? json(res, 200, baseAgent({ id: 'a1', current_version_id: 'v3' })) : json(res, 500, { detail: 'Collection cleanup failed.', failed_collections: ['kb_v2'] }),
    );
    assert.deepEqual(await deleteAgentVersion(client, 'a1', 'v2'), { warning: 'The version was deleted, but the service says: Collection cleanup failed.' });
    assert.equal(service.requests.filter((r) => r.method === 'DELETE').length, 1);
  });

  it('passes any other failure of the delete on, once', async () => {
    service.handle((req, res) => (req.method === 'GET' ? json(res, 200, baseAgent({ id: 'a1', current_version_id: 'v3' })) : json(res, 500, { error: 'boom' })));
    const error = (await rejectionOf(deleteAgentVersion(client, 'a1', 'v2'))) as Error;
    assert.match(error.message, /500|boom|server/i);
    assert.equal(service.requests.filter((r) => r.method === 'DELETE').length, 1);
  });

  it('renames and deletes through the write gate with the ground of the version the user picked, and sends neither without it', async () => {
    const gated = clientFor(service, { writeGate: {} });
    try {
      service.handle((req, res) => (req.method === 'PATCH' ? json(res, 200, { message: 'ok' }) : req.method === 'DELETE' ? void res.writeHead(204).end() : req.url.includes('/versions/') ? json(res, 200, agentVersion({ id: 'v2', version_name: 'Renamed' })) : json(res, 200, baseAgent({ id: 'a1', current_version_id: 'v3' }))));
      assert.ok(isWriteRefused(await rejectionOf(renameAgentVersion(gated, 'a1', 'v2', 'Renamed'))));
      assert.ok(isWriteRefused(await rejectionOf(deleteAgentVersion(gated, 'a1', 'v2'))));
      assert.deepEqual(sent(service), ['GET /v1/agents/a1/'], 'no PATCH and no DELETE without a ground');
      const picked = gated.gate!.userPicked({ kind: 'agent', id: 'a1' }, 'the Agents view');
      assert.equal((await renameAgentVersion(gated, 'a1', 'v2', 'Renamed', picked)).version_name, 'Renamed');
      assert.deepEqual(await deleteAgentVersion(gated, 'a1', 'v2', picked), {});
      assert.deepEqual(sent(service).slice(1), ['PATCH /v1/agents/a1/versions/v2/ {"version_name":"Renamed"}', 'GET /v1/agents/a1/versions/v2/', 'GET /v1/agents/a1/', 'DELETE /v1/agents/a1/versions/v2/']);
    } finally {
      await gated.close();
    }
  });
});
