// `npm test`: first the gates — every TypeScript project type-checked, then ESLint — and, when they
// pass, the unit suites (plain Node), the integration suite (a real extension host) and the e2e suite
// (a real browser). A failed gate stops the run at once (no point spending half an hour on code that
// does not compile or lint); the three suites all run even when one fails. Then a summary, and the
// exit code is non-zero if any part failed.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from './paths.mjs';
import { killGroup } from './processes.mjs';

const harness = path.join(repoRoot, 'test', 'harness');
const minutes = 60_000;
// Limits keep a hung part from eating CI's 90 minutes; each is far above its normal time.
const parts = [
  { name: 'typecheck', args: [path.join(harness, 'typecheck.mjs')], limitMs: 10 * minutes, gate: true },
  { name: 'lint', args: [path.join(harness, 'lint.mjs')], limitMs: 10 * minutes, gate: true },
  {
    name: 'unit',
    args: [path.join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--reporter', path.join(harness, 'summaryReporter.cjs')],
    limitMs: 15 * minutes,
  },
  { name: 'integration', args: [path.join(harness, 'integration.mjs')], limitMs: 20 * minutes },
  { name: 'e2e', args: [path.join(harness, 'e2e.mjs')], limitMs: 40 * minutes },
];
// Mocha without --exit waits for every socket, timer and server a test left behind.
const EXIT_GRACE_MS = 15_000;
let current;

/** Runs one part as a child process; resolves with its exit code, counts and time. */
async function runPart(part) {
  const summaryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-workbench-summary-'));
  const summaryFile = path.join(summaryDir, 'summary.json');
  const started = Date.now();
  console.log(`\n━━ ${part.name} ${'━'.repeat(60 - part.name.length)}`);
  const child = spawn(process.execPath, part.args, {
    cwd: repoRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, AGENT_WORKBENCH_TEST_SUMMARY: summaryFile },
    // Its own process group, so a hung part can be stopped with everything it started.
    detached: true,
  });
  current = child;
  const { code, signal, problem } = await supervise(child, part, summaryFile);
  current = undefined;
  let counts;
  try {
    counts = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
  } catch {
    counts = undefined;
  }
  fs.rmSync(summaryDir, { recursive: true, force: true });
  const seconds = (Date.now() - started) / 1000;
  return { name: part.name, code: problem ? 1 : (code ?? 1), signal: problem ? 'stopped' : signal, counts, seconds };
}

/**
 * Waits for `child` to exit, stopping it when it passes its time limit or lingers after its tests
 * finished (the summary file appeared); resolves with how it ended.
 */
function supervise(child, part, summaryFile) {
  return new Promise((resolve) => {
    let problem;
    const stopWith = (why) => {
      problem = why;
      console.error(`\n  ${part.name}: ${why}; stopping it.`);
      killGroup(child.pid, 'SIGTERM');
      setTimeout(() => killGroup(child.pid, 'SIGKILL'), 5000).unref();
    };
    const limit = setTimeout(() => stopWith(`not finished after ${part.limitMs / minutes} minutes`), part.limitMs);
    let finishedAt;
    const watch = setInterval(() => {
      if (finishedAt === undefined && fs.existsSync(summaryFile)) finishedAt = Date.now();
      if (finishedAt !== undefined && Date.now() - finishedAt > EXIT_GRACE_MS) {
        clearInterval(watch);
        stopWith(`its tests finished but it did not exit within ${EXIT_GRACE_MS / 1000} s (a test left a socket, timer or server open)`);
      }
    }, 500);
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      clearInterval(watch);
      resolve({ code, signal, problem });
    });
  });
}

function printSummary(results) {
  console.log('\n━━ summary ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━');
  console.log(`  ${'suite'.padEnd(13)}${'passed'.padStart(7)}${'failed'.padStart(8)}${'pending'.padStart(9)}${'time'.padStart(9)}  result`);
  let passed = 0;
  let failed = 0;
  for (const result of results) {
    const counts = result.counts ?? { passed: 0, failed: 0, pending: 0 };
    // A part that exits non-zero without failed tests (it could not start) still counts as a failure.
    const partFailed = counts.failed + (result.code !== 0 && counts.failed === 0 ? 1 : 0);
    passed += counts.passed;
    failed += partFailed;
    const verdict = result.code === 0 ? 'ok' : `FAILED (${result.signal ?? `exit ${result.code}`})`;
    const cells = [counts.passed, partFailed, counts.pending].map((n, i) => String(n).padStart(i === 0 ? 7 : i === 1 ? 8 : 9));
    console.log(`  ${result.name.padEnd(13)}${cells.join('')}${`${result.seconds.toFixed(1)}s`.padStart(9)}  ${verdict}`);
  }
  const total = results.reduce((sum, result) => sum + result.seconds, 0);
  console.log(`  ${'total'.padEnd(37)}${`${total.toFixed(1)}s`.padStart(9)}`);
  console.log(`${passed} passed, ${failed} failed`);
  for (const result of results) {
    for (const title of result.counts?.failedTitles ?? []) console.log(`  ✗ ${result.name}: ${title}`);
  }
  return failed;
}

process.on('SIGINT', () => {
  if (current) killGroup(current.pid, 'SIGTERM');
  process.exit(130);
});

const results = [];
for (const part of parts) {
  const result = await runPart(part);
  results.push(result);
  if (part.gate && result.code !== 0) {
    console.error(`\n  The ${part.name} gate failed: the test suites were not run.`);
    break;
  }
}
const failed = printSummary(results);
process.exit(failed > 0 || results.some((result) => result.code !== 0) ? 1 : 0);
