import * as assert from 'node:assert/strict';
import { AgentVersionDraftSchema, draftFromVersion, nextVersionName } from '../../../src/core/documents/agentVersionDraft';
import { checkJson, locateFieldErrors } from '../../../src/core/documents/jsonProblems';
import { jsonSchemaFiles } from '../../../src/core/documents/jsonSchemaFiles';
import type { AgentVersion } from '../../../src/core/client';

const version = {
  id: 'v1',
  name: 'Reviewer',
  version_name: 'v3',
  created_at: '2026-11-01T00:00:00Z',
  engine_class_id: 'llm',
  input_definitions: [{ key: 'transcript', data_type: 'text/plain', description: 'The conversation', example: '', accepts_multiple_files: false }],
  engine_config: { model: 'gpt', temperature: 0.2 },
  organization_id: 'o',
  readonly: false,
  base_agent: {},
  description: null,
} as unknown as AgentVersion;

describe('agent version drafts', () => {
  it('start from the version they copy, with the next version name and text-only engine config', () => {
    const draft = draftFromVersion(version);
    assert.equal(draft.version_name, 'v4');
    assert.deepEqual(draft.engine_config, { model: 'gpt', temperature: '0.2' });
    assert.deepEqual(draft.input_definitions[0], { key: 'transcript', data_type: 'text/plain', description: 'The conversation', accepts_multiple_files: false });
    assert.equal(checkJson(JSON.stringify(draft, null, 2), AgentVersionDraftSchema).ok, true);
  });

  it('name the next version after the number in the name', () => {
    assert.equal(nextVersionName('release 1.9'), 'release 1.10');
    assert.equal(nextVersionName('unnamed version'), 'unnamed version (next)');
  });

  it('point at the exact field of each problem', () => {
    const text = '{\n  "input_definitions": [{ "key": "", "data_type": "text/plain" }],\n  "engine_config": { "temperature": 0.2 },\n  "colour": "red"\n}';
    const check = checkJson(text, AgentVersionDraftSchema);
    assert.equal(check.ok, false);
    if (check.ok) return;
    const byMessage = Object.fromEntries(check.problems.map((p) => [p.message, text.slice(p.offset, p.offset + p.length)]));
    assert.deepEqual(Object.keys(byMessage).sort(), ['engine_config.temperature: must be a string, not a number', 'input_definitions[0].key: must not be empty', 'unknown field "colour"'].sort());
    assert.equal(byMessage['input_definitions[0].key: must not be empty'], '"key"');
    assert.equal(byMessage['engine_config.temperature: must be a string, not a number'], '"temperature"');
  });

  it('report JSON syntax errors with their place', () => {
    const check = checkJson('{ "input_definitions": [ }', AgentVersionDraftSchema);
    assert.ok(!check.ok && check.problems[0]!.message.startsWith('JSON syntax:'));
    const empty = checkJson('', AgentVersionDraftSchema);
    assert.ok(!empty.ok);
  });

  it('put the service field errors on the fields they name', () => {
    const text = '{ "version_name": "x", "engine_config": {} }';
    const [problem] = locateFieldErrors(text, { version_name: ['Ensure this field has no more than 255 characters.'] });
    assert.equal(text.slice(problem!.offset, problem!.offset + problem!.length), '"version_name"');
  });

  it('generate an editor schema from the same definition', () => {
    const schema = jsonSchemaFiles()['agent-version-draft.schema.json'] as { properties: Record<string, { description?: string }>; required: string[]; additionalProperties: boolean };
    assert.deepEqual(schema.required.sort(), ['engine_config', 'input_definitions']);
    assert.equal(schema.additionalProperties, false);
    assert.match(schema.properties.engine_config!.description ?? '', /text keys to text values/);
  });
});
