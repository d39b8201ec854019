import * as assert from 'node:assert/strict';
import { sampleWithJob, type JobForSample } from '../../../src/core/summary/jobSample';
import { sampleTextWithJob } from '../../../src/core/summary/preview';

const AGENT = { id: 'a-1', name: 'Support Call QA' };

function job(overrides: Partial<JobForSample> = {}): JobForSample {
  return {
    id: '1a2b3c4d-0000-4000-8000-000000000000',
    created_at: '2025-03-01T10:00:00Z',
    last_updated_at: '2025-03-01T10:00:30Z',
    status_code: 3,
    agent_version_name: 'v3',
    job_inputs: [
      { key: 'transcript', value: 'Agent: Hello…', file_name: '' },
      { key: 'language', value: 'en', file_name: null },
    ],
    metadata: { channel: 'phone', customer: { tier: 'gold' } },
    ...overrides,
  };
}

describe('filling a sample from a job', () => {
  const sample = { disposition: 'Compliant', verdict: 'Compliant', classifications: [{ name: 'Compliant' }, { name: 'Non-Compliant', description: 'Red flags.' }], summary: 'mine', agent: { name: 'old' } };

  it('takes the agent, and the job with its inputs by key, metadata and status name', () => {
    const filled = sampleWithJob(sample, AGENT, job());
    assert.deepEqual(filled.agent, AGENT);
    assert.deepEqual(filled.job, {
      id: '1a2b3c4d-0000-4000-8000-000000000000',
      created_at: '2025-03-01T10:00:00Z',
      last_updated_at: '2025-03-01T10:00:30Z',
      status: 'SUCCESS',
      status_code: 3,
      agent_version_name: 'v3',
      inputs: { transcript: 'Agent: Hello…', language: 'en' },
      metadata: { channel: 'phone', customer: { tier: 'gold' } },
    });
  });

  it('keeps everything else the user put in the sample', () => {
    const filled = sampleWithJob(sample, AGENT, job());
    assert.equal(filled.summary, 'mine');
    assert.equal(filled.disposition, 'Compliant');
  });

  it('gives file inputs their file name, and keeps every file of a multi-file input', () => {
    const files = job({ job_inputs: [{ key: 'document', value: 'https://files/1', file_name: 'a.pdf' }, { key: 'document', value: 'https://files/2', file_name: 'b.pdf' }] });
    const inputs = (sampleWithJob({}, AGENT, files).job as { inputs: Record<string, unknown> }).inputs;
    assert.deepEqual(inputs.document, [{ file_name: 'a.pdf', value: 'https://files/1' }, { file_name: 'b.pdf', value: 'https://files/2' }]);
  });

  it('takes the verdict the service shows for the job as the disposition, with its classification', () => {
    const filled = sampleWithJob(sample, AGENT, job({ ui_fields: { verdict: 'non-compliant' } }));
    assert.equal(filled.disposition, 'non-compliant');
    assert.equal(filled.verdict, 'non-compliant');
    assert.deepEqual(filled.classification, { name: 'Non-Compliant', description: 'Red flags.' });
  });

  it("prefers a reviewer's corrected verdict, and invents a classification the policy does not know", () => {
    const filled = sampleWithJob(sample, AGENT, job({ ui_fields: { verdict: 'Compliant' }, feedback_review: { corrected_verdict: 'Escalate' } }));
    assert.equal(filled.disposition, 'Escalate');
    assert.deepEqual(filled.classification, { name: 'Escalate', description: '', prompt: '' });
  });

  it('works on a job without inputs, metadata or version name', () => {
    const bare = sampleWithJob(undefined, AGENT, { id: 'j', created_at: 'now', status_code: 4 });
    assert.deepEqual(bare.job, { id: 'j', created_at: 'now', last_updated_at: null, status: 'FAILURE', status_code: 4, agent_version_name: null, inputs: {}, metadata: {} });
  });

  it('starts from the default sample when the current one is not valid JSON', () => {
    const text = sampleTextWithJob('{ "broken": ', () => '{ "summary": "default" }', AGENT, job());
    const value = JSON.parse(text) as Record<string, unknown>;
    assert.equal(value.summary, 'default');
    assert.deepEqual(value.agent, AGENT);
    assert.ok(text.endsWith('\n'));
  });
});
