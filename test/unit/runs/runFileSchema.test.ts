// The editor's schema of run files: built from the input definitions of the versions run files name.
import * as assert from 'node:assert/strict';
import { inputKind, inputSetSchema, runFileJsonSchema } from '../../../src/core/runs/runFileSchema';

const definitions = [
  { key: 'transcript', data_type: 'text/plain', description: 'The call transcript.', example: 'Agent: Hello' },
  { key: 'schema', data_type: 'application/json', example: '{"type":"object"}' },
  { key: 'document', data_type: 'application/pdf', example: 'INV-1.pdf' },
];

describe('run file schema', () => {
  it('knows text, JSON and file inputs by their data type', () => {
    assert.deepEqual(definitions.map(inputKind), ['text', 'json', 'file']);
    assert.equal(inputKind({ data_type: null }), 'text');
  });

  it('requires every input, refuses unknown keys, and carries descriptions and examples', () => {
    const set = inputSetSchema(definitions) as { required: string[]; additionalProperties: boolean; properties: Record<string, { markdownDescription: string; examples?: unknown[] }> };
    assert.deepEqual(set.required, ['transcript', 'schema', 'document']);
    assert.equal(set.additionalProperties, false);
    assert.match(set.properties.transcript!.markdownDescription, /The call transcript\./);
    assert.deepEqual(set.properties.schema!.examples, [{ type: 'object' }]);
    assert.match(set.properties.document!.markdownDescription, /relative to the workspace folder/);
  });

  it('applies a version\'s inputs only to run files naming that agent and version', () => {
    const schema = runFileJsonSchema([
      { agentId: 'a1', agentName: 'QA', versionName: 'v2', definitions },
      { agentId: 'a1', agentName: 'QA', versionId: 'v1', versionName: 'v1', definitions: [] },
    ]) as { properties: Record<string, unknown>; required: string[]; allOf: Array<{ if: { properties: Record<string, { const: string }>; not?: unknown } }> };
    assert.ok(schema.properties.agent && schema.properties.inputs && schema.required.includes('agent'));
    assert.equal(schema.allOf.length, 2);
    assert.deepEqual(schema.allOf[0]!.if.not, { required: ['version'] }, 'the current version applies when no version is named');
    assert.equal(schema.allOf[1]!.if.properties.version!.const, 'v1');
    assert.equal(runFileJsonSchema([]).allOf, undefined);
  });
});
