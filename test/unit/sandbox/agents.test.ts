import * as assert from 'node:assert/strict';
import { MISSING_ID, type TestSandbox, agentNamed, startTestSandbox } from './helpers';

const definition = { key: 'transcript', data_type: 'text/plain', description: 'Call text' };

describe('sandbox agents and agent versions', () => {
  let t: TestSandbox;
  before(async () => {
    t = await startTestSandbox();
  });
  after(() => t.close());

  async function createAgent(body: Record<string, unknown> = {}) {
    const answer = await t.call('POST', '/v1/agents/', { body: { name: 'Test agent', engine_class_id: 'document_classifier', ...body } });
    assert.equal(answer.status, 201, answer.text);
    return answer.body;
  }

  it('creates an agent with a first "unnamed version" and answers 201 with the base agent', async () => {
    const agent = await createAgent({ input_definitions: [definition], engine_config: { model: 'm' } });
    assert.equal(agent.name, 'Test agent');
    assert.equal(agent.engine_name, 'Document Classifier');
    assert.equal(agent.organization_id, t.orgId);
    assert.equal(agent.job_count, 0);
    assert.equal(agent.most_recent_job, null);
    assert.deepEqual(agent.tags, []);
    assert.equal(agent.creator.email, 'dana.whitfield@acme-support.example');
    assert.ok(agent.updated_at && agent.current_version_id);
    const current = await t.call('GET', `/v1/agents/${agent.id}/versions/current/`);
    assert.equal(current.body.id, agent.current_version_id);
    assert.equal(current.body.version_name, 'unnamed version');
    assert.deepEqual(current.body.input_definitions, [{ ...definition, example: '', accepts_multiple_files: false }]);
    assert.deepEqual(current.body.engine_config, { model: 'm' });
  });

  it('validates the fields of a new agent and names each bad one', async () => {
    const missing = await t.call('POST', '/v1/agents/', { body: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { name: ['This field is required.'], engine_class_id: ['This field is required.'] });
    const bad = await t.call('POST', '/v1/agents/', { body: { name: 'x'.repeat(201), engine_class_id: 'e'.repeat(201), disable_cache: 'yes' } });
    assert.deepEqual(bad.body, {
      name: ['Ensure this field has no more than 200 characters.'],
      engine_class_id: ['Ensure this field has no more than 200 characters.'],
      disable_cache: ['Must be a valid boolean.'],
    });
    const blank = await t.call('POST', '/v1/agents/', { body: { name: '   ', engine_class_id: 'x' } });
    assert.deepEqual(blank.body, { name: ['This field may not be blank.'] });
  });

  it('reads one agent and answers 404 for an id that names nothing', async () => {
    const agent = await agentNamed(t, 'Support Call QA');
    assert.equal((await t.call('GET', `/v1/agents/${agent.id}/`)).body.id, agent.id);
    assert.equal((await t.call('GET', `/v1/agents/${MISSING_ID}/`)).status, 404);
  });

  it('updates name, description and cache flags, and refuses an empty name', async () => {
    const agent = await createAgent();
    const updated = await t.call('PUT', `/v1/agents/${agent.id}/`, { body: { name: 'Renamed', description: 'd', disable_cache: true } });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.name, 'Renamed');
    assert.equal(updated.body.description, 'd');
    assert.equal(updated.body.disable_cache, true);
    assert.equal(updated.body.cache_failed_jobs, false);
    assert.ok(updated.body.updated_at >= agent.updated_at);
    const empty = await t.call('PUT', `/v1/agents/${agent.id}/`, { body: { name: '' } });
    assert.deepEqual(empty.body, { name: ['This field may not be blank.'] });
    const patched = await t.call('PATCH', `/v1/agents/${agent.id}/`, { body: { cache_failed_jobs: true } });
    assert.equal(patched.body.name, 'Renamed');
    assert.equal(patched.body.cache_failed_jobs, true);
  });

  it('creates a version that becomes current, with 201, and lists versions as a plain array, newest first', async () => {
    const agent = await createAgent();
    const created = await t.call('POST', `/v1/agents/${agent.id}/versions/`, {
      body: { input_definitions: [definition], engine_config: { temperature: '0.1' }, version_name: 'second', description: null },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.version_name, 'second');
    assert.equal(created.body.base_agent.current_version_id, created.body.id);
    assert.equal(created.body.engine_class_id, 'document_classifier');
    assert.equal(created.body.organization_id, t.orgId);
    assert.equal(created.body.readonly, false);
    const list = await t.call('GET', `/v1/agents/${agent.id}/versions/`);
    assert.ok(Array.isArray(list.body));
    assert.deepEqual(list.body.map((v: any) => v.version_name), ['second', 'unnamed version']);
    const one = await t.call('GET', `/v1/agents/${agent.id}/versions/${created.body.id}/?get_supports_eval=true`);
    assert.equal(one.body.supports_eval, true);
    assert.equal((await t.call('GET', `/v1/agents/${agent.id}/versions/${MISSING_ID}/`)).status, 404);
  });

  it('renames a version and changes its description with PATCH (200 and a message), refusing an empty name and ignoring other fields', async () => {
    const agent = await createAgent();
    const path = `/v1/agents/${agent.id}/versions/${agent.current_version_id}/`;
    const renamed = await t.call('PATCH', path, { body: { version_name: 'Stricter refunds', description: 'Tighter rule 4' } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(typeof renamed.body.message, 'string');
    const read = (await t.call('GET', path)).body;
    assert.deepEqual([read.version_name, read.description], ['Stricter refunds', 'Tighter rule 4']);
    const refused = await t.call('PATCH', path, { body: { version_name: '', engine_config: {} } });
    assert.equal(refused.status, 400);
    assert.deepEqual(Object.keys(refused.body), ['version_name'], 'unknown fields are ignored, as a serializer does');
    assert.equal((await t.call('GET', path)).body.version_name, 'Stricter refunds');
    assert.equal((await t.call('PATCH', `/v1/agents/${agent.id}/versions/${MISSING_ID}/`, { body: { version_name: 'x' } })).status, 404);
  });

  it('defaults the version name to "unnamed version" and requires definitions and config', async () => {
    const agent = await createAgent();
    const unnamed = await t.call('POST', `/v1/agents/${agent.id}/versions/`, { body: { input_definitions: [], engine_config: {} } });
    assert.equal(unnamed.body.version_name, 'unnamed version');
    const missing = await t.call('POST', `/v1/agents/${agent.id}/versions/`, { body: { prompt: 'p', description: 'd' } });
    assert.deepEqual(missing.body, { input_definitions: ['This field is required.'], engine_config: ['This field is required.'] });
    const blankName = await t.call('POST', `/v1/agents/${agent.id}/versions/`, { body: { input_definitions: [], engine_config: {}, version_name: '' } });
    assert.deepEqual(blankName.body, { version_name: ['This field may not be blank.'] });
  });

  it('names each bad input definition in place, as a list serializer does', async () => {
    const agent = await createAgent();
    const answer = await t.call('POST', `/v1/agents/${agent.id}/versions/`, {
      body: {
        engine_config: {},
        input_definitions: [definition, { data_type: 'pdf' }, 'text', { key: 'transcript', data_type: 'text/plain' }, { key: 'metadata', data_type: 'a/b', accepts_multiple_files: 1 }],
      },
    });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body.input_definitions, [
      {},
      { key: ['This field is required.'], data_type: ['Enter a media type such as "text/plain" or "application/pdf".'] },
      { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] },
      { key: ['The key "transcript" is used by another input definition.'] },
      { key: ['"metadata" is reserved for the run request itself.'], accepts_multiple_files: ['Must be a valid boolean.'] },
    ]);
  });

  it('accepts engine_config only as a map of strings to strings', async () => {
    const agent = await createAgent();
    const answer = await t.call('POST', `/v1/agents/${agent.id}/versions/`, {
      body: { input_definitions: [], engine_config: { model: 'm', temperature: 0.2, flags: null } },
    });
    assert.deepEqual(answer.body, { engine_config: { temperature: ['Not a valid string.'], flags: ['This field may not be null.'] } });
    const list = await t.call('POST', `/v1/agents/${agent.id}/versions/`, { body: { input_definitions: {}, engine_config: [] } });
    assert.deepEqual(list.body, {
      input_definitions: ['Expected a list of items but got type "dict".'],
      engine_config: ['Expected a dictionary of items but got type "list".'],
    });
  });

  it('duplicates an agent into "Copy of" it, ignoring a body as the live service does, with its first version copying the current one (201)', async () => {
    const source = await agentNamed(t, 'Support Call QA');
    const sourceVersion = (await t.call('GET', `/v1/agents/${source.id}/versions/current/`)).body;
    const copy = await t.call('POST', `/v1/agents/${source.id}/duplicate/`);
    assert.equal(copy.status, 201);
    assert.equal(copy.body.name, 'Copy of Support Call QA');
    assert.notEqual(copy.body.base_agent.id, source.id);
    assert.equal(copy.body.base_agent.current_version_id, copy.body.id);
    assert.equal(copy.body.base_agent.job_count, 0);
    assert.deepEqual(copy.body.input_definitions, sourceVersion.input_definitions);
    assert.deepEqual(copy.body.engine_config, sourceVersion.engine_config);
    assert.deepEqual(copy.body.base_agent.tags.map((tag: any) => tag.name), source.tags.map((tag: any) => tag.name));
    const versions = await t.call('GET', `/v1/agents/${copy.body.base_agent.id}/versions/`);
    assert.equal(versions.body.length, 1);
    const withBody = await t.call('POST', `/v1/agents/${source.id}/duplicate/`, { body: { name: 'QA copy' } });
    assert.equal(withBody.body.name, 'Copy of Support Call QA');
  });

  it('shows tags as the live service does: a colour name, a usage count and the creator as a user id', async () => {
    const agent = await agentNamed(t, 'Support Call QA');
    const tag = agent.tags.find((x: any) => x.name === 'production');
    assert.ok(['blue', 'green', 'purple', 'orange', 'red', 'yellow', 'gray', 'pink'].includes(tag.color), tag.color);
    assert.ok(tag.usage_count >= 3);
    assert.ok(tag.created_at);
    assert.equal(tag.creator, 2);
  });
});
