import * as assert from 'node:assert/strict';
import { runLensTitle } from '../../../src/core/runs/runLens';

describe('the ▶ Run lens of a run file', () => {
  it('names the agent its click runs, and the size of a batch', () => {
    assert.equal(runLensTitle('Support Call QA', undefined), '▶ Run Support Call QA');
    assert.equal(runLensTitle('Support Call QA', 3), '▶ Run Support Call QA: batch of 3');
  });

  it('names no agent until the service named it', () => {
    assert.equal(runLensTitle(undefined, undefined), '▶ Run');
    assert.equal(runLensTitle('  ', 2), '▶ Run: batch of 2');
  });
});
