// The screenshots in media/screenshots: shown by the README and the pages of docs/ (not shipped in the
// .vsix), each one small enough to read on a page and shown somewhere.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const SCREENSHOTS = path.join(root, 'media', 'screenshots');

/** The README and the pages of docs/, with their text. */
function pages(): { file: string; text: string }[] {
  const docs = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join(root, 'docs', f));
  return [path.join(root, 'README.md'), ...docs].map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
}

/** Repository-relative paths of the images a page shows (`![…](…)`), resolved from the page's folder. */
function imagesShown(): string[] {
  return pages().flatMap(({ file, text }) =>
    [...text.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => path.relative(root, path.resolve(path.dirname(file), m[1]!)).replaceAll('\\', '/')),
  );
}

describe('the screenshots', () => {
  const screenshots = fs.readdirSync(SCREENSHOTS).map((f) => `media/screenshots/${f}`);

  it('are JPEGs at most 1400 pixels wide and 1000 high', () => {
    assert.ok(screenshots.length > 0);
    for (const image of screenshots) {
      const size = jpegSize(fs.readFileSync(path.join(root, image)));
      assert.ok(size, `${image} is not a JPEG`);
      assert.ok(size.width <= 1400 && size.height <= 1000, `${image} is ${size.width}×${size.height}`);
    }
  });

  it('are each shown by the README or a page of docs/', () => {
    const shown = new Set(imagesShown());
    assert.deepEqual(screenshots.filter((s) => !shown.has(s)), [], 'screenshots no page shows');
  });
});

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
