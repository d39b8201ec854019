// What the .vsix holds: only what runs (the bundles, the SQLite binary, schemas, media) and the
// documents a marketplace shows — never sources, tests, source maps, benchmarks, tooling or screenshots.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const root = path.resolve(__dirname, '..', '..', '..');

describe('the packaged extension', function () {
  this.timeout(60_000);
  let files: string[];

  before(async () => {
    // The same list `vsce package` (npm run package) puts into the .vsix, from .vscodeignore.
    const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
    const { stdout } = await promisify(execFile)(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: root });
    files = stdout.split('\n').map((line) => line.trim().replaceAll('\\', '/')).filter(Boolean);
  });

  it('holds no sources, tests, source maps, benchmarks, tooling or dependencies', () => {
    const unwanted = files.filter((file) => /\.(ts|map|mjs|cjs|tsx)$/.test(file) || /^(src|test|bench|assets|node_modules|\.ci|\.github)\//.test(file) || /(^|\/)tsconfig[^/]*\.json$/.test(file));
    assert.deepEqual(unwanted, [], 'files that do not run would ship');
  });

  it('holds the manifest, the documents a marketplace shows and the icon', () => {
    for (const needed of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'media/icon.png']) assert.ok(files.includes(needed), `${needed} is missing`);
  });

  it('holds every file the manifest points to', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { icon: string; contributes: { walkthroughs?: { steps: { media: Record<string, string | { light: string; dark: string }> }[] }[] } };
    const pointed = [manifest.icon];
    for (const walkthrough of manifest.contributes.walkthroughs ?? []) {
      for (const step of walkthrough.steps) {
        for (const value of Object.values(step.media)) {
          if (typeof value === 'string' && value.includes('/')) pointed.push(value);
          else if (typeof value === 'object') pointed.push(value.light, value.dark);
        }
      }
    }
    for (const file of pointed) {
      assert.ok(fs.existsSync(path.join(root, file)), `${file} does not exist`);
      assert.ok(files.includes(file), `${file} would not be packaged`);
    }
  });

  it('holds every bundle the extension loads, and not the command line for CI', () => {
    const bundles = fs.existsSync(path.join(root, 'dist')) ? fs.readdirSync(path.join(root, 'dist')).filter((f) => f.endsWith('.js') && !f.startsWith('.')) : [];
    for (const bundle of bundles.filter((f) => f !== 'cli.js')) assert.ok(files.includes(`dist/${bundle}`), `dist/${bundle} would not be packaged`);
    assert.deepEqual(files.filter((f) => f === 'dist/cli.js'), []);
  });

  it('ships no screenshot: the details page shows only https images, so the README’s point at a base URL (npm run package -- --baseImagesUrl)', () => {
    assert.deepEqual(files.filter((f) => f.startsWith('media/screenshots/')), [], 'screenshots would ship in the .vsix');
  });
});
