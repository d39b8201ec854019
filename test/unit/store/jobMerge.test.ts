import { strict as assert } from 'node:assert';
import type { AgentJob } from '../../../src/core/client';
import { JobStatus } from '../../../src/core/jobStatus';
import { isJobRecord, isNewerStatus, mergeJob, patchJob } from '../../../src/core/store/jobMerge';

const T0 = Date.parse('2026-11-21T12:00:00Z');
const iso = (s: number): string => new Date(T0 + s * 1000).toISOString();

function job(status: number, updatedS: number | null, extra: Partial<AgentJob> = {}): AgentJob {
  return { id: 'j', status_code: status, created_at: iso(0), last_updated_at: updatedS === null ? null : iso(updatedS), ...extra };
}

describe('Which copy of a job’s status the store keeps', () => {
  it('takes a later status, and never an earlier one even when that one is final', () => {
    assert.equal(isNewerStatus(job(JobStatus.STARTED, 10), job(JobStatus.SUCCESS, 20)), true);
    assert.equal(isNewerStatus(job(JobStatus.SUCCESS, 10), job(JobStatus.STARTED, 20)), true);
    assert.equal(isNewerStatus(job(JobStatus.STARTED, 20), job(JobStatus.SUCCESS, 10)), false);
    assert.equal(isNewerStatus(job(JobStatus.STARTED, 20), job(JobStatus.STARTED, 10)), false);
  });

  it('at the same time, lets a running job finish but never lets a finished job run again', () => {
    assert.equal(isNewerStatus(job(JobStatus.STARTED, 10), job(JobStatus.SUCCESS, 10)), true);
    assert.equal(isNewerStatus(job(JobStatus.PENDING, 10), job(JobStatus.STARTED, 10)), true);
    assert.equal(isNewerStatus(job(JobStatus.SUCCESS, 10), job(JobStatus.STARTED, 10)), false);
    assert.equal(isNewerStatus(job(JobStatus.FAILURE, 10), job(JobStatus.SUCCESS, 10)), true);
  });

  it('with no times at all, treats the copies as equally new: a final status stays final', () => {
    assert.equal(isNewerStatus(job(JobStatus.SUCCESS, null), job(JobStatus.STARTED, null)), false);
    assert.equal(isNewerStatus(job(JobStatus.STARTED, null), job(JobStatus.SUCCESS, null)), true);
    assert.equal(isNewerStatus(job(JobStatus.PENDING, null), job(JobStatus.STARTED, null)), true);
    assert.equal(isNewerStatus({ status_code: JobStatus.SUCCESS, last_updated_at: 'not a time' }, { status_code: JobStatus.STARTED }), false);
  });
});

describe('Merging two copies of one job', () => {
  it('keeps a final status when a running copy with the same time arrives (a page read before the end)', () => {
    const merged = mergeJob(job(JobStatus.SUCCESS, 10), job(JobStatus.STARTED, 10));
    assert.equal(merged.status_code, JobStatus.SUCCESS);
    assert.equal(merged.last_updated_at, iso(10));
  });

  it('keeps a newer running status when an older running copy arrives, but takes its other fields', () => {
    const merged = mergeJob(job(JobStatus.STARTED, 20), job(JobStatus.PENDING, 10, { error_message: 'queued' }));
    assert.deepEqual(merged, { ...job(JobStatus.STARTED, 20), error_message: 'queued' });
  });

  it('never lets a run’s stub with empty lists wipe the events and inputs a full record brought', () => {
    const events = [{ timestamp: iso(1), status_code: JobStatus.PENDING }, { timestamp: iso(2), status_code: JobStatus.STARTED }];
    const full = job(JobStatus.STARTED, 2, { status_events: events, job_inputs: [{ key: 'transcript', value: 'hi' }] });
    const stub = job(JobStatus.STARTED, 2, { status_events: [], job_inputs: [] });
    const merged = mergeJob(full, stub);
    assert.deepEqual(merged.status_events, events);
    assert.deepEqual(merged.job_inputs, [{ key: 'transcript', value: 'hi' }]);
  });

  it('takes a newer copy’s longer list of events in place of the shorter one', () => {
    const two = [{ timestamp: iso(1), status_code: JobStatus.PENDING }, { timestamp: iso(2), status_code: JobStatus.STARTED }];
    const three = [...two, { timestamp: iso(3), status_code: JobStatus.SUCCESS }];
    const merged = mergeJob(job(JobStatus.STARTED, 2, { status_events: two }), job(JobStatus.SUCCESS, 3, { status_events: three }));
    assert.deepEqual(merged.status_events, three);
  });

  it('takes an empty list when the job had none before', () => {
    const merged = mergeJob(job(JobStatus.STARTED, 2), job(JobStatus.STARTED, 2, { status_events: [] }));
    assert.deepEqual(merged.status_events, []);
  });

  it('keeps a field the incoming copy leaves undefined', () => {
    const merged = mergeJob(job(JobStatus.FAILURE, 5, { error_message: 'out of memory' }), job(JobStatus.FAILURE, 5, { error_message: undefined }));
    assert.equal(merged.error_message, 'out of memory');
  });

  it('gives back a plain record: every field it took is there when the job is copied or saved', () => {
    const merged = mergeJob(job(JobStatus.STARTED, 1), job(JobStatus.SUCCESS, 2, { error_message: null }));
    assert.deepEqual(JSON.parse(JSON.stringify(merged)), { ...job(JobStatus.SUCCESS, 2), error_message: null });
    assert.deepEqual({ ...merged }, { ...job(JobStatus.SUCCESS, 2), error_message: null });
  });
});

describe('A status update of a known job', () => {
  it('gives the job its new status and time', () => {
    assert.deepEqual(patchJob(job(JobStatus.STARTED, 10), { id: 'j', status_code: JobStatus.SUCCESS, last_updated_at: iso(20) }), job(JobStatus.SUCCESS, 20));
  });

  it('keeps the known time when the update brings none', () => {
    assert.deepEqual(patchJob(job(JobStatus.STARTED, null), { id: 'j', status_code: JobStatus.SUCCESS }), job(JobStatus.SUCCESS, null));
  });

  it('moves the time on when only the time changed', () => {
    assert.deepEqual(patchJob(job(JobStatus.STARTED, 10), { id: 'j', status_code: JobStatus.STARTED, last_updated_at: iso(30) }), job(JobStatus.STARTED, 30));
  });

  it('is no change when it says what is already known (no event for it)', () => {
    assert.equal(patchJob(job(JobStatus.STARTED, 10), { id: 'j', status_code: JobStatus.STARTED, last_updated_at: iso(10) }), undefined);
    assert.equal(patchJob(job(JobStatus.STARTED, null), { id: 'j', status_code: JobStatus.STARTED }), undefined);
    assert.equal(patchJob(job(JobStatus.STARTED, null), { id: 'j', status_code: JobStatus.STARTED, last_updated_at: null }), undefined);
  });

  it('is ignored when it is older than what is known', () => {
    assert.equal(patchJob(job(JobStatus.SUCCESS, 20), { id: 'j', status_code: JobStatus.STARTED, last_updated_at: iso(10) }), undefined);
  });
});

describe('Which copies of a job are records the service sent, not stubs the store made', () => {
  it('knows a stub made from a status or a run’s answer: no events, no version id, no version name', () => {
    assert.equal(isJobRecord(job(JobStatus.STARTED, 10)), false);
    assert.equal(isJobRecord(job(JobStatus.STARTED, 10, { status_events: null, agent_version_id: null, agent_version_name: null } as unknown as Partial<AgentJob>)), false);
  });

  it('knows a record by any one of its events, its version id or its version name', () => {
    assert.equal(isJobRecord(job(JobStatus.SUCCESS, 10, { status_events: [] })), true);
    assert.equal(isJobRecord(job(JobStatus.SUCCESS, 10, { agent_version_id: 'v1' })), true);
    assert.equal(isJobRecord(job(JobStatus.SUCCESS, 10, { agent_version_name: 'v3 – stricter evidence' })), true);
    assert.equal(isJobRecord(job(JobStatus.SUCCESS, 10, { agent_version_name: '' })), true, 'an empty name is still the service’s');
  });
});
