// Building the extension under test and putting it into an extensions folder: either unpacked
// (the integration suite, which must not depend on packaging) or as the packaged .vsix (e2e, demo).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot, vsixPath } from './paths.mjs';
import { run } from './processes.mjs';

const manifest = () => JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));

/** The extension's id as VS Code knows it (`publisher.name`). */
export function extensionId() {
  const { publisher, name } = manifest();
  return `${publisher}.${name}`;
}

/**
 * Bundles the extension, the sandbox and its worker into dist/: the test build (`node esbuild.mjs
 * --test-hooks`, with the test API the integration suite drives), unless `shipped` asks for the
 * build users get.
 */
export async function buildExtension({ shipped = false } = {}) {
  await run(process.execPath, ['esbuild.mjs', ...(shipped ? [] : ['--test-hooks'])], { cwd: repoRoot });
  const main = path.join(repoRoot, manifest().main);
  if (!fs.existsSync(main)) throw new Error(`The build did not produce ${path.relative(repoRoot, main)}.`);
}

/** Builds and packages the extension (`npm run package`, the build users get); returns the path of the .vsix. */
export async function packageExtension() {
  await run('npm', ['run', '--silent', 'package'], { cwd: repoRoot });
  if (!fs.existsSync(vsixPath)) throw new Error(`npm run package did not write ${vsixPath}`);
  return vsixPath;
}

/**
 * Packages the test build (test API, render reports, scroll measurement) as `target` for the
 * benchmarks, then builds dist/ again as users get it, so that nothing of the test build stays behind.
 */
export async function packageTestBuild(target) {
  await run(process.execPath, ['esbuild.mjs', '--test-hooks'], { cwd: repoRoot });
  try {
    await run('npx', ['--no-install', 'vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', target], { cwd: repoRoot });
  } finally {
    await run(process.execPath, ['esbuild.mjs'], { cwd: repoRoot });
  }
  if (!fs.existsSync(target)) throw new Error(`vsce package did not write ${target}`);
  return target;
}

/**
 * Copies the files `vsce` would package (per .vscodeignore) into
 * `<extensionsDir>/<publisher>.<name>-<version>/`, the layout VS Code scans. Build first.
 */
export async function installUnpacked(extensionsDir) {
  const { publisher, name, version } = manifest();
  const target = path.join(extensionsDir, `${publisher}.${name}-${version}`);
  const listed = await run('npx', ['--no-install', 'vsce', 'ls', '--no-dependencies'], { cwd: repoRoot });
  const files = listed
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && fs.existsSync(path.join(repoRoot, line)));
  if (!files.includes('package.json')) throw new Error(`vsce ls listed no package.json:\n${listed}`);
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, file), path.join(target, file));
  }
  return target;
}

/** Copies an extension folder that is used as it is (the test runner) into `extensionsDir`. */
export function installFolder(sourceDir, extensionsDir) {
  const { publisher, name, version } = JSON.parse(fs.readFileSync(path.join(sourceDir, 'package.json'), 'utf8'));
  const target = path.join(extensionsDir, `${publisher}.${name}-${version}`);
  fs.cpSync(sourceDir, target, { recursive: true });
  return target;
}
