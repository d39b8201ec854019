// The same integration suite under @vscode/test-electron, in desktop VS Code. It downloads VS Code
// on first use, so it needs internet access (the test machines here have none: there, `npm run
// test:integration` runs the suite in code-server instead).
import { runTests } from '@vscode/test-electron';
import { bundleIntegrationTests } from './bundleTests.mjs';
import { buildExtension } from './extensionBuild.mjs';
import { INTEGRATION_ENV } from './integration.mjs';
import { repoRoot } from './paths.mjs';
import { createProfile } from './profile.mjs';

const profile = createProfile({ name: 'electron' });
let code = 1;
try {
  await buildExtension();
  const extensionTestsPath = await bundleIntegrationTests();
  await runTests({
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath,
    extensionTestsEnv: INTEGRATION_ENV,
    launchArgs: [
      profile.workspaceDir,
      '--user-data-dir', profile.userDataDir,
      '--extensions-dir', profile.extensionsDir,
      '--disable-workspace-trust',
      // Headless machines have no GPU; harmless on a desktop.
      '--disable-gpu',
    ],
  });
  code = 0;
} catch (error) {
  console.error(`\n  The integration suite failed under @vscode/test-electron: ${error.message ?? error}`);
} finally {
  profile.dispose();
}
process.exit(code);
