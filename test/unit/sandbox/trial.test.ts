import * as assert from 'node:assert/strict';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_INPUTS } from '../../../src/sandbox/seed/demoLoop';
import { type TestSandbox, startTestSandbox } from './helpers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('sandbox: what a trial does (policies, duplicated agents, versions and their deletion)', function () {
  this.timeout(60_000);
  let t: TestSandbox;
  before(async () => {
    t = await startTestSandbox();
  });
  after(() => t.close());

  const content = (ids: boolean) => ({
    guidelines: {
      categories: [
        {
          ...(ids ? { id: 'cat-1' } : {}), title: 'Refunds',
          rules: [{ ...(ids ? { id: 'rule-1' } : {}), title: 'Promises a refund', flag: 'RED_FLAG', sub_rules: [{ ...(ids ? { id: 'sub-1' } : {}), title: 'In writing' }] }],
        },
      ],
    },
  });
  const idsOf = (stored: any): string[] => {
    const category = stored.guidelines.categories[0];
    return [category.id, category.rules[0].id, category.rules[0].sub_rules[0].id];
  };
  const withoutIds = (stored: any): unknown => JSON.parse(JSON.stringify(stored, (key, value) => (key === 'id' ? undefined : value)));

  it('gives every category, rule and sub-rule a fresh id on each create of a policy version, ignoring ids sent', async () => {
    const created = await t.call('POST', '/v1/policies/', { body: { name: 'Trial policy', content: content(true) } });
    assert.equal(created.status, 201, created.text);
    const first = (await t.call('GET', `/v1/policies/${created.body.id}/versions/${created.body.current_version_id}/`)).body.content;
    const again = await t.call('POST', `/v1/policies/${created.body.id}/versions/`, { body: { content: first } });
    assert.equal(again.status, 201, again.text);
    const second = (await t.call('GET', `/v1/policies/${created.body.id}/versions/${again.body.id}/`)).body.content;
    const ids = [...idsOf(first), ...idsOf(second)];
    assert.ok(ids.every((id) => UUID.test(id)), ids.join(', '));
    assert.equal(new Set(ids).size, 6, 'every id is new');
    assert.deepEqual(withoutIds(first), content(false));
    assert.deepEqual(withoutIds(second), content(false));
  });

  it('counts the jobs of a duplicated agent in its job_count like any agent’s', async () => {
    const copy = await t.call('POST', `/v1/agents/${DEMO_LOOP_AGENT_ID}/duplicate/`);
    assert.equal(copy.status, 201, copy.text);
    const agentId = copy.body.base_agent.id;
    assert.equal((await t.call('PATCH', `/v1/agents/${agentId}/`, { body: { name: 'Trial copy' } })).status, 200);
    assert.equal((await t.call('GET', `/v1/agents/${agentId}/`)).body.job_count, 0);
    for (const language of ['en', 'fr']) {
      assert.equal((await t.call('POST', `/v1/agents/run/${agentId}/async/`, { body: { ...DEMO_LOOP_INPUTS, language } })).status, 200);
    }
    assert.equal((await t.call('GET', `/v1/agents/${agentId}/`)).body.job_count, 2);
    const listed = (await t.call('GET', '/v1/agents/?search=Trial copy')).body.results.find((a: any) => a.id === agentId);
    assert.equal(listed.job_count, 2);
  });

  it('deletes a version that is not current (with its jobs), refuses the current one, and deletes an agent', async () => {
    const agent = (await t.call('POST', '/v1/agents/', { body: { name: 'Trial versions', engine_class_id: 'document_classifier' } })).body;
    const first = agent.current_version_id;
    const second = await t.call('POST', `/v1/agents/${agent.id}/versions/`, { body: { version_name: 'second', engine_config: {}, input_definitions: [] } });
    assert.equal(second.status, 201, second.text);
    assert.equal((await t.call('POST', `/v1/agents/run/${agent.id}/versions/${first}/async/`, { body: {} })).status, 200);
    assert.equal((await t.call('GET', `/v1/agents/${agent.id}/`)).body.job_count, 1);
    const current = (await t.call('GET', `/v1/agents/${agent.id}/`)).body.current_version_id;
    const refused = await t.call('DELETE', `/v1/agents/${agent.id}/versions/${current}/`);
    assert.equal(refused.status, 400);
    assert.match(refused.text, /current version/);
    const old = current === first ? second.body.id : first;
    assert.equal((await t.call('DELETE', `/v1/agents/${agent.id}/versions/${old}/`)).status, 204);
    assert.equal((await t.call('GET', `/v1/agents/${agent.id}/versions/${old}/`)).status, 404);
    assert.equal((await t.call('GET', `/v1/agents/${agent.id}/`)).body.job_count, current === first ? 1 : 0);
    assert.equal((await t.call('DELETE', `/v1/agents/${agent.id}/`)).status, 204);
    assert.equal((await t.call('GET', `/v1/agents/${agent.id}/`)).status, 404);
    assert.equal((await t.call('DELETE', `/v1/agents/${agent.id}/`)).status, 404);
  });

  it('answers 409 to deleting a policy that any version of an agent names, current or not, until the agent is gone', async () => {
    const policy = (await t.call('POST', '/v1/policies/', { body: { name: 'Named by an old version', content: content(false) } })).body;
    const agent = (await t.call('POST', '/v1/agents/', {
      body: { name: 'Trial policy user', engine_class_id: 'llm_conversation_reviewer', engine_config: { policy_id: ` ${policy.id} ` } },
    })).body;
    await t.call('POST', `/v1/agents/${agent.id}/versions/`, { body: { version_name: 'no policy', engine_config: { policy_id: '' }, input_definitions: [] } });
    const refused = await t.call('DELETE', `/v1/policies/${policy.id}/`);
    assert.equal(refused.status, 409, refused.text);
    assert.deepEqual(refused.body.dependent_agents.map((d: any) => d.version_id), [agent.current_version_id]);
    assert.equal((await t.call('DELETE', `/v1/agents/${agent.id}/`)).status, 204);
    assert.equal((await t.call('DELETE', `/v1/policies/${policy.id}/`)).status, 204);
  });
});
