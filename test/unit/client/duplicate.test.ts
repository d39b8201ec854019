import * as assert from 'node:assert/strict';
import { DuplicateRenameError, duplicateAgentAs } from '../../../src/core/agentDuplicate';
import type { ServiceClient } from '../../../src/core/client';
import { agentVersion, baseAgent } from './helpers/fixtures';
import { clientFor, json, rejectionOf, startFakeService, type FakeService } from './helpers/fakeService';

describe('duplicating an agent under the name the user chose', () => {
  let service: FakeService;
  let client: ServiceClient;
  const copy = agentVersion({ base_agent: baseAgent({ id: 'c1', name: 'Copy of Support triage' }) });

  beforeEach(async () => {
    service = await startFakeService();
    client = clientFor(service);
  });
  afterEach(async () => {
    await client.close();
    await service.close();
  });

  it('duplicates without a body, then renames the copy with PATCH, as one action', async () => {
    service.handle((req, res) => (req.method === 'POST' ? json(res, 201, copy) : json(res, 200, baseAgent({ id: 'c1', name: 'Triage B' }))));
    const made = await duplicateAgentAs(client, 'a1', { name: 'Triage B' });
    assert.equal(made.base_agent.name, 'Triage B');
    assert.deepEqual(service.requests.map((r) => `${r.method} ${r.url.split('?')[0]} ${r.body}`), ['POST /v1/agents/a1/duplicate/ ', 'PATCH /v1/agents/c1/ {"name":"Triage B"}']);
  });

  it('keeps the copy and says that it could not be renamed when the rename fails, without duplicating again', async () => {
    service.handle((req, res) => (req.method === 'POST' ? json(res, 201, copy) : json(res, 400, { name: ['Ensure this field has no more than 200 characters.'] })));
    const error = await rejectionOf(duplicateAgentAs(client, 'a1', { name: 'Triage B' }));
    assert.ok(error instanceof DuplicateRenameError);
    assert.equal(error.copy.base_agent.id, 'c1');
    assert.match(error.message, /^The copy was made as "Copy of Support triage" but could not be renamed to "Triage B": /);
    assert.equal(service.requests.filter((r) => r.method === 'POST').length, 1);
  });

  it('sends no rename when the copy already has the name asked', async () => {
    service.handle((_req, res) => json(res, 201, copy));
    await duplicateAgentAs(client, 'a1', { name: 'Copy of Support triage' });
    assert.deepEqual(service.requests.map((r) => r.method), ['POST']);
  });
});
