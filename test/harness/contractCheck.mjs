// The sandbox's checking mode for the integration and e2e suites: every sandbox they start (forked by
// the extension, by a test, or by the harness) inherits the environment set here, checks each answer
// against the project's contract, and writes its counts to one folder; the harness adds them up and
// fails the run on any violation.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from './paths.mjs';

/** Turns the checking mode on for this process and all it starts; answers the folder of the counts. */
export function enableContractCheck() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-workbench-contract-'));
  process.env.AGENT_WORKBENCH_CONTRACT_CHECK = path.join(repoRoot, 'test', 'contract', 'checker.mjs');
  process.env.AGENT_WORKBENCH_CONTRACT_CHECK_DIR = dir;
  return dir;
}

/** Adds up the counts of every sandbox, prints them with each violation, and answers the violations' number. */
export function reportContractCheck(dir) {
  let checked = 0;
  let requests = 0;
  const violations = [];
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (!/^contract-\d+\.json$/.test(name)) continue;
    const counts = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
    checked += counts.checked;
    requests += counts.requests;
    violations.push(...counts.violations);
  }
  console.log(`\n  contract check: ${checked} sandbox answers and ${requests} client requests checked, ${violations.length} violation(s)`);
  for (const v of violations) console.log(`    ${v.operation} (${v.method} ${v.path} → ${v.status ?? '-'}) ${v.direction} at ${v.pointer}: ${v.rule}`);
  fs.rmSync(dir, { recursive: true, force: true });
  return violations.length;
}
