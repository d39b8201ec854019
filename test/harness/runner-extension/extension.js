// Runs the bundled integration suite inside the real extension host (code-server rejects
// --extensionTestsPath) and writes what happened as JSON for the Node side of the harness.
// It does nothing unless the harness set AGENT_WORKBENCH_TEST_BUNDLE and AGENT_WORKBENCH_TEST_RESULTS.
'use strict';
const fs = require('node:fs');

// An error or rejection that escapes in the last moments of a test surfaces a tick later.
const SETTLE_MS = 500;

/** Starts the suite once per server: a second window (a reload) finds the claim and stays idle. */
function activate() {
  const bundle = process.env.AGENT_WORKBENCH_TEST_BUNDLE;
  const resultsFile = process.env.AGENT_WORKBENCH_TEST_RESULTS;
  if (!bundle || !resultsFile) return;
  try {
    fs.writeFileSync(`${resultsFile}.claimed`, String(process.pid), { flag: 'wx' });
  } catch {
    return;
  }
  // Not awaited: activation must finish so the workbench (and the extension under test) go on.
  void runSuite(bundle, resultsFile);
}

async function runSuite(bundle, resultsFile) {
  process.setSourceMapsEnabled?.(true);
  const started = Date.now();
  const report = { startedAt: new Date(started).toISOString(), tests: [], escaped: [], fatal: undefined };
  // Mocha re-emits the rejections it sees, so the same reason can arrive twice.
  const seen = new Set();
  const escape = (kind) => (reason) => {
    if (seen.has(reason)) return;
    seen.add(reason);
    report.escaped.push(describeError(kind, reason, report));
  };
  const onRejection = escape('unhandled rejection');
  const onUncaught = escape('uncaught exception');
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onUncaught);
  try {
    const suite = require(bundle);
    if (typeof suite.run !== 'function') throw new Error(`${bundle} exports no run()`);
    await suite.run({ reporter: 'base', onRunner: (runner) => collect(runner, report) }).catch((error) => {
      // run() rejects when tests failed (the @vscode/test-electron convention); they are recorded already.
      if (!/tests? failed/.test(String(error?.message))) throw error;
    });
  } catch (error) {
    report.fatal = describeError('suite could not run', error, report);
  }
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  process.off('unhandledRejection', onRejection);
  process.off('uncaughtException', onUncaught);
  report.durationMs = Date.now() - started;
  report.env = { AGENT_WORKBENCH_TEST_PROBE: process.env.AGENT_WORKBENCH_TEST_PROBE ?? null };
  // Written whole, then renamed, so the harness never reads half a file.
  fs.writeFileSync(`${resultsFile}.tmp`, JSON.stringify(report, null, 2));
  fs.renameSync(`${resultsFile}.tmp`, resultsFile);
}

/** Records every test as it ends, with its title path, state, duration and error. */
function collect(runner, report) {
  const record = (test, state, error) => {
    report.current = undefined;
    report.tests.push({
      titlePath: test.titlePath(),
      file: test.file,
      state,
      durationMs: test.duration ?? 0,
      error: error ? describeError('failed', error) : undefined,
    });
  };
  runner.on('test', (test) => (report.current = test.fullTitle()));
  runner.on('pass', (test) => record(test, 'passed'));
  runner.on('pending', (test) => record(test, 'pending'));
  // A failing hook arrives here too: it is recorded under the hook's title ("before all" ...).
  runner.on('fail', (test, error) => record(test, 'failed', error));
}

function describeError(kind, error, report) {
  const isError = error instanceof Error;
  return {
    kind,
    message: isError ? error.message : String(error),
    stack: isError ? error.stack : undefined,
    during: report?.current,
  };
}

function deactivate() {}

module.exports = { activate, deactivate };
