// What the TypeScript test support (test/e2e/support) uses from the harness; typed by index.d.mts.
export { ensureChromium, launchChromium } from './chromium.mjs';
export { ensureCodeServer, installVsix, startCodeServer } from './codeServer.mjs';
export { installOnce, isInstalled, withInstallLock, INSTALLED_MARKER } from './installOnce.mjs';
export { resultsDir, repoRoot, vsixPath } from './paths.mjs';
export { preferredPort } from './processes.mjs';
export { packageTestBuild } from './extensionBuild.mjs';
export { createProfile, DEMO_ENV, saveLogs, writeUserSettings } from './profile.mjs';
export { startSandboxProcess, writeConnectionFile } from './sandbox.mjs';
export { DEMO_RUN_FILE, DEMO_WORKSPACE_FILES } from './demoWorkspace.mjs';
