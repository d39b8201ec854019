// Stryker's configuration for `npm run mutation` (test/harness/mutation.mjs), which sets
// MUTATION_GROUP to run one group of test/mutation/groups.mjs at a time. Run directly
// (`npx stryker run`) it mutates the store group.
import { DEFAULT_BREAK, groups, reportDir, stateFile } from './test/mutation/groups.mjs';

const group = groups.find((g) => g.name === (process.env.MUTATION_GROUP || 'store'));
if (!group) throw new Error(`No mutation group named ${process.env.MUTATION_GROUP}`);
const reports = reportDir(group);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'mocha',
  // As .mocharc.json: tsx/cjs runs the tests and sources as TypeScript, the test-build hooks are set;
  // and module caches are reset between tests (resetCaches.cjs) so a mutant in a cached branch is judged.
  mochaOptions: {
    config: '.mocharc.json',
    spec: group.spec,
    require: ['tsx/cjs', './test/unit/testHooksGlobal.cjs', './test/mutation/resetCaches.cjs'],
  },
  mutate: group.mutate,
  // Each mutant runs only the tests that reach it.
  coverageAnalysis: 'perTest',
  // The machine's two cores are shared: never more than two test processes.
  concurrency: Number(process.env.MUTATION_CONCURRENCY || 2),
  incremental: true,
  incrementalFile: process.env.MUTATION_INCREMENTAL_FILE || stateFile(group),
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: `${reports}/index.html` },
  jsonReporter: { fileName: `${reports}/mutation.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: false },
  // The break thresholds are per file (groups.mjs: targets, floors), checked by the harness on the JSON
  // report; these only colour the HTML report.
  thresholds: { high: 95, low: DEFAULT_BREAK, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  timeoutMS: 10000,
  warnings: { slow: false },
};
