import * as assert from 'node:assert/strict';
import { MISSING_ID, type TestSandbox, agentNamed, startTestSandbox } from './helpers';

const content = {
  guidelines: { categories: [{ title: 'Greeting', rules: [{ title: 'Says hello', flag: 'GREEN_FLAG', sub_rules: [{ title: 'By name' }] }] }] },
  instructions: 'Be fair.',
  dispositions: { classifications: [{ name: 'OK', description: 'fine', prompt: 'when fine' }] },
  summary_template: { template: '{{#each items}}- {{this}}\n{{/each}}' },
};

/** Content as sent, from content as stored: the service gives categories, rules and sub-rules ids of its own. */
const withoutIds = (stored: unknown): unknown => JSON.parse(JSON.stringify(stored, (key, value: unknown) => (key === 'id' ? undefined : value)));

describe('sandbox policies and policy versions', () => {
  let t: TestSandbox;
  before(async () => {
    t = await startTestSandbox();
  });
  after(() => t.close());

  const createPolicy = async (body: Record<string, unknown> = {}) => {
    const answer = await t.call('POST', '/v1/policies/', { body: { name: 'Test policy', content, ...body } });
    assert.equal(answer.status, 201, answer.text);
    return answer.body;
  };
  const versions = async (policyId: string, query = '') => (await t.call('GET', `/v1/policies/${policyId}/versions/?${query}`)).body;

  it('lists the demo policies with search and ordering', async () => {
    const all = (await t.call('GET', '/v1/policies/')).body;
    assert.ok(all.count >= 4);
    for (const key of ['id', 'name', 'description', 'organization_id', 'current_version_id', 'created_at', 'updated_at']) assert.ok(key in all.results[0], key);
    assert.deepEqual((await t.call('GET', '/v1/policies/?search=REFUND')).body.results.map((p: any) => p.name), ['Refund & Billing Compliance']);
    const byUpdate = (await t.call('GET', '/v1/policies/?ordering=-updated_at')).body.results.map((p: any) => p.updated_at);
    assert.deepEqual(byUpdate, [...byUpdate].sort().reverse());
  });

  it('creates a policy with its first version named "version 1" (201)', async () => {
    const policy = await createPolicy({ description: 'About tests' });
    assert.equal(policy.description, 'About tests');
    const list = await versions(policy.id);
    assert.equal(list.count, 1);
    assert.equal(list.results[0].version_name, 'version 1');
    assert.equal(list.results[0].id, policy.current_version_id);
    assert.deepEqual(withoutIds(list.results[0].content), content);
    assert.equal(list.results[0].created_by.display_name, 'Dana Whitfield');
    assert.equal(list.results[0].policy.id, policy.id);
  });

  it('makes a new version current and leaves earlier versions unchanged', async () => {
    const policy = await createPolicy();
    const first = (await versions(policy.id)).results[0];
    const created = await t.call('POST', `/v1/policies/${policy.id}/versions/`, { body: { content: { instructions: 'v2' }, base_version_id: first.id } });
    assert.equal(created.status, 201);
    assert.equal(created.body.version_name, 'version 2');
    assert.equal(created.body.base_version_id, first.id);
    assert.deepEqual(created.body.content, { instructions: 'v2' });
    assert.equal((await t.call('GET', `/v1/policies/${policy.id}/`)).body.current_version_id, created.body.id);
    const earlier = await t.call('GET', `/v1/policies/${policy.id}/versions/${first.id}/`);
    assert.deepEqual(earlier.body.content, first.content, 'unchanged, ids included');
    assert.deepEqual(withoutIds(earlier.body.content), content);
    assert.equal(earlier.body.updated_at, first.updated_at);
    const third = await t.call('POST', `/v1/policies/${policy.id}/versions/`, { body: { content: {}, version_name: 'Named' } });
    assert.equal(third.body.version_name, 'Named');
    const fourth = await t.call('POST', `/v1/policies/${policy.id}/versions/`, { body: { content: {} } });
    assert.equal(fourth.body.version_name, 'version 4');
  });

  it('refuses a base version of another policy, and a version name out of bounds', async () => {
    const a = await createPolicy();
    const b = await createPolicy();
    const answer = await t.call('POST', `/v1/policies/${a.id}/versions/`, { body: { content: {}, base_version_id: b.current_version_id } });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, { base_version_id: ['This version does not belong to this policy.'] });
    const long = await t.call('POST', `/v1/policies/${a.id}/versions/`, { body: { content: {}, version_name: 'v'.repeat(256), base_version_id: 'x' } });
    assert.deepEqual(long.body, { version_name: ['Ensure this field has no more than 255 characters.'], base_version_id: ['Must be a valid UUID.'] });
    assert.deepEqual((await t.call('POST', `/v1/policies/${a.id}/versions/`, { body: {} })).body, { content: ['This field is required.'] });
  });

  it('checks the shape of policy content and names the place of each problem', async () => {
    const answer = await t.call('POST', '/v1/policies/', {
      body: {
        name: 'Bad',
        content: {
          guidelines: { categories: [{ rules: [{ title: 'r', flag: 'YELLOW_FLAG', sub_rules: [{}] }] }] },
          dispositions: { classifications: [{ description: 'no name' }] },
          instructions: 5,
          summary_template: { template: '{{#each x}}unclosed' },
        },
      },
    });
    assert.equal(answer.status, 400);
    const problems: string[] = answer.body.content;
    assert.ok(problems.includes('guidelines.categories[0].title: This field is required.'));
    assert.ok(problems.includes('guidelines.categories[0].rules[0].flag: "YELLOW_FLAG" is not a valid choice (GREEN_FLAG or RED_FLAG).'));
    assert.ok(problems.includes('guidelines.categories[0].rules[0].sub_rules[0].title: This field is required.'));
    assert.ok(problems.includes('dispositions.classifications[0].name: This field is required.'));
    assert.ok(problems.includes('instructions: Not a valid string.'));
    assert.ok(problems.some((p) => p.startsWith('summary_template.template: Not a valid Handlebars template')));
    assert.deepEqual((await t.call('POST', '/v1/policies/', { body: { name: 'x', content: [] } })).body, { content: ['Expected a JSON object but got a list.'] });
    assert.deepEqual((await t.call('POST', '/v1/policies/', { body: { content: {} } })).body, { name: ['This field is required.'] });
  });

  it('renames and describes a policy with PUT or PATCH', async () => {
    const policy = await createPolicy();
    const put = await t.call('PUT', `/v1/policies/${policy.id}/`, { body: { name: 'Renamed', description: 'New' } });
    assert.equal(put.status, 200);
    assert.equal(put.body.name, 'Renamed');
    const patch = await t.call('PATCH', `/v1/policies/${policy.id}/`, { body: { description: '' } });
    assert.equal(patch.body.name, 'Renamed');
    assert.equal(patch.body.description, '');
    assert.deepEqual((await t.call('PATCH', `/v1/policies/${policy.id}/`, { body: { name: '' } })).body, { name: ['This field may not be blank.'] });
  });

  it('deletes an unused policy with 204 and refuses one that agents use with 409 naming them', async () => {
    const unused = await createPolicy();
    const deleted = await t.call('DELETE', `/v1/policies/${unused.id}/`);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    assert.equal((await t.call('GET', `/v1/policies/${unused.id}/`)).status, 404);
    const used = (await t.call('GET', '/v1/policies/?search=call quality')).body.results[0];
    const refused = await t.call('DELETE', `/v1/policies/${used.id}/`);
    assert.equal(refused.status, 409);
    assert.ok(refused.body.error);
    const qa = await agentNamed(t, 'Support Call QA');
    const versions = (await t.call('GET', `/v1/agents/${qa.id}/versions/`)).body;
    assert.deepEqual(
      refused.body.dependent_agents,
      versions.map((v: any) => ({ base_agent_id: qa.id, agent_name: 'Support Call QA', version_id: v.id, version_name: v.version_name })),
    );
    assert.equal(refused.body.error, `The policy is used by ${versions.length} versions of 1 agent; point them at another policy first.`);
    assert.equal((await t.call('DELETE', `/v1/policies/${MISSING_ID}/`)).status, 404);
  });

  it('pages, searches and orders the versions of a policy', async () => {
    const used = (await t.call('GET', '/v1/policies/?search=call quality')).body.results[0];
    const list = await versions(used.id, 'page_size=2');
    assert.equal(list.count, 3);
    assert.equal(list.results[0].id, used.current_version_id);
    assert.ok(list.next);
    assert.equal((await versions(used.id, 'search=recording')).count, 1);
    const named = (await versions(used.id, 'ordering=version_name')).results.map((v: any) => v.version_name);
    assert.deepEqual(named, [...named].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    assert.equal((await t.call('GET', `/v1/policies/${used.id}/versions/${MISSING_ID}/`)).status, 404);
  });
});
