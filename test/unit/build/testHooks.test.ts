// Hooks that only tests and benchmarks use (the test API, the grid's render reports and scroll
// measurement, replaceable prompts) are built into the test build only, never into what users get.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');

/** A string each hook leaves in a bundle that has it. */
const HOOK_MARKERS = [
  'AGENT_WORKBENCH_TEST_API', // the test API
  'debugState', // a results panel's record of what it sent and was told
  'foreignElements', // the page's render report
  'scrollMeasured', // the page's scroll measurement
  'policySave', // replaceable prompts
];

/** Runs esbuild.mjs writing under `out`; returns the text of every script it wrote. */
function build(out: string, ...flags: string[]): Map<string, string> {
  const result = spawnSync(process.execPath, ['esbuild.mjs', `--out=${out}`, ...flags], { cwd: root, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return scripts(out);
}

function scripts(base: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const dir of ['dist', ...['resultsGrid', 'jobView', 'summaryPreview', 'comparison'].map((page) => path.join('media', page))]) {
    const folder = path.join(base, dir);
    if (!fs.existsSync(folder)) continue;
    for (const name of fs.readdirSync(folder).filter((n) => n.endsWith('.js'))) files.set(path.join(dir, name), fs.readFileSync(path.join(folder, name), 'utf8'));
  }
  return files;
}

function hooksIn(files: Map<string, string>): string[] {
  return [...files].flatMap(([file, text]) => HOOK_MARKERS.filter((m) => text.includes(m)).map((m) => `${file}: ${m}`));
}

describe('the build users get', function () {
  this.timeout(120_000);
  let out: string;

  before(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-build-'));
  });
  after(() => fs.rmSync(out, { recursive: true, force: true }));

  it('carries none of the hooks that only tests and benchmarks use', () => {
    const files = build(path.join(out, 'shipped'));
    // Every page bundle is written under --out, so each is checked (the comparison page was once written beside it).
    for (const page of [['resultsGrid', 'resultsGrid.js'], ['jobView', 'jobView.js'], ['summaryPreview', 'main.js'], ['comparison', 'comparison.js']]) {
      assert.ok(files.has(path.join('media', ...page)), `${page.join('/')} is in the build`);
    }
    assert.ok(files.has(path.join('dist', 'extension.js')));
    assert.deepEqual(hooksIn(files), []);
  });

  it('evaluates at activation only the wiring and small core helpers: no package, no client, no schemas', () => {
    // The build writes the activation bundle's inputs beside it (the rule is in src/extension/lazyCore.ts).
    const file = path.join(out, 'shipped', 'dist', 'extension.meta.json');
    if (!fs.existsSync(file)) build(path.join(out, 'shipped'));
    const meta = JSON.parse(fs.readFileSync(file, 'utf8')) as { inputs: Record<string, unknown> };
    const heavy = Object.keys(meta.inputs).filter((input) => input.includes('node_modules') || input.startsWith('src/core/client/'));
    assert.deepEqual(heavy, []);
  });

  it('while the test build has every one of them', () => {
    const found = hooksIn(build(path.join(out, 'test'), '--test-hooks')).map((hit) => hit.split(': ')[1]);
    assert.deepEqual([...new Set(found)].sort(), [...HOOK_MARKERS].sort());
  });

  it('and dist/, when it holds the build users get, carries none of them either', function () {
    const info = path.join(root, 'dist', 'build.json');
    // dist/ holds the test build after an integration run; `npm run package` builds it again as users get it.
    if (!fs.existsSync(info) || (JSON.parse(fs.readFileSync(info, 'utf8')) as { testHooks: boolean }).testHooks) this.skip();
    assert.deepEqual(hooksIn(scripts(root)), []);
  });
});
