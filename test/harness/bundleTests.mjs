// Bundles the integration suite for the extension host: `test/integration/index.ts` and each
// `*.test.ts` become one file each under `out/test/integration/` (so mocha can load them one by
// one). Only `vscode` is left to the host: mocha is bundled into `index.js`, so the suite can be
// copied into the runner extension's folder, where VS Code gives its `vscode` import an owner.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './paths.mjs';

export const integrationSource = path.join(repoRoot, 'test', 'integration');
export const integrationOut = path.join(repoRoot, 'out', 'test', 'integration');

/** Bundles the integration suite and returns the path of its entry (`index.js`). */
export async function bundleIntegrationTests() {
  const tests = fs
    .readdirSync(integrationSource, { recursive: true, encoding: 'utf8' })
    .filter((entry) => entry.endsWith('.test.ts'))
    .map((entry) => path.join(integrationSource, entry));
  // Stale bundles of deleted tests would otherwise still run.
  fs.rmSync(integrationOut, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: [path.join(integrationSource, 'index.ts'), ...tests],
    outbase: integrationSource,
    outdir: integrationOut,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    external: ['vscode'],
    // As in esbuild.mjs: jsonc-parser's UMD build has dynamic requires a bundle cannot follow.
    alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
    logLevel: 'warning',
    define: { __TEST_HOOKS__: 'true' },
    // Mocha's parallel mode (never used here) resolves its worker files by path.
    logOverride: { 'require-resolve-not-external': 'silent' },
  });
  return path.join(integrationOut, 'index.js');
}
