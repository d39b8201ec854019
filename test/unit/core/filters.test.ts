import * as assert from 'node:assert/strict';
import { agentListParams, describeAgentFilter, isAgentFilterActive } from '../../../src/core/filters/agentFilter';
import { describeJobFilter, isJobFilterActive, jobListParams, metadataFilterProblem } from '../../../src/core/filters/jobFilter';

describe('agent filter', () => {
  it('sends nothing extra when no filter is set', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(agentListParams({}, 50))), { page_size: 50 });
    assert.equal(isAgentFilterActive({}), false);
    assert.equal(describeAgentFilter({}), '');
  });

  it('turns search, engines, tags, ordering and the no-stats option into the service parameters', () => {
    const filter = { search: 'review', engines: ['llm', 'ocr'], excludeEngines: ['legacy'], tags: [{ id: 't1', name: 'billing' }], ordering: '-most_recent_job', skipJobStats: true };
    assert.deepEqual(agentListParams(filter, 25), {
      page_size: 25,
      search: 'review',
      engine_class_id: ['llm', 'ocr'],
      exclude_engine_class_id: 'legacy',
      tags: ['t1'],
      ordering: '-most_recent_job',
      include_job_stats: false,
    });
    assert.equal(isAgentFilterActive(filter), true);
    assert.equal(describeAgentFilter(filter), '“review” · engine: llm, ocr · not legacy · tags: billing · by most recent job ↓ · no job stats');
  });
});

describe('job filter', () => {
  it('lists newest first by default and does not count that as a filter', () => {
    assert.equal(jobListParams({}, 50).ordering, '-created_at');
    assert.equal(isJobFilterActive({ ordering: '-created_at' }), false);
  });

  it('turns statuses, version, dates, metadata and similar text into the service parameters', () => {
    const filter = { statuses: [4, 2], versionName: 'v3', createdFrom: '2026-11-01T00:00:00Z', metadata: 'customer:acme', similarTo: 'refund' };
    const params = jobListParams(filter, 50);
    assert.equal(params.status_code, '4,2');
    assert.equal(params.version_name, 'v3');
    assert.equal(params.created_from, '2026-11-01T00:00:00Z');
    assert.equal(params.metadata, 'customer:acme');
    assert.equal(params.semantic_string, 'refund');
    assert.equal(params.ordering, undefined, 'similar jobs come most similar first');
    assert.equal(describeJobFilter(filter), 'FAILURE, RETRY · v3 · since 2026-11-01 00:00 · customer:acme · like “refund”');
  });

  it('accepts key:value metadata pairs and explains what is wrong otherwise', () => {
    assert.equal(metadataFilterProblem('customer:acme, channel:chat'), undefined);
    assert.equal(metadataFilterProblem(''), undefined);
    assert.match(metadataFilterProblem('customer') ?? '', /“customer” is not key:value/);
    assert.match(metadataFilterProblem('a:b,,') ?? '', /is not key:value/);
  });
});
