// A throwaway VS Code profile for one run: user-data folder (with settings.json), extensions folder
// and a workspace folder, all under one temporary root that `dispose()` removes.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Settings that keep a test workbench quiet and predictable (no tours, updates or trust prompts). */
export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
  'chat.commandCenter.enabled': false,
  'window.commandCenter': false,
};

/**
 * What `npm run demo` gives VS Code beyond the quiet defaults: the environment that makes the extension
 * open its walkthrough the first time it runs (VS Code does so only for extensions installed from its
 * Extensions view, and the demo installs from the command line).
 */
export const DEMO_ENV = { AGENT_WORKBENCH_OPEN_WALKTHROUGH: '1' };

/**
 * Creates the folders of a fresh profile. `settings` are merged over the quiet defaults and
 * written to the user settings; `files` (relative path → text) are written into the workspace.
 */
export function createProfile({ name = 'run', settings = {}, files = {}, root } = {}) {
  const base = root ?? fs.mkdtempSync(path.join(os.tmpdir(), `agent-workbench-${name}-`));
  const profile = {
    root: base,
    userDataDir: path.join(base, 'user-data'),
    extensionsDir: path.join(base, 'extensions'),
    workspaceDir: path.join(base, 'workspace'),
    dispose: () => fs.rmSync(base, { recursive: true, force: true }),
  };
  fs.mkdirSync(path.join(profile.userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(profile.extensionsDir, { recursive: true });
  fs.mkdirSync(profile.workspaceDir, { recursive: true });
  writeUserSettings(profile, settings);
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(profile.workspaceDir, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return profile;
}

/** Writes the user settings.json of `profile` (quiet defaults plus `settings`). */
export function writeUserSettings(profile, settings) {
  const file = path.join(profile.userDataDir, 'User', 'settings.json');
  fs.writeFileSync(file, `${JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2)}\n`);
}

/** Copies the logs of the profile's workbench (server, extension host, windows) to `dest`. */
export function saveLogs(profile, dest) {
  const logs = path.join(profile.userDataDir, 'logs');
  if (!fs.existsSync(logs)) return undefined;
  fs.rmSync(dest, { recursive: true, force: true });
  fs.cpSync(logs, dest, { recursive: true });
  return dest;
}
