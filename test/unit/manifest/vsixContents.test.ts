// What the .vsix holds: only what runs (the bundles, the SQLite binary, schemas, media) and the
// documents a marketplace shows — never sources, tests, source maps, benchmarks or tooling.
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

  it('holds every image the README shows, so its details page shows no broken image, and no image it does not show', () => {
    const shown = readmeImages();
    assert.ok(shown.length > 0);
    for (const image of shown) assert.ok(files.includes(image), `${image} is shown by the README but would not be packaged`);
    assert.deepEqual(files.filter((f) => f.startsWith('media/screenshots/') && !shown.includes(f)), [], 'screenshots the README does not show');
  });

  it('keeps the README’s images small: JPEG, at most 1400 pixels wide, at most 1 MB together (apart from the code’s budget)', () => {
    let total = 0;
    for (const image of readmeImages()) {
      const bytes = fs.readFileSync(path.join(root, image));
      total += bytes.length;
      const size = jpegSize(bytes);
      assert.ok(size, `${image} is not a JPEG`);
      assert.ok(size.width <= 1400 && size.height <= 1000, `${image} is ${size.width}×${size.height}`);
    }
    assert.ok(total <= IMAGES_BUDGET, `the README's images take ${total} bytes`);
  });
});

/** The README's images may add this much to the .vsix, apart from the code's 1 MB. */
const IMAGES_BUDGET = 1024 * 1024;

/** Local images the README shows (`![…](media/…)`). */
function readmeImages(): string[] {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  return [...readme.matchAll(/!\[[^\]]*\]\((media\/[^)\s]+)\)/g)].map((m) => m[1]!);
}

/** Width and height from a JPEG's frame header, or undefined when it is not a JPEG. */
function jpegSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  for (let at = 2; at + 9 < bytes.length; ) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    const length = bytes.readUInt16BE(at + 2);
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  return undefined;
}
