import * as assert from 'node:assert/strict';
import { isNewState, notConnectedWords, shownState, type ConnectionState } from '../../../src/extension/connection/connectionState';

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

// The demo is signed in, yet for half a minute at start the status bar said "signed out": the window
// had not read its token, nor applied the demo's connection, yet.
describe('the connection while the window starts', () => {
  it('says “connecting…”, never “signed out”, while no session is found before every way of connecting was tried', () => {
    const shown = shownState({ kind: 'signedOut' }, true);
    assert.deepEqual(shown, { kind: 'connecting' });
    assert.ok(shown.kind === 'connecting');
    const words = notConnectedWords(shown);
    assert.match(words.text, /connecting…/);
    assert.doesNotMatch(`${words.text} ${words.tooltip} ${words.label}`, /signed out/i);
    assert.deepEqual(shownState({ kind: 'signedOut', problem: 'No service URL' }, true), { kind: 'connecting' }, 'a provisioned connection may still sign in');
  });

  it('says “signed out” once it knows there is no session', () => {
    const shown = shownState({ kind: 'signedOut' }, false);
    assert.deepEqual(shown, { kind: 'signedOut' });
    assert.ok(shown.kind === 'signedOut');
    assert.match(notConnectedWords(shown).text, /signed out/);
    assert.deepEqual(shownState({ kind: 'connected', info }, true), { kind: 'connected', info }, 'connected is said at once');
  });

  it('says at once that the service refused the token, even while starting', () => {
    assert.deepEqual(shownState({ kind: 'signedOut', expired: info }, true), { kind: 'signedOut', expired: info });
  });

  it('announces the end of connecting, whatever it ends in, but not connecting twice', () => {
    assert.equal(isNewState({ kind: 'connecting' }, { kind: 'connecting' }), false);
    assert.equal(isNewState({ kind: 'connecting' }, { kind: 'signedOut' }), true);
    assert.equal(isNewState({ kind: 'connecting' }, { kind: 'connected', info }), true);
  });
});
