// Debian packages the harness needs (Chromium, libkrb5-dev, ripgrep): installed with apt-get when
// missing and running as root, otherwise a message that says exactly what to install.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { run } from './processes.mjs';

let listsUpdated = false;

/**
 * Makes sure each Debian package whose `present()` check fails gets installed.
 * `needs` is a list of `{ pkg, present: () => boolean, why }`.
 */
export async function ensureDebianPackages(needs, log = console.log) {
  const missing = needs.filter((need) => !need.present());
  if (missing.length === 0) return;
  const names = missing.map((need) => need.pkg);
  const why = missing.map((need) => `  ${need.pkg}: ${need.why}`).join('\n');
  const isRoot = process.getuid?.() === 0;
  if (!isRoot || !fs.existsSync('/usr/bin/apt-get')) {
    throw new Error(
      `Missing system packages:\n${why}\nInstall them, then run again:\n` +
        `  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${names.join(' ')}`,
    );
  }
  log(`Installing Debian packages: ${names.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!listsUpdated) {
    await run('apt-get', ['update'], { env });
    listsUpdated = true;
  }
  await run('apt-get', ['install', '-y', '--no-install-recommends', ...names], { env });
  const still = missing.filter((need) => !need.present());
  if (still.length > 0) throw new Error(`apt-get installed ${names.join(' ')} but these are still missing:\n${why}`);
}

/** True when the Debian package `name` is installed, as dpkg-query reports it. */
export function dpkgInstalled(name) {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.includes('install ok installed');
}
