// Types of the harness modules that the TypeScript test support imports (see index.mjs).
import type { BrowserContext } from 'playwright-core';

export interface Connection {
  baseUrl: string;
  organizationId: string;
  token: string;
}

export interface Profile {
  root: string;
  userDataDir: string;
  extensionsDir: string;
  workspaceDir: string;
  dispose(): void;
}

export interface CodeServer {
  url: string;
  port: number;
  pid: number;
  exited: Promise<{ code: number | null; signal: string | null }>;
  output(): string;
  stop(): Promise<void>;
}

/** Installs Debian's chromium when missing (as root), or says how to. */
export function ensureChromium(options?: { log?: (line: string) => void }): Promise<string>;
/** Launches headless Chromium with a fresh profile. */
export function launchChromium(options?: { viewport?: { width: number; height: number } }): Promise<{
  context: BrowserContext;
  close(): Promise<void>;
}>;

/** Installs code-server into the cache once; returns its entry script. */
export function ensureCodeServer(options?: { log?: (line: string) => void }): Promise<string>;
/** How a lock waits: where it says so, how often it looks, and (for tests) whose pid it holds and which pids live. */
export interface InstallLockOptions {
  warn?: (line: string) => void;
  pollMs?: number;
  timeoutMs?: number;
  isAlive?: (pid: number) => boolean;
  pid?: number;
  sleep?: (ms: number) => Promise<void>;
}
/** Written into an install folder once the install is complete and verified. */
export const INSTALLED_MARKER: string;
/** True when `dir` holds a complete install (its marker is there). */
export function isInstalled(dir: string, marker?: string): boolean;
/** Installs into `dir` under `<dir>.lock` unless complete; resolves true when this call installed. */
export function installOnce(options: {
  dir: string;
  what: string;
  install(dir: string): Promise<void> | void;
  /** The marker's text; throws when the install does not work. */
  verify(dir: string): Promise<string> | string;
  complete?: () => boolean;
  marker?: string;
} & InstallLockOptions): Promise<boolean>;
/** Runs `fn` holding the lock file, waiting for a live holder and taking over a dead one's. */
export function withInstallLock<T>(lockFile: string, what: string, fn: () => Promise<T>, options?: InstallLockOptions): Promise<T>;
/** Starts code-server on 127.0.0.1 and a free port. */
export function startCodeServer(options: {
  userDataDir: string;
  extensionsDir: string;
  folder?: string;
  env?: Record<string, string>;
  log?: (text: string) => void;
  /** Taken when free (else a free one). */
  port?: number;
}): Promise<CodeServer>;
/** `preferred` when it is free at 127.0.0.1 (and 1024–65535), else a free port. */
export function preferredPort(preferred: number | undefined): Promise<number>;
/** Installs a .vsix into an extensions folder with code-server's CLI. */
export function installVsix(vsix: string, options: { userDataDir: string; extensionsDir: string; force?: boolean }): Promise<string>;

export const repoRoot: string;
export const resultsDir: string;
export const vsixPath: string;
/** Packages the test build (test API, render reports, scroll measurement) as `target`; dist/ is then built again as users get it. */
export function packageTestBuild(target: string): Promise<string>;

/** Creates a throwaway profile (user data with settings, extensions, workspace). */
/** The environment `npm run demo` gives VS Code (the walkthrough opens on the first run). */
export const DEMO_ENV: Record<string, string>;
export function createProfile(options?: {
  name?: string;
  settings?: Record<string, unknown>;
  files?: Record<string, string>;
  root?: string;
}): Profile;
/** Copies the profile's VS Code logs to `dest`. */
export function saveLogs(profile: Profile, dest: string): string | undefined;
/** Writes the user settings.json (quiet defaults plus `settings`). */
export function writeUserSettings(profile: Profile, settings: Record<string, unknown>): void;

/** Starts the sandbox CLI and resolves with its connection once it is ready. */
export function startSandboxProcess(
  args: string[],
  options?: { timeoutMs?: number; log?: (text: string) => void; port?: number },
): Promise<Connection & { adminSecret: string; pid: number; stop(): Promise<void> }>;
/** Writes a connection file (mode 0600). */
export function writeConnectionFile(file: string, connection: Connection): string;
/** The run file of the demo workspace (the README's loop) and every file of that workspace. */
export const DEMO_RUN_FILE: { agent: string; agentName: string; inputs: Record<string, unknown> };
export const DEMO_WORKSPACE_FILES: Record<string, string>;
