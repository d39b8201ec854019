// Mocha's spec reporter, plus the counts written as JSON to the file named by
// AGENT_WORKBENCH_TEST_SUMMARY, so `npm test` can total the suites it runs.
'use strict';
const fs = require('node:fs');
const Mocha = require('mocha');

class SpecWithSummary extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const file = process.env.AGENT_WORKBENCH_TEST_SUMMARY;
    if (!file) return;
    // The failed tests' titles too, so the end of a long log (all CI keeps) still names them.
    const failedTitles = [];
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test, error) => {
      failedTitles.push(`${test.fullTitle()}: ${String(error?.message ?? error).split('\n')[0].slice(0, 200)}`);
    });
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = this.stats;
      fs.writeFileSync(file, JSON.stringify({ passed: passes, failed: failures, pending, failedTitles }));
    });
  }
}

module.exports = SpecWithSummary;
