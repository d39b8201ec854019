// Loaded by Stryker's mocha runner only (stryker.config.mjs): module-level caches that make a branch run
// once per process are emptied before every test, so each mutant in them meets the tests that reach it.
const { resetParserCache } = require('../../src/core/client/parse');

exports.mochaHooks = {
  beforeEach() {
    resetParserCache();
  },
};
