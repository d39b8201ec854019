// One e2e suite's world: its own sandbox service, code-server (with the packaged .vsix installed)
// and browser, started before the suite's tests and stopped after them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  createProfile,
  installVsix,
  launchChromium,
  resultsDir,
  saveLogs,
  startCodeServer,
  startSandboxProcess,
  vsixPath,
  writeConnectionFile,
  writeUserSettings,
  type Connection,
  type Profile,
} from '../../harness/index.mjs';
import { FaultAdminClient } from '../../../src/sandbox/faults/adminClient';
import { Workbench } from './workbench';

export interface SessionOptions {
  /**
   * How the extension meets the sandbox: `signedIn` provisions it through AGENT_WORKBENCH_CONNECT
   * (no UI); `settingsOnly` writes baseUrl and organizationId to the user settings, so signing in
   * asks only for the token; `none` starts no sandbox.
   */
  sandbox?: 'signedIn' | 'settingsOnly' | 'none';
  /** More user settings. */
  settings?: Record<string, unknown>;
  /** More environment for VS Code's server and extension host. */
  env?: Record<string, string>;
  /** Files to put in the workspace folder (relative path → text). */
  files?: Record<string, string>;
}

export interface WorkbenchSession {
  workbench: Workbench;
  /** The sandbox's connection (undefined with `sandbox: 'none'`). */
  sandbox: Connection | undefined;
  /** Switches the sandbox's fault mode, as the integration tests do (undefined with `sandbox: 'none'`). */
  faults: FaultAdminClient | undefined;
  profile: Profile;
  url: string;
  /** Screenshot and VS Code logs into test-results/e2e/<name>/. */
  saveEvidence(name: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts sandbox, code-server and browser for one suite and opens the workbench. */
export async function startSession(name: string, options: SessionOptions = {}): Promise<WorkbenchSession> {
  if (!fs.existsSync(vsixPath)) throw new Error(`${vsixPath} is missing: run the e2e suite with \`npm run test:e2e\`, which packages it.`);
  const mode = options.sandbox ?? 'settingsOnly';
  const profile = createProfile({ name: `e2e-${name}`, settings: options.settings, files: options.files });
  const stops: Array<() => Promise<void>> = [() => Promise.resolve(profile.dispose())];
  const close = async (): Promise<void> => {
    for (const stop of stops.splice(0)) await stop().catch((error: Error) => console.error(`  cleanup: ${error.message}`));
  };
  try {
    await installVsix(vsixPath, profile);
    const env: Record<string, string> = { ...options.env };
    let sandbox: Connection | undefined;
    let faults: FaultAdminClient | undefined;
    if (mode !== 'none') {
      const started = await startSandboxProcess(['--memory', '--seed', 'demo']);
      stops.unshift(() => started.stop());
      sandbox = { baseUrl: started.baseUrl, organizationId: started.organizationId, token: started.token };
      faults = new FaultAdminClient(started.baseUrl, started.adminSecret);
      if (mode === 'signedIn') env.AGENT_WORKBENCH_CONNECT = writeConnectionFile(path.join(profile.root, 'connection.json'), sandbox);
      else {
        const connection = { 'agentWorkbench.baseUrl': sandbox.baseUrl, 'agentWorkbench.organizationId': sandbox.organizationId };
        writeUserSettings(profile, { ...options.settings, ...connection });
      }
    }
    const server = await startCodeServer({ ...profile, folder: profile.workspaceDir, env });
    stops.unshift(() => server.stop());
    const browser = await launchChromium();
    stops.unshift(() => browser.close());
    const workbench = new Workbench(await browser.context.newPage());
    await workbench.open(server.url);
    const saveEvidence = async (testName: string): Promise<void> => {
      const dir = path.join(resultsDir, 'e2e', name);
      await workbench.screenshot(`${name}--${testName}--failed`).catch(() => undefined);
      saveLogs(profile, path.join(dir, 'logs'));
    };
    return { workbench, sandbox, faults, profile, url: server.url, saveEvidence, close };
  } catch (error) {
    saveLogs(profile, path.join(resultsDir, 'e2e', name, 'logs'));
    await close();
    throw error;
  }
}

/**
 * Mocha helper: starts a session before the suite and closes it after; when a test fails, keeps a
 * screenshot and the VS Code logs. Returns a getter for the running session.
 */
export function useWorkbenchSession(name: string, options: SessionOptions = {}): () => WorkbenchSession {
  let session: WorkbenchSession | undefined;
  before(async function () {
    this.timeout(180_000);
    session = await startSession(name, options);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await session?.saveEvidence(this.currentTest.title);
  });
  after(async function () {
    this.timeout(60_000);
    await session?.close();
  });
  return () => {
    if (!session) throw new Error('The workbench session did not start (see the "before all" hook).');
    return session;
  };
}
