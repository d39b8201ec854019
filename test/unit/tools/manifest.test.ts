import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { languageModelToolSetsManifest, languageModelToolsManifest } from '../../../src/core/tools/manifest';

const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { contributes: Record<string, unknown> };
const regenerate = 'regenerate it with node --import tsx test/harness/toolManifest.ts';

describe("package.json's language model tools", () => {
  it('are the tool catalogue, with the input schemas generated from its zod schemas', () => {
    assert.deepEqual(pkg.contributes.languageModelTools, languageModelToolsManifest(), `package.json differs from the catalogue: ${regenerate}`);
  });

  it('are all in the Agent Workbench tool set', () => {
    assert.deepEqual(pkg.contributes.languageModelToolSets, languageModelToolSetsManifest(), regenerate);
  });

  it('each have a reference name, a description for people and one for the model', () => {
    for (const tool of pkg.contributes.languageModelTools as Record<string, string>[]) {
      assert.match(tool.toolReferenceName!, /^[a-zA-Z]+$/);
      assert.ok(tool.userDescription!.length > 10 && tool.userDescription!.length < tool.modelDescription!.length, tool.name);
    }
  });
});
