// The integration suite in a real extension host: code-server with the extension installed
// unpacked and the runner extension beside it, a headless browser that opens the workbench (so
// the extension host starts), and the results the runner writes, printed mocha-style.
// `node test/harness/integration.mjs` runs it; exit code 1 on failures, errors or timeout.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleIntegrationTests, integrationOut } from './bundleTests.mjs';
import { launchChromium } from './chromium.mjs';
import { ensureCodeServer, startCodeServer } from './codeServer.mjs';
import { buildExtension, installFolder, installUnpacked } from './extensionBuild.mjs';
import { repoRoot, resultsDir } from './paths.mjs';
import { createProfile, saveLogs } from './profile.mjs';
import { printReport } from './report.mjs';
import { remapStack } from './stackMap.mjs';
import { enableContractCheck, reportContractCheck } from './contractCheck.mjs';

/**
 * What the extension under test is told in an integration run: return its test API from
 * activate(). The tests start their own sandboxes and sign in themselves.
 */
export const INTEGRATION_ENV = { AGENT_WORKBENCH_TEST_API: '1' };

const runnerExtension = path.join(repoRoot, 'test', 'harness', 'runner-extension');
const timeoutMs = Number(process.env.AGENT_WORKBENCH_TEST_TIMEOUT_MS ?? 10 * 60_000);
// The runner claims the run as soon as the extension host starts; far longer means it never will.
const claimTimeoutMs = 120_000;

/** Runs the integration suite once; resolves with `{ passed, failed, pending }`. */
export async function runIntegration() {
  await Promise.all([buildExtension(), ensureCodeServer()]);
  await bundleIntegrationTests();
  const profile = createProfile({ name: 'integration' });
  const resultsFile = path.join(profile.root, 'results.json');
  const contractDir = enableContractCheck();
  const cleanup = [];
  try {
    await installUnpacked(profile.extensionsDir);
    const runnerDir = installFolder(runnerExtension, profile.extensionsDir);
    // Inside the runner's folder the suite's `require('vscode')` belongs to an extension.
    const suiteDir = path.join(runnerDir, 'suite');
    fs.cpSync(integrationOut, suiteDir, { recursive: true });
    const env = {
      AGENT_WORKBENCH_TEST_BUNDLE: path.join(suiteDir, 'index.js'),
      AGENT_WORKBENCH_TEST_RESULTS: resultsFile,
      // The harness test checks this arrives, proving the host inherits the server's environment.
      AGENT_WORKBENCH_TEST_PROBE: 'reached-extension-host',
      ...INTEGRATION_ENV,
    };
    const server = await startCodeServer({ ...profile, folder: profile.workspaceDir, env });
    cleanup.unshift(server.stop);
    const browser = await launchChromium();
    cleanup.unshift(browser.close);
    const page = await browser.context.newPage();
    await page.goto(server.url);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const report = await waitForResults(resultsFile, server);
    const counts = printReport(report, { mapStack: (stack) => remapStack(stack, suiteDir, integrationOut) });
    // A contract violation fails the run (the test that met it also got a marked 500).
    const violations = reportContractCheck(contractDir);
    counts.failed += violations;
    if (violations > 0) counts.failedTitles.push(`contract check: ${violations} violation(s), listed above`);
    if (counts.failed > 0) await keepEvidence(page, profile);
    return counts;
  } catch (error) {
    saveLogs(profile, path.join(resultsDir, 'integration', 'logs'));
    throw error;
  } finally {
    for (const stop of cleanup) await stop().catch((error) => console.error(`cleanup: ${error.message}`));
    profile.dispose();
  }
}

async function waitForResults(resultsFile, server) {
  const started = Date.now();
  let serverGone = false;
  server.exited?.then(() => (serverGone = true));
  while (!fs.existsSync(resultsFile)) {
    const waited = Date.now() - started;
    if (serverGone) throw new Error(`code-server exited before the suite finished:\n${server.output().slice(-3000)}`);
    const runnerPid = claimedBy(`${resultsFile}.claimed`);
    if (waited > claimTimeoutMs && runnerPid === undefined) {
      throw new Error('The test-runner extension never started: the extension host did not come up (see test-results/integration/logs).');
    }
    // A window reload or a crash ends the extension host that runs the suite; its results never come.
    if (runnerPid !== undefined && !isAlive(runnerPid) && !fs.existsSync(resultsFile)) {
      throw new Error(`The extension host running the suite (pid ${runnerPid}) exited before the suite finished.`);
    }
    if (waited > timeoutMs) throw new Error(`The integration suite did not finish within ${timeoutMs / 1000} s.`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
}

function claimedBy(claimFile) {
  if (!fs.existsSync(claimFile)) return undefined;
  const pid = Number(fs.readFileSync(claimFile, 'utf8'));
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

async function keepEvidence(page, profile) {
  const dir = path.join(resultsDir, 'integration');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, 'workbench-at-failure.png') }).catch(() => undefined);
  const logs = saveLogs(profile, path.join(dir, 'logs'));
  console.log(`\n  Screenshot and logs: ${path.relative(repoRoot, logs ?? dir)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runIntegration().then(
    (counts) => {
      // `npm test` totals the parts from this file (the unit and e2e runs write it via their reporter).
      const summary = process.env.AGENT_WORKBENCH_TEST_SUMMARY;
      if (summary) fs.writeFileSync(summary, JSON.stringify(counts));
      process.exit(counts.failed > 0 ? 1 : 0);
    },
    (error) => {
      console.error(`\n  The integration suite could not run: ${error.stack ?? error}`);
      process.exit(1);
    },
  );
}
