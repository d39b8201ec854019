import * as assert from 'node:assert/strict';
import type { AgentJob, JobResultRecord } from '../../../src/core/client';
import { jobViewModel, type JobViewSources } from '../../../src/core/jobView/viewModel';
import { isJobHostMessage } from '../../../src/core/jobView/protocol';
import { jobFromRecords, rawJobJson, runAgainArgs } from '../../../src/core/jobView/jobRecords';

const JOB_ID = '0b5c2d1e-1111-4222-8333-944455566677';

const job = (over: Partial<AgentJob> = {}): AgentJob =>
  ({
    id: JOB_ID,
    agent_version_name: 'v3 – stricter refunds',
    status_code: 3,
    created_at: '2026-11-20T10:00:00Z',
    last_updated_at: '2026-11-20T10:01:30Z',
    status_events: [
      { timestamp: '2026-11-20T10:00:00Z', status_code: 0, count: 1 },
      { timestamp: '2026-11-20T10:00:10Z', status_code: 2, error_message: 'Model timeout', error_details: { retries: 1 }, count: 2 },
      { timestamp: '2026-11-20T10:01:30Z', status_code: 3 },
    ],
    job_inputs: [{ key: 'transcript', data_type: 'text/plain', value: 'Customer: I want my money back' }],
    evaluation: { grader_score: 0.75, human_score: null, feedback: 'Too terse', reference: { expected: 'refund' } },
    feedback_review: { review_status: 'rejected', reviewed_by: 'ana@example.com', corrected_verdict: 'escalate', review_comment: 'Should escalate.' },
    metadata: { customer: 'acme' },
    ...over,
  });

const result = (over: Partial<JobResultRecord> = {}): JobResultRecord =>
  ({
    id: JOB_ID,
    status: 3,
    result: [
      { key: 'disposition', description: 'The chosen disposition', data_type: 'text/plain', value: 'refund', cost: 0.001 },
      { key: 'details', description: 'Matched rules', data_type: 'application/json', value: '{"rules":[{"id":"r1","matched":"money back"}]}', cost: null },
    ],
    corrected_outputs: [{ key: 'disposition', description: null, data_type: 'text/plain', value: 'escalate', cost: null }],
    agent_id: 'agent-1',
    agent_version_id: 'version-3',
    cost: 0.0042,
    inputs: [{ key: 'transcript', value: 'Customer: I want my money back' }],
    input_tokens: 1200,
    output_tokens: 85,
    ...over,
  });

const sources = (over: Partial<JobViewSources> = {}): JobViewSources => ({ agentId: 'agent-1', agentName: 'Refund Reviewer', jobId: JOB_ID, job: job(), result: result(), readAt: Date.parse('2026-11-20T10:05:00Z'), ...over });

describe('job view model', () => {
  it('shows a finished job with its outputs, JSON pretty-printed, tokens and cost', () => {
    const model = jobViewModel(sources());
    assert.equal(model.title, 'Job 0b5c2d1e · Refund Reviewer');
    assert.equal(model.status.name, 'SUCCESS');
    assert.equal(model.status.final, true);
    assert.deepEqual(model.outputs.map((o) => [o.key, o.dataType, o.value.kind]), [['disposition', 'text/plain', 'text'], ['details', 'application/json', 'json']]);
    assert.equal(model.outputs[1]?.value.text, JSON.stringify({ rules: [{ id: 'r1', matched: 'money back' }] }, null, 2));
    assert.deepEqual(model.usage, [{ label: 'Tokens in', value: '1,200' }, { label: 'Tokens out', value: '85' }, { label: 'Cost', value: '0.0042' }]);
    assert.deepEqual(model.actions, { cancel: false, runAgain: true, watch: false });
    assert.ok(isJobHostMessage({ type: 'job', model }), 'the model passes the page protocol');
  });

  it('puts a reviewer’s correction beside the original, and only where it differs', () => {
    const model = jobViewModel(sources());
    assert.equal(model.outputs[0]?.corrected?.text, 'escalate');
    assert.equal(model.outputs[1]?.corrected, null);
    const same = jobViewModel(sources({ result: result({ corrected_outputs: [{ key: 'disposition', description: null, data_type: null, value: 'refund', cost: null }] }) }));
    assert.equal(same.outputs[0]?.corrected, null);
  });

  it('shows retries and errors in the timeline, with the count and error details', () => {
    const { timeline } = jobViewModel(sources());
    assert.deepEqual(timeline.map((e) => e.status), ['PENDING', 'RETRY', 'SUCCESS']);
    assert.equal(timeline[1]?.error, 'Model timeout');
    assert.equal(timeline[1]?.count, '×2');
    assert.match(timeline[1]?.details ?? '', /"retries": 1/);
    assert.equal(timeline[1]?.look.tone, 'retry');
  });

  it('adds status changes seen while watching to the timeline, and says the job is still running', () => {
    const running = job({ status_code: 1, status_events: [{ timestamp: '2026-11-20T10:00:00Z', status_code: 0 }] });
    const model = jobViewModel(sources({ job: running, result: result({ result: null, corrected_outputs: null, status: 1 }), observed: [{ status: 1, at: Date.parse('2026-11-20T10:00:05Z') }] }));
    assert.deepEqual(model.timeline.map((e) => [e.status, e.observed]), [['PENDING', false], ['STARTED', true]]);
    assert.equal(model.status.final, false);
    assert.match(model.outputsNote, /still running/);
    assert.deepEqual(model.actions, { cancel: true, runAgain: true, watch: true });
    assert.match(model.freshness, /refreshing while it runs/);
  });

  it('shows a job opened by ID from its status record and result alone', () => {
    const model = jobViewModel(sources({ job: undefined, status: { status: 4, timestamp: 1_795_000_000, error_message: 'Out of credits' }, result: null, versionName: 'v3' }));
    assert.equal(model.status.name, 'FAILURE');
    assert.equal(model.versionName, 'v3');
    assert.equal(model.timeline[0]?.error, 'Out of credits');
    assert.match(model.outputsNote, /ended \(FAILURE\) without a result/);
    assert.equal(model.inputsNote, 'No inputs.');
  });

  it('takes the inputs from the result when the list gave none', () => {
    const model = jobViewModel(sources({ job: undefined, status: { status: 3 } }));
    assert.deepEqual(model.inputs.map((i) => [i.key, i.value.text]), [['transcript', 'Customer: I want my money back']]);
  });

  it('keeps service text as text: markup in a value is a string like any other', () => {
    const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    const model = jobViewModel(sources({ result: result({ result: [{ key: '<b>k</b>', description: hostile, data_type: 'text/html', value: hostile, cost: null }] }) }));
    assert.equal(model.outputs[0]?.value.text, hostile);
    assert.equal(model.outputs[0]?.value.kind, 'text');
  });

  it('says why outputs are missing: not read yet, or the read failed', () => {
    assert.equal(jobViewModel(sources({ result: undefined })).outputsNote, 'Reading the outputs…');
    const failed = jobViewModel(sources({ result: undefined, resultError: 'The service answered 503.' }));
    assert.deepEqual(failed.problems, ['Could not read the result: The service answered 503.']);
  });

  it('shows evaluation, review and metadata', () => {
    const model = jobViewModel(sources());
    assert.deepEqual(model.evaluation?.fields.slice(0, 2), [{ label: 'Grader score', value: '0.75' }, { label: 'Human score', value: '—' }]);
    assert.equal(model.evaluation?.reference?.kind, 'json');
    assert.ok(model.review?.fields.some((f) => f.label === 'Corrected verdict' && f.value === 'escalate'));
    assert.equal(model.metadata?.text, JSON.stringify({ customer: 'acme' }, null, 2));
  });
});

describe('job records handed on', () => {
  it('runs again with the inputs by key, the version and the metadata', () => {
    assert.deepEqual(runAgainArgs(sources()), { agentId: 'agent-1', versionId: 'version-3', inputs: { transcript: 'Customer: I want my money back' }, metadata: { customer: 'acme' } });
  });

  it('gives the raw JSON of everything the service sent', () => {
    const raw = JSON.parse(rawJobJson(sources())) as Record<string, unknown>;
    assert.deepEqual(Object.keys(raw), ['job_id', 'agent_id', 'job', 'status', 'result']);
    assert.equal((raw.result as { input_tokens: number }).input_tokens, 1200);
  });

  it('makes a job record from the by-ID records for a job no list showed', () => {
    const made = jobFromRecords(JOB_ID, { status: 3, timestamp: 1_795_000_000 }, result());
    assert.equal(made.status_code, 3);
    assert.equal(made.job_inputs?.[0]?.key, 'transcript');
  });
});

describe('job view model of a job the service does not know', () => {
  it('says the status could not be read instead of inventing one', () => {
    const model = jobViewModel({ agentId: 'agent-1', agentName: 'Refund Reviewer', jobId: JOB_ID, statusError: 'Not found.', result: null, readAt: 0 });
    assert.deepEqual(model.problems, ['Could not read the status: Not found.']);
    assert.equal(model.status.look.tone, 'unknown');
    assert.equal(model.actions.cancel, false, 'nothing to cancel');
  });
});
