// Entry of the integration suite, run inside a real extension host. It follows the
// @vscode/test-electron convention (VS Code calls `run(testsRoot, callback)` and awaits the promise),
// and also takes options from the code-server runner extension, which collects per-test results.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

/** What the code-server runner passes instead of VS Code's tests path. */
export interface RunOptions {
  /** Mocha reporter name; 'spec' prints to the extension host's console. */
  reporter?: string;
  /** Called with the mocha runner before the first test, to listen to its events. */
  onRunner?: (runner: Mocha.Runner) => void;
}

/** Runs every bundled `*.test.js` next to this file with mocha; rejects when any test failed. */
export async function run(testsRootOrOptions?: string | RunOptions): Promise<void> {
  const options = typeof testsRootOrOptions === 'object' ? testsRootOrOptions : {};
  const mocha = new Mocha({
    ui: 'bdd',
    reporter: options.reporter ?? 'spec',
    color: true,
    // Each test talks to a real workbench and, through it, to the sandbox service.
    timeout: 30_000,
    slow: 2_000,
  });
  const grep = process.env.AGENT_WORKBENCH_TEST_GREP;
  if (grep) mocha.grep(grep);
  // mocha.run() require()s them: the extension host resolves `vscode` for require, not for import().
  for (const file of testFiles(__dirname)) mocha.addFile(file);
  const failures = await new Promise<number>((resolve) => {
    const runner = mocha.run(resolve);
    options.onRunner?.(runner);
  });
  if (failures > 0) throw new Error(`${failures} tests failed.`);
}

function testFiles(root: string): string[] {
  const entries = fs.readdirSync(root, { recursive: true, encoding: 'utf8' });
  return entries
    .filter((entry) => entry.endsWith('.test.js'))
    .sort()
    .map((entry) => path.join(root, entry));
}
