import * as assert from 'node:assert/strict';
import { isJobHostMessage, JOB_VIEW_ACTIONS, parseJobPageMessage } from '../../../src/core/jobView/protocol';
import { JOB_VIEW_BODY } from '../../../src/extension/jobs/jobView/jobViewPage';

describe('job view protocol', () => {
  it('accepts the page’s own messages', () => {
    assert.deepEqual(parseJobPageMessage({ type: 'ready' }), { type: 'ready' });
    assert.ok(parseJobPageMessage({ type: 'action', jobId: 'j', action: 'runAgain' }));
    assert.ok(parseJobPageMessage({ type: 'rendered', jobId: 'j', status: 'SUCCESS', outputs: ['x'], foreignElements: 0 }));
  });

  it('refuses unknown actions, extra keys and oversized reports', () => {
    assert.equal(parseJobPageMessage({ type: 'action', jobId: 'j', action: 'deleteEverything' }), undefined);
    assert.equal(parseJobPageMessage({ type: 'ready', html: '<b>' }), undefined);
    assert.equal(parseJobPageMessage({ type: 'rendered', jobId: 'j', status: '', outputs: ['x'.repeat(5000)], foreignElements: 0 }), undefined);
    assert.equal(parseJobPageMessage('ready'), undefined);
  });

  it('tells the page which comparison case it labels, or that it labels none, and nothing else', () => {
    assert.equal(isJobHostMessage({ type: 'labelling', text: 'Case “a” of x.comparison.json: nothing expected yet', canAgree: true }), true);
    assert.equal(isJobHostMessage({ type: 'labelling', text: null, canAgree: false }), true);
    assert.equal(isJobHostMessage({ type: 'labelling', text: 3, canAgree: false }), false);
    assert.equal(isJobHostMessage({ type: 'labelling', text: null }), false);
    assert.ok(parseJobPageMessage({ type: 'action', jobId: 'j', action: 'thisIsRight' }));
    assert.ok(parseJobPageMessage({ type: 'action', jobId: 'j', action: 'setExpected' }));
  });

  it('lets the page refuse a model with a bad icon name (a class name is the only attribute made from data)', () => {
    assert.equal(isJobHostMessage({ type: 'notice', text: 'Copied', error: false }), true);
    assert.equal(isJobHostMessage({ type: 'job', model: { jobId: 'j' } }), false);
  });
});

describe('job view page markup', () => {
  it('has no inline script, style or handler, and a button for every action the page can send', () => {
    assert.doesNotMatch(JOB_VIEW_BODY, /<script|<style|\sstyle=|\son[a-z]+=/i);
    for (const action of JOB_VIEW_ACTIONS) assert.ok(JOB_VIEW_BODY.includes(`id="act-${action}"`), action);
  });
});
