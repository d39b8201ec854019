import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MCP_PROVIDER_ID, MCP_SERVER_LABEL, UNSTARTED_URL, offeredDefinition, resolvedDefinition } from '../../../src/core/mcp/editorDefinition';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { contributes: Record<string, { id: string; label: string }[] | undefined> };

describe('the MCP server definition VS Code is offered', () => {
  it('names no port and no token before the server starts', () => {
    const offered = offeredDefinition('1.2.3', false);
    assert.deepEqual(offered, { label: MCP_SERVER_LABEL, url: UNSTARTED_URL, headers: {}, version: '1.2.3' });
  });

  it('changes its version when only the reads are offered, so VS Code lists the tools again once the workspace is trusted', () => {
    assert.notEqual(offeredDefinition('1.2.3', true).version, offeredDefinition('1.2.3', false).version);
  });

  it('carries the running server\'s URL and token header once resolved, leaving the offered definition as it was', () => {
    const offered = offeredDefinition('1.2.3', false);
    const headers = { Authorization: 'Bearer abc' };
    const resolved = resolvedDefinition(offered, { url: 'http://127.0.0.1:4321/mcp', headers });
    assert.deepEqual(resolved, { label: MCP_SERVER_LABEL, url: 'http://127.0.0.1:4321/mcp', headers: { Authorization: 'Bearer abc' }, version: '1.2.3' });
    assert.deepEqual(offered.headers, {});
    headers.Authorization = 'changed';
    assert.equal(resolved.headers.Authorization, 'Bearer abc', 'a copy: nothing the server holds is shared');
  });

  it('is contributed in package.json under the stable name and the name VS Code 1.100\'s proposal reads, with the provider\'s id', () => {
    for (const point of ['mcpServerDefinitionProviders', 'modelContextServerCollections']) {
      assert.deepEqual(manifest.contributes[point], [{ id: MCP_PROVIDER_ID, label: MCP_SERVER_LABEL }], point);
    }
  });
});
