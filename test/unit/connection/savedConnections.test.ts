import * as assert from 'node:assert/strict';
import type { Memento } from 'vscode';
import { SavedConnections } from '../../../src/extension/connection/savedConnections';

/** A Memento in memory, as globalState is. */
function memento(initial: Record<string, unknown> = {}): Memento {
  const values = new Map(Object.entries(initial));
  return {
    keys: () => [...values.keys()],
    get: <T>(key: string, fallback?: T) => (values.has(key) ? values.get(key) : fallback),
    update: (key: string, value: unknown) => {
      values.set(key, value);
      return Promise.resolve();
    },
  };
}

const ORG_A = '3f2b8c1e-0d4a-4c57-9a1e-6b5f0e2d9c11';
const ORG_B = '9a1e6b5f-0d4a-4c57-3f2b-8c1e0e2d9c11';

describe('kept connections', () => {
  it('keeps each service and organization once, the most recently used first', async () => {
    const saved = new SavedConnections(memento());
    await saved.remember({ baseUrl: 'https://a.example', organizationId: ORG_A });
    await saved.remember({ baseUrl: 'https://b.example', organizationId: ORG_A });
    await saved.remember({ baseUrl: 'https://a.example', organizationId: ORG_A.toUpperCase() });
    await saved.remember({ baseUrl: 'https://a.example', organizationId: ORG_B });
    assert.deepEqual(saved.list(), [
      { baseUrl: 'https://a.example', organizationId: ORG_B },
      { baseUrl: 'https://a.example', organizationId: ORG_A.toUpperCase() },
      { baseUrl: 'https://b.example', organizationId: ORG_A },
    ]);
  });

  it('forgets one connection and leaves the others', async () => {
    const saved = new SavedConnections(memento());
    await saved.remember({ baseUrl: 'https://a.example', organizationId: ORG_A });
    await saved.remember({ baseUrl: 'https://b.example', organizationId: ORG_B });
    await saved.forget({ baseUrl: 'https://a.example', organizationId: ORG_A });
    assert.deepEqual(saved.list(), [{ baseUrl: 'https://b.example', organizationId: ORG_B }]);
  });

  it('reads a damaged stored list as the entries that make sense', () => {
    const saved = new SavedConnections(memento({ 'agentWorkbench.connections': [null, 'x', { baseUrl: 'https://a.example' }, { baseUrl: 'https://b.example', organizationId: ORG_B }] }));
    assert.deepEqual(saved.list(), [{ baseUrl: 'https://b.example', organizationId: ORG_B }]);
    assert.deepEqual(new SavedConnections(memento({ 'agentWorkbench.connections': 'oops' })).list(), []);
  });
});
