// The e2e suite: packages the extension, makes sure code-server and Chromium are there, then runs
// `test/e2e/**/*.test.ts` with mocha in Node (each suite starts its own servers and browser).
// `node test/harness/e2e.mjs [mocha options] [files...]`; the exit code is mocha's.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureChromium } from './chromium.mjs';
import { ensureCodeServer } from './codeServer.mjs';
import { packageExtension } from './extensionBuild.mjs';
import { repoRoot } from './paths.mjs';
import { run } from './processes.mjs';
import { enableContractCheck, reportContractCheck } from './contractCheck.mjs';

function e2eTests() {
  const root = path.join(repoRoot, 'test', 'e2e');
  return fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((entry) => entry.endsWith('.test.ts') && !entry.startsWith(`support${path.sep}`))
    .sort()
    .map((entry) => path.join('test', 'e2e', entry));
}

// Everything after the script goes to mocha (`--grep sign`, a test file...); no file means all.
const extra = process.argv.slice(2);
const namesFiles = extra.some((arg) => arg.endsWith('.ts'));
try {
  // apt-get takes a lock, so the two system installs go one after the other.
  await Promise.all([packageExtension(), ensureCodeServer().then(() => ensureChromium())]);
} catch (error) {
  console.error(`\n  The e2e suite could not start: ${error.stack ?? error}`);
  process.exit(1);
}
const mochaArgs = [
  path.join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js'),
  // The repository's .mocharc.json lists the unit tests; this suite has its own settings.
  '--no-config',
  '--require', 'tsx/cjs',
  '--reporter', path.join(repoRoot, 'test', 'harness', 'summaryReporter.cjs'),
  '--timeout', '120000',
  '--slow', '20000',
  ...extra,
  ...(namesFiles ? [] : e2eTests()),
];
const contractDir = enableContractCheck();
let failed = false;
try {
  await run(process.execPath, mochaArgs, { cwd: repoRoot, quiet: false });
} catch {
  failed = true;
}
// Every sandbox of the suite checked its answers against the contract; a violation fails the run.
if (reportContractCheck(contractDir) > 0 || failed) process.exit(1);
