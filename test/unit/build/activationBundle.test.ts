// VS Code evaluates dist/extension.js whole at activation, before any view draws: it holds the wiring
// and what the first drawing of the views needs, and stays within its budget. Commands, panels, the
// client and the editors' engines load on first use (docs/performance.md).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');

/** What dist/extension.js may weigh (bytes, minified as users get it). */
const ACTIVATION_BUDGET = 250 * 1024;

interface Metafile {
  outputs: Record<string, { bytes: number; entryPoint?: string; inputs: Record<string, { bytesInOutput: number }> }>;
}

/** The activation bundle's output in a metafile: its size and the bytes each module adds to it. */
function activationOutput(meta: Metafile): { bytes: number; modules: [string, number][] } {
  const output = Object.values(meta.outputs).find((o) => o.entryPoint !== undefined);
  assert.ok(output, 'the metafile names the bundle of its entry');
  const modules = Object.entries(output.inputs).map(([file, { bytesInOutput }]): [string, number] => [file, bytesInOutput]);
  return { bytes: output.bytes, modules: modules.sort((a, b) => b[1] - a[1]) };
}

describe('the code VS Code evaluates at activation', function () {
  this.timeout(120_000);
  let out: string;

  before(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-activation-'));
    const result = spawnSync(process.execPath, ['esbuild.mjs', `--out=${out}`], { cwd: root, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
  });
  after(() => fs.rmSync(out, { recursive: true, force: true }));

  it(`fits in ${ACTIVATION_BUDGET / 1024} KB: what a command or a panel needs only when used loads then`, () => {
    const meta = JSON.parse(fs.readFileSync(path.join(out, 'dist', 'extension.meta.json'), 'utf8')) as Metafile;
    const { bytes, modules } = activationOutput(meta);
    assert.equal(bytes, fs.statSync(path.join(out, 'dist', 'extension.js')).size, 'the metafile describes the bundle written');
    const biggest = modules.slice(0, 10).map(([file, size]) => `  ${String(size).padStart(6)}  ${file}`);
    assert.ok(bytes <= ACTIVATION_BUDGET, `dist/extension.js is ${bytes} bytes, over its budget of ${ACTIVATION_BUDGET}; its biggest modules:\n${biggest.join('\n')}`);
  });

  it('shares modules with the bundles loaded on first use instead of copying them', () => {
    // A copy would have its own module state and classes (see sharedWithActivation in esbuild.mjs).
    const activation = new Set(activationOutput(JSON.parse(fs.readFileSync(path.join(out, 'dist', 'extension.meta.json'), 'utf8')) as Metafile).modules.map(([file]) => file));
    for (const lazy of ['commands', 'panels']) {
      const { modules } = activationOutput(JSON.parse(fs.readFileSync(path.join(out, 'dist', `${lazy}.meta.json`), 'utf8')) as Metafile);
      const copied = modules.map(([file]) => file).filter((file) => file.startsWith('src/') && activation.has(file));
      assert.deepEqual(copied, [], `dist/${lazy}.js copies modules of the activation bundle`);
      assert.ok(modules.some(([file]) => file.startsWith('activation:')), `dist/${lazy}.js takes modules from the activation bundle`);
    }
  });
});
