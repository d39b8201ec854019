// Debian's Chromium driven by playwright-core (playwright's own browser builds cannot be
// downloaded here): headless, a fresh profile per launch, nothing that phones home.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { ensureDebianPackages } from './debian.mjs';

export const CHROMIUM_PATH = '/usr/bin/chromium';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Installs Debian's `chromium` when it is missing (as root), or says how to. */
export async function ensureChromium({ log = console.log } = {}) {
  await ensureDebianPackages([{ pkg: 'chromium', present: () => fs.existsSync(CHROMIUM_PATH), why: 'the browser the e2e tests drive' }], log);
  return CHROMIUM_PATH;
}

/**
 * Launches headless Chromium with a fresh user-data dir and returns a browser context (the
 * persistent-context API is what takes a profile folder); `close()` also removes the profile.
 */
export async function launchChromium({ viewport = { width: 1400, height: 900 } } = {}) {
  await ensureChromium();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-workbench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: FLAGS,
    viewport,
    // The workbench reads the clipboard for paste; granting it avoids a permission prompt.
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
