import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { ActivationProbe } from '../../../bench/host/activationProbe';

/** A fake extension on disk: dist/extension.js requires a helper at load and a lazy bundle on use. */
function fakeExtension(): { root: string; main: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-probe-'));
  const dist = path.join(root, 'dist');
  fs.mkdirSync(dist);
  fs.writeFileSync(path.join(dist, 'helper.js'), 'exports.answer = 42;\n');
  fs.writeFileSync(path.join(dist, 'lazy.js'), 'exports.loaded = true;\n');
  fs.writeFileSync(path.join(dist, 'wired.js'), 'exports.wired = true;\n');
  fs.writeFileSync(
    path.join(dist, 'extension.js'),
    [
      "const helper = require('./helper.js');",
      "exports.activate = function (context) { require('./wired.js'); return { answer: helper.answer, context }; };",
      "exports.useLater = function () { return require('./lazy.js').loaded; };",
      'exports.deactivate = function () {};',
    ].join('\n'),
  );
  return { root, main: path.join(dist, 'extension.js') };
}

describe('The activation probe', () => {
  let extension: { root: string; main: string };
  let probe: ActivationProbe;
  const loadBefore = (Module as unknown as { _load: unknown })._load;

  beforeEach(() => {
    extension = fakeExtension();
    probe = new ActivationProbe(extension.main);
  });

  afterEach(() => {
    probe.dispose();
    fs.rmSync(extension.root, { recursive: true, force: true });
  });

  it('times the require and the activate call and lists the files both evaluated, with their sizes', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the probe measures Node's own require of the extension's main file
    const exports = require(extension.main) as { activate(context: unknown): { answer: number; context: unknown }; deactivate(): void };
    const result = exports.activate('ctx');
    assert.deepEqual(result, { answer: 42, context: 'ctx' }, 'activate still does what it did');
    assert.equal(typeof exports.deactivate, 'function', 'the other exports are kept');
    const seen = await probe.result(1000);
    assert.ok(seen);
    assert.ok(seen.codeLoadMs >= 0 && seen.activateCallMs >= 0 && seen.activateResolvedMs >= seen.activateCallMs);
    const files = seen.modules.map((m) => path.basename(m.file)).sort();
    assert.deepEqual(files, ['extension.js', 'helper.js', 'wired.js']);
    for (const m of seen.modules) assert.equal(m.bytes, fs.statSync(m.file).size);
  });

  it('tells the extension\'s files loaded after activation apart from those loaded during it', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the probe measures Node's own require of the extension's main file
    const exports = require(extension.main) as { activate(): unknown; useLater(): boolean };
    exports.activate();
    assert.deepEqual(probe.loadedSinceActivation(), []);
    assert.equal(exports.useLater(), true);
    assert.deepEqual(probe.loadedSinceActivation().map((m) => path.basename(m.file)), ['lazy.js']);
  });

  it('has nothing to report when the extension never activated', async () => {
    assert.equal(await probe.result(50), undefined);
  });

  it('puts the loader back when disposed', () => {
    probe.dispose();
    assert.equal((Module as unknown as { _load: unknown })._load, loadBefore);
  });
});
