import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonSchemaFiles } from '../../../src/core/documents/jsonSchemaFiles';
import { RUN_SCHEMA_URI } from '../../../src/core/documents/runtimeSchemas';

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { jsonValidation: { fileMatch: string; url: string }[] };
};

describe('JSON schemas of the manifest (jsonValidation)', () => {
  it('names only schema files of the extension, so VS Code loads the manifest without an error', () => {
    const built = new Set(Object.keys(jsonSchemaFiles()).map((name) => `./dist/schemas/${name}`));
    const wrong = manifest.contributes.jsonValidation.filter((entry) => !entry.url.startsWith('./') || !built.has(entry.url)).map((entry) => entry.url);
    assert.deepEqual(wrong, []);
  });

  it('gives run files the schema built from their agents’ input definitions', () => {
    const entry = manifest.contributes.jsonValidation.find((e) => e.fileMatch === '*.agentrun.json');
    const file = entry?.url.replace('./dist/schemas/', '') ?? '';
    assert.deepEqual(jsonSchemaFiles()[file], { $ref: RUN_SCHEMA_URI });
  });
});
