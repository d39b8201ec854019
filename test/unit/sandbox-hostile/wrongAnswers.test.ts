import * as assert from 'node:assert/strict';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_INPUTS } from '../../../src/sandbox/seed/demoLoop';
import { type TestSandbox, startTestSandbox } from '../sandbox/helpers';
import { assertRefusedWithSentence, everyOrgFingerprint } from './support';

describe('sandbox under hostile input: answers that were wrong', function () {
  this.timeout(60_000);
  let t: TestSandbox;
  before(async () => {
    t = await startTestSandbox();
  });
  after(() => t.close());

  async function tableQuery(sql: string): Promise<any> {
    const submitted = await t.call('POST', '/v1/tables/query/', { body: { sql } });
    for (;;) {
      const answer = await t.call('GET', `/v1/tables/query/${submitted.body.table_query_id}/result/`);
      if (answer.body.status === 'SUCCESS' || answer.body.status === 'FAILURE') return answer.body;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('refuses to delete a policy that a version names with spaces around its id, which the engine follows', async () => {
    const policy = (await t.call('POST', '/v1/policies/', { body: { name: 'Spaced', content: { guidelines: { categories: [] } } } })).body;
    const agent = await t.call('POST', '/v1/agents/', {
      body: { name: 'Spaced policy agent', engine_class_id: 'llm_conversation_reviewer', engine_config: { policy_id: `  ${policy.id.toUpperCase()} ` } },
    });
    assert.equal(agent.status, 201, agent.text);
    const refused = await t.call('DELETE', `/v1/policies/${policy.id}/`);
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.dependent_agents[0].base_agent_id, agent.body.id);
    assert.equal((await t.call('GET', `/v1/policies/${policy.id}/`)).status, 200);
  });

  it('keeps a result column named __proto__ and both columns of a repeated name', async () => {
    const proto = await tableQuery('SELECT 1 AS __proto__, 2 AS b');
    assert.equal(proto.status, 'SUCCESS', proto.error);
    assert.deepEqual(proto.columns.map((c: any) => c.name), ['__proto__', 'b']);
    assert.deepEqual(Object.keys(proto.rows[0]), ['__proto__', 'b']);
    assert.equal(JSON.stringify(proto.rows[0]), '{"__proto__":1,"b":2}');
    const twice = await tableQuery('SELECT 1 AS a, 2 AS a');
    assert.deepEqual(twice.columns.map((c: any) => c.name), ['a', 'a_2']);
    assert.deepEqual(twice.rows, [{ a: 1, a_2: 2 }]);
  });

  it('names the wrong type of a batch body (null) the way every other endpoint does', async () => {
    const many = await t.call('POST', `/v1/agents/run/${DEMO_LOOP_AGENT_ID}/async/many/`, { rawBody: 'null', headers: { 'Content-Type': 'application/json' } });
    const agents = await t.call('POST', '/v1/agents/', { rawBody: 'null', headers: { 'Content-Type': 'application/json' } });
    assert.equal(many.status, 400);
    assert.deepEqual(many.body, { non_field_errors: ['Invalid data. Expected a dictionary, but got NoneType.'] });
    assert.deepEqual(many.body, agents.body);
    const number = await t.call('POST', `/v1/agents/run/${DEMO_LOOP_AGENT_ID}/async/many/`, { rawBody: '3', headers: { 'Content-Type': 'application/json' } });
    assert.deepEqual(number.body, { non_field_errors: ['Invalid data. Expected a dictionary, but got int.'] });
  });

  it('refuses a multipart run whose file has no name, as dataset upload does, and starts no job', async () => {
    const before = await everyOrgFingerprint(t);
    const form = new FormData();
    for (const [key, value] of Object.entries(DEMO_LOOP_INPUTS)) if (key !== 'transcript') form.append(key, value);
    form.append('transcript', new Blob(['Agent: hello'], { type: 'application/octet-stream' }), '');
    const answer = await t.call('POST', `/v1/agents/run/${DEMO_LOOP_AGENT_ID}/async/`, { rawBody: form });
    assertRefusedWithSentence(answer, 'a file without a name');
    assert.match(answer.text, /No filename could be determined/);
    assert.deepEqual(await everyOrgFingerprint(t), before);
  });

  for (const id of ['../../etc', 'a/b', '..', 'x\u0000y']) {
    it(`refuses ${JSON.stringify(id)} as an engine class id and creates nothing`, async () => {
      const before = await everyOrgFingerprint(t);
      const answer = await t.call('POST', '/v1/agents/', { body: { name: 'Path engine', engine_class_id: id } });
      assert.equal(answer.status, 400, answer.text);
      assert.ok(answer.body.engine_class_id, answer.text);
      assert.deepEqual(await everyOrgFingerprint(t), before);
    });
  }
});
