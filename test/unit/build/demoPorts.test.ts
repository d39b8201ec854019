import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { preferredPort } from '../../harness/index.mjs';

function listen(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

// `npm run demo` takes its last ports again when they are free, so the workbench (which keys open
// editors and unsaved edits by origin) finds its state.
describe('the demo’s ports', () => {
  it('takes the port of the last run when nothing listens on it', async () => {
    const server = await listen(0);
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    assert.equal(await preferredPort(port), port);
  });

  it('takes another free port when the last one is in use', async () => {
    const server = await listen(0);
    const { port } = server.address() as net.AddressInfo;
    try {
      const chosen = await preferredPort(port);
      assert.notEqual(chosen, port);
      assert.ok(chosen > 0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('ignores a port that is no port a user may take, and none at all', async () => {
    for (const odd of [undefined, 0, 80, 70000, 1.5, Number.NaN]) assert.ok((await preferredPort(odd)) >= 1024, String(odd));
  });
});
