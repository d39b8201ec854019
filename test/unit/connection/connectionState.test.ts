import * as assert from 'node:assert/strict';
import { isNewState, type ConnectionState } from '../../../src/extension/connection/connectionState';

const info = { baseUrl: 'http://127.0.0.1:4010', organizationId: 'org-1', host: '127.0.0.1:4010', isSandbox: true };

describe('connection states', () => {
  it('do not announce a sign-out again each time the settings are read while signed out (no "Signed out" three times at start)', () => {
    const start: ConnectionState = { kind: 'signedOut' };
    assert.equal(isNewState(start, { kind: 'signedOut' }), false);
    assert.equal(isNewState({ kind: 'signedOut', problem: 'No service URL' }, { kind: 'signedOut', problem: 'No service URL' }), false);
  });

  it('announce connecting, a new problem, an expired token and every new connection', () => {
    assert.equal(isNewState({ kind: 'signedOut' }, { kind: 'connected', info }), true);
    assert.equal(isNewState({ kind: 'signedOut' }, { kind: 'signedOut', problem: 'The URL is not valid' }), true);
    assert.equal(isNewState({ kind: 'connected', info }, { kind: 'signedOut', expired: info }), true);
    assert.equal(isNewState({ kind: 'signedOut' }, { kind: 'signedOut', expired: info }), true);
    assert.equal(isNewState({ kind: 'connected', info }, { kind: 'connected', info }), true);
  });
});
