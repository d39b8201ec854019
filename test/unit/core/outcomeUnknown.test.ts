import * as assert from 'node:assert/strict';
import { ServiceError } from '../../../src/core/client';
import { isOutcomeUnknown, outcomeUnknownMessage } from '../../../src/core/outcomeUnknown';
import { clientFor, json, rejectionOf, startFakeService } from '../client/helpers/fakeService';

describe('a write whose outcome is unknown', () => {
  it('is recognised from the client error, and nothing else is', () => {
    const base = { kind: 'network' as const, message: 'x', operation: 'createPolicyVersion', method: 'POST', path: '/v1/policies/p/versions/' };
    assert.equal(isOutcomeUnknown(new ServiceError({ ...base, outcomeUnknown: true })), true);
    assert.equal(isOutcomeUnknown(new ServiceError(base)), false);
    assert.equal(isOutcomeUnknown(new Error('x')), false);
    assert.equal(isOutcomeUnknown(undefined), false);
  });

  it('is told in one sentence that names what was written, what was read again and the reason, without the client advice twice', async () => {
    // A proxy's 502 after the write went out: the client marks the outcome unknown.
    const service = await startFakeService((_req, res) => json(res, 502, { detail: 'Bad gateway' }));
    const client = clientFor(service);
    try {
      const error = await rejectionOf(client.policies.createVersion('p1', { content: {} }));
      assert.equal(isOutcomeUnknown(error), true);
      const message = outcomeUnknownMessage({ happened: '“Refunds” (version 3) was saved', readAgain: 'the versions' }, error);
      assert.match(message, /^It is not known whether “Refunds” \(version 3\) was saved: the answer was lost after the request was sent \(Bad gateway\)\. It was not sent again; the versions were read again to show what the service has — check them before trying again\.$/);
      assert.doesNotMatch(message, /may or may not have been made/);
      assert.doesNotMatch(message, /\.\./);
    } finally {
      await client.close();
      await service.close();
    }
  });
});

describe('service client: a policy endpoint the server does not offer', () => {
  it('says that this server does not offer renaming a policy it can still read, and keeps a 404 for a policy that is gone', async () => {
    const service = await startFakeService((req, res) => {
      if (req.method === 'PATCH') return json(res, 404, { detail: 'Not found.' });
      if (req.url.startsWith('/v1/policies/p1/')) return json(res, 200, { id: 'p1', name: 'Refunds', current_version_id: null, created_at: '2026-01-01T00:00:00Z' });
      return json(res, 404, { detail: 'Not found.' });
    });
    const client = clientFor(service);
    try {
      const offered = (await rejectionOf(client.policies.update('p1', { name: 'New' }))) as ServiceError;
      assert.equal(offered.kind, 'unsupported');
      assert.equal(offered.message, 'This server does not offer renaming policies (it answered 404).');
      const gone = (await rejectionOf(client.policies.update('gone', { name: 'New' }))) as ServiceError;
      assert.equal(gone.kind, 'http');
      assert.equal(gone.status, 404);
      service.handle((_req, res) => json(res, 405, { detail: 'Method "POST" not allowed.' }));
      const create = (await rejectionOf(client.policies.create({ name: 'x', content: {} }))) as ServiceError;
      assert.equal(create.kind, 'unsupported');
      assert.equal(create.message, 'This server does not offer creating policies (it answered 405).');
    } finally {
      await client.close();
      await service.close();
    }
  });
});
