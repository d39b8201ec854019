// Renders icon.svg to media/icon.png, the 128 px icon of the manifest, with the Chromium the tests
// use. Run after changing the SVG: `node assets/icon/render.mjs` (the PNG is committed).
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../../test/harness/chromium.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const browser = await launchChromium({ viewport: { width: 128, height: 128 } });
try {
  const page = await browser.context.newPage();
  await page.goto(`file://${path.join(here, 'icon.svg')}`);
  await page.screenshot({ path: path.join(here, '..', '..', 'media', 'icon.png'), omitBackground: true, clip: { x: 0, y: 0, width: 128, height: 128 } });
} finally {
  await browser.close();
}
