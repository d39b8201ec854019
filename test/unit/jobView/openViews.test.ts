// After a demo restart only 1 of 6 open job views came back: the views opened behind another one had
// never shown their page, so their page had saved nothing to be opened again from.
import * as assert from 'node:assert/strict';
import { OPEN_VIEWS_KEPT, parseOpenViews, restoredJobView, withOpenView, withoutOpenView, type OpenJobView } from '../../../src/core/jobView/openViews';

const view = (n: number, agentName = 'Support Call QA'): OpenJobView => ({ jobId: `${String(n).padStart(8, '0')}-1111-4222-8333-944455566677`, agentId: 'a1', agentName });

describe('job views open when the window reloads', () => {
  it('come back from the page’s own state when it saved one', () => {
    assert.deepEqual(restoredJobView({ jobId: 'j1', agentId: 'a1', agentName: 'Support Call QA' }, 'Job j1 · Support Call QA', []), { jobId: 'j1', agentId: 'a1', agentName: 'Support Call QA' });
  });

  it('come back by the job their title names when their page never saved a state (opened behind another view)', () => {
    const kept = [view(1), view(2), view(3)];
    assert.deepEqual(restoredJobView(undefined, 'Job 00000002 · Support Call QA', kept), view(2));
    assert.deepEqual(restoredJobView({ nothing: true }, 'Job 00000003 · Support Call QA', kept), view(3));
    assert.equal(restoredJobView(undefined, 'Job 00000009 · Support Call QA', kept), undefined, 'a view of a job never kept is not guessed');
    assert.equal(restoredJobView(undefined, 'Job 0000000 · Support Call QA', kept), undefined);
  });

  it('are kept once each, the newest last, a bounded number, and forgotten when closed', () => {
    let kept: OpenJobView[] = [];
    for (let n = 0; n < OPEN_VIEWS_KEPT + 5; n++) kept = withOpenView(kept, view(n));
    kept = withOpenView(kept, view(10, 'Refund Request Reviewer'));
    assert.equal(kept.length, OPEN_VIEWS_KEPT);
    assert.deepEqual(kept.at(-1), view(10, 'Refund Request Reviewer'));
    assert.equal(kept.filter((v) => v.jobId === view(10).jobId).length, 1);
    assert.ok(!withoutOpenView(kept, view(10).jobId).some((v) => v.jobId === view(10).jobId));
  });

  it('are read from stored data, garbage dropped', () => {
    assert.deepEqual(parseOpenViews([view(1), null, 42, { jobId: 'x' }, { jobId: '', agentId: 'a' }, { jobId: 'j', agentId: 'a' }]), [view(1), { jobId: 'j', agentId: 'a', agentName: 'agent' }]);
    assert.deepEqual(parseOpenViews({ not: 'a list' }), []);
  });
});
