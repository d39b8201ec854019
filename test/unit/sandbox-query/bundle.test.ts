import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { runNode } from './childProcess';

const root = path.resolve(__dirname, '../../..');

/** Builds the engine and its worker the way esbuild.mjs does: one folder, the worker next to the bundle. */
async function bundleInto(dir: string, withWorker: boolean): Promise<void> {
  const options: esbuild.BuildOptions = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', minify: true, logLevel: 'silent' };
  await esbuild.build({ ...options, entryPoints: [path.join(root, 'src/sandbox/query/index.ts')], outfile: path.join(dir, 'sandbox.js') });
  if (withWorker) {
    await esbuild.build({ ...options, entryPoints: [path.join(root, 'src/sandbox/query/worker.ts')], outfile: path.join(dir, 'queryWorker.js') });
  }
  fs.copyFileSync(path.join(root, 'node_modules/sql.js/dist/sql-wasm.wasm'), path.join(dir, 'sql-wasm.wasm'));
}

const script = (bundle: string) => `
  const { createQueryEngine } = require(${JSON.stringify(bundle)});
  const engine = createQueryEngine();
  engine.run('SELECT count(*) FROM conversations').then(async (outcome) => {
    console.log(JSON.stringify(outcome.status === 'SUCCESS' ? outcome.results[0].result_rows : outcome.error));
    await engine.close();
  });`;

describe('the bundled query engine', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'query-bundle-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('runs queries from a dist folder, with the worker next to the bundle and no TypeScript around', async function () {
    this.timeout(60_000);
    await bundleInto(dir, true);
    // Run from the temporary folder so nothing of the repository (tsx, sources) can be picked up.
    const child = await runNode(['-e', script(path.join(dir, 'sandbox.js'))], 30_000, dir);
    assert.equal(child.code, 0, child.stderr);
    assert.equal(child.stdout.trim(), '[["6000"]]');
  });

  it('says plainly that the worker is missing when the bundle was shipped without it', async function () {
    this.timeout(60_000);
    await bundleInto(dir, false);
    const child = await runNode(['-e', script(path.join(dir, 'sandbox.js'))], 30_000, dir);
    assert.equal(child.code, 0, child.stderr);
    assert.match(child.stdout, /The query engine could not start: The query worker is missing/);
  });
});
