// Turns the sandbox's checking mode on for the whole unit suite: every sandbox a test starts checks
// each answer (and each request of the project's client) against the contract. A test during which a
// violation was recorded fails here, with the operation, JSON path and rule of each one.
const path = require('node:path');

process.env.AGENT_WORKBENCH_CONTRACT_CHECK ??= path.join(__dirname, '..', 'contract', 'checker.mjs');
const KEY = Symbol.for('agent-workbench.contract-check');
const state = () => globalThis[KEY] ?? { checked: 0, requests: 0, violations: [] };
let seen = 0;

exports.mochaHooks = {
  beforeEach() {
    seen = state().violations.length;
  },
  afterEach() {
    const found = state().violations.slice(seen);
    seen = state().violations.length;
    if (found.length === 0) return;
    // A survey (AGENT_WORKBENCH_CONTRACT_SURVEY=<file>) lists every violation of a run instead of stopping at the first.
    const survey = process.env.AGENT_WORKBENCH_CONTRACT_SURVEY;
    if (survey) {
      require('node:fs').appendFileSync(survey, found.map((v) => `${JSON.stringify(v)}\n`).join(''));
      return;
    }
    const lines = found.map((v) => `  ${v.operation} (${v.method} ${v.path} → ${v.status ?? '-'}) ${v.direction} at ${v.pointer}: ${v.rule}`);
    throw new Error(`${found.length} contract violation(s) in "${this.currentTest?.fullTitle()}":\n${lines.join('\n')}`);
  },
  afterAll() {
    const { checked, requests, violations } = state();
    process.stdout.write(`\ncontract check: ${checked} sandbox answers and ${requests} client requests checked, ${violations.length} violation(s)\n`);
  },
};
