import * as assert from 'node:assert/strict';
import { renderJobReport } from '../../../src/core/jobReport';
import type { AgentJob } from '../../../src/core/client';

const job = (over: Partial<AgentJob> = {}): AgentJob =>
  ({
    id: '0b5c2d1e-1111-4222-8333-944455566677',
    agent_version_name: 'v3 – stricter refunds',
    status_code: 4,
    created_at: '2026-11-20T10:00:00Z',
    last_updated_at: '2026-11-20T10:01:30Z',
    status_events: [
      { timestamp: '2026-11-20T10:00:00Z', status_code: 0, count: 1 },
      { timestamp: '2026-11-20T10:01:30Z', status_code: 4, error_message: 'Model timeout | upstream', error_details: { retries: 3 } },
    ],
    job_inputs: [{ key: 'transcript', data_type: 'text/plain', value: 'Customer: ```hi```\nAgent: hello' }],
    evaluation: { grader_score: 0.75, human_score: null, feedback: 'Too terse' },
    feedback_review: { review_status: 'pending', reviewed_by: 'ana@example.com' },
    metadata: { customer: 'acme' },
    cost: 0.12,
    ...over,
  });

describe('job report', () => {
  it('shows status, inputs, events, evaluation, review and metadata of a job', () => {
    const text = renderJobReport(job(), 'Conversation Reviewer');
    for (const part of ['# Job 0b5c2d1e', '**Status:** FAILURE', '## Inputs', '### transcript (text/plain)', '| FAILURE |', 'Model timeout \\| upstream', '**Grader score:** 0.75', '**Status:** pending', '"customer": "acme"', '## Other fields', '"cost": 0.12', '**Duration:** 1 min 30 s']) {
      assert.ok(text.includes(part), `missing ${part}`);
    }
  });

  it('keeps a value holding backticks inside its block', () => {
    const text = renderJobReport(job(), 'A');
    assert.ok(text.includes('````\nCustomer: ```hi```\nAgent: hello\n````'));
  });

  it('says plainly what a job does not have', () => {
    const text = renderJobReport(job({ job_inputs: [], status_events: [], evaluation: null, feedback_review: null, metadata: null }), 'A');
    for (const part of ['_No inputs._', '_No events._', '_Not evaluated._', '_No review._', '_None._']) assert.ok(text.includes(part), part);
  });
});
