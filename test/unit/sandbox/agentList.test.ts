import * as assert from 'node:assert/strict';
import { request } from 'undici';
import { type TestSandbox, startTestSandbox } from './helpers';

describe('sandbox agents list', () => {
  let t: TestSandbox;
  const names = async (query: string) => (await t.call('GET', `/v1/agents/?page_size=100&${query}`)).body.results.map((a: any) => a.name);

  before(async () => {
    t = await startTestSandbox();
  });
  after(() => t.close());

  it('pages with absolute next and previous links built from the Host header', async () => {
    const url = `${t.baseUrl}/v1/agents/?organization_id=${t.orgId}&page_size=3&page=2&ordering=name`;
    const answer = await request(url, { headers: { authorization: `Bearer ${t.token}`, host: 'api.example.test:8443' } });
    const body = (await answer.body.json()) as any;
    assert.equal(body.count, 7);
    assert.equal(body.results.length, 3);
    assert.equal(body.next, `http://api.example.test:8443/v1/agents/?organization_id=${t.orgId}&page_size=3&page=3&ordering=name`);
    assert.equal(body.previous, `http://api.example.test:8443/v1/agents/?organization_id=${t.orgId}&page_size=3&ordering=name`);
  });

  it('walks every page without repeating or skipping an agent', async () => {
    const seen: string[] = [];
    let next: string | null = `/v1/agents/?page_size=2&ordering=-job_count`;
    while (next) {
      const page: any = await t.call('GET', next);
      seen.push(...page.body.results.map((a: any) => a.id));
      next = page.body.next;
    }
    assert.equal(seen.length, 7);
    assert.equal(new Set(seen).size, 7);
  });

  it('answers 404 "Invalid page." past the last page, and 400 for bad page numbers', async () => {
    assert.deepEqual((await t.call('GET', '/v1/agents/?page=99')).body, { detail: 'Invalid page.' });
    assert.equal((await t.call('GET', '/v1/agents/?page=99')).status, 404);
    assert.deepEqual((await t.call('GET', '/v1/agents/?page=0&page_size=x')).body, {
      page: ['Ensure this value is greater than or equal to 1.'],
      page_size: ['A valid integer is required.'],
    });
  });

  it('takes a page_size over the cap of 1000 without complaint', async () => {
    const answer = await t.call('GET', '/v1/agents/?page_size=5000');
    assert.equal(answer.status, 200);
    assert.equal(answer.body.results.length, 7);
  });

  it('orders by every documented field in both directions', async () => {
    const byName = await names('ordering=name');
    assert.deepEqual(byName, [...byName].sort((a: string, b: string) => a.localeCompare(b)));
    assert.deepEqual(await names('ordering=-name'), [...byName].reverse());
    for (const field of ['created_at', 'updated_at', 'most_recent_job', 'job_count', 'engine_class_id', 'creator']) {
      const up = (await t.call('GET', `/v1/agents/?ordering=${field}`)).body.results;
      const down = (await t.call('GET', `/v1/agents/?ordering=-${field}`)).body.results;
      assert.equal(up.length, 7, field);
      const key = (a: any) => (field === 'creator' ? a.creator?.display_name.toLowerCase() : field === 'most_recent_job' ? a.most_recent_job : a[field]);
      for (let i = 1; i < up.length; i++) {
        assert.ok(key(up[i - 1]) <= key(up[i]), `${field} ascending`);
        assert.ok(key(down[i - 1]) >= key(down[i]), `${field} descending`);
      }
    }
    assert.deepEqual((await t.call('GET', '/v1/agents/?ordering=color')).body, { ordering: ['Select a valid choice. color is not one of the available choices.'] });
  });

  it('filters by engine, repeated or excluded', async () => {
    assert.equal((await names('engine_class_id=document_classifier')).length, 3);
    assert.equal((await names('engine_class_id=document_classifier&engine_class_id=structured_extractor')).length, 4);
    assert.equal((await names('exclude_engine_class_id=llm_conversation_reviewer')).length, 4);
  });

  it('filters by tag ids (any of them) and rejects a tag that is not a UUID', async () => {
    const all = (await t.call('GET', '/v1/agents/')).body.results;
    const tagId = (name: string) => all.flatMap((a: any) => a.tags).find((tag: any) => tag.name === name).id;
    assert.deepEqual((await names(`tags=${tagId('deprecated')}`)), ['Contract Type Classifier']);
    assert.equal((await names(`tags=${tagId('deprecated')}&tags=${tagId('pilot')}`)).length, 4);
    assert.equal((await t.call('GET', '/v1/agents/?tags=pilot')).status, 400);
  });

  it('searches name, id, engine, creator and tags case-insensitively', async () => {
    assert.deepEqual(await names('search=REFUND'), ['Refund Request Reviewer']);
    assert.equal((await names('search=document classifier')).length, 3);
    assert.ok((await names('search=priya')).includes('Support Call QA'));
    assert.deepEqual(await names('search=deprecated'), ['Contract Type Classifier']);
    const agent = (await t.call('GET', '/v1/agents/?search=kyc')).body.results[0];
    assert.deepEqual(await names(`search=${agent.id.slice(0, 13).toUpperCase()}`), ['KYC Document Sorter']);
    assert.deepEqual(await names(`search=${agent.current_version_id}`), ['KYC Document Sorter']);
    assert.deepEqual(await names('search=100%25'), []);
  });

  it('filters by name, creator, creation dates and job counts', async () => {
    assert.deepEqual(await names('name=invoice'), ['Invoice Classifier']);
    assert.ok((await names('creator_id=4')).every((n: string) => ['Invoice Classifier', 'KYC Document Sorter'].includes(n)));
    const old = (await names('created_to=' + new Date(Date.now() - 100 * 86_400_000).toISOString().slice(0, 10)));
    assert.deepEqual(old, ['Contract Type Classifier']);
    assert.deepEqual((await names(`created_from=${new Date(Date.now() - 50 * 86_400_000).toISOString()}&ordering=name`)), [
      'Chat Escalation Detector', 'KYC Document Sorter', 'Ticket Field Extractor',
    ]);
    const counts = (await t.call('GET', '/v1/agents/?job_count_min=100&job_count_max=150')).body.results.map((a: any) => a.job_count);
    assert.ok(counts.length >= 2 && counts.every((c: number) => c >= 100 && c <= 150));
    assert.deepEqual((await t.call('GET', '/v1/agents/?created_from=yesterday&job_count_min=-1&creator_id=abc')).body, {
      created_from: ['Enter a valid date/time.'],
      creator_id: ['A valid integer is required.'],
      job_count_min: ['Ensure this value is greater than or equal to 0.'],
    });
  });

  it('leaves job statistics out (null) when include_job_stats is false', async () => {
    const without = (await t.call('GET', '/v1/agents/?include_job_stats=false')).body.results;
    assert.ok(without.every((a: any) => a.job_count === null && a.most_recent_job === null));
    const withStats = (await t.call('GET', '/v1/agents/?include_job_stats=true')).body.results;
    assert.ok(withStats.every((a: any) => typeof a.job_count === 'number' && a.job_count > 0 && typeof a.most_recent_job === 'string'));
    assert.deepEqual((await t.call('GET', '/v1/agents/?include_job_stats=maybe')).body, { include_job_stats: ['Must be a valid boolean.'] });
  });
});
