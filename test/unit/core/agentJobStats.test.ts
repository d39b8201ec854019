import * as assert from 'node:assert/strict';
import { newerJobStats } from '../../../src/core/agentJobStats';

describe("an agent row's job statistics, kept up to date from its jobs list", () => {
  const agent = { job_count: 12, most_recent_job: '2026-11-24T08:00:00Z' };

  it('takes the count and the newest job from an unfiltered list that knows of a new job', () => {
    assert.deepEqual(newerJobStats(agent, { count: 13, createdAt: ['2026-11-24T09:30:00Z', '2026-11-24T08:00:00Z'], unfiltered: true }), {
      job_count: 13,
      most_recent_job: '2026-11-24T09:30:00Z',
    });
  });

  it('changes nothing when the list knows nothing newer', () => {
    assert.equal(newerJobStats(agent, { count: 12, createdAt: ['2026-11-24T08:00:00Z', '2026-11-23T08:00:00Z'], unfiltered: true }), undefined);
  });

  it('takes no count from a filtered list, but still a newer job from it', () => {
    assert.deepEqual(newerJobStats(agent, { count: 2, createdAt: ['2026-11-24T10:00:00Z'], unfiltered: false }), { most_recent_job: '2026-11-24T10:00:00Z' });
  });

  it('leaves the statistics alone when the agents list skipped them', () => {
    assert.equal(newerJobStats({ job_count: null, most_recent_job: null }, { count: 3, createdAt: ['2026-11-24T10:00:00Z'], unfiltered: true }), undefined);
  });

  it('fills the last job of an agent that had none', () => {
    assert.deepEqual(newerJobStats({ job_count: 0, most_recent_job: null }, { count: 1, createdAt: ['2026-11-24T10:00:00Z'], unfiltered: true }), { job_count: 1, most_recent_job: '2026-11-24T10:00:00Z' });
  });
});
