import { fork, type ChildProcess } from 'node:child_process';
import * as vscode from 'vscode';
import { ContextKeys, StateKeys, Settings } from '../constants';
import { readConnectionSettings } from '../configuration';
import type { Connection } from '../connection/connection';
import type { Log } from '../log';
import { Disposable } from '../util/disposable';
import type { TestPrompts } from '../testing/testPrompts';

interface ReadyMessage {
  type: 'ready';
  baseUrl: string;
  organizationId: string;
  token: string;
}

const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;

/** The questions the sandbox asks; tests replace them. */
export interface SandboxPrompts {
  /** Whether to start the sandbox again that this window used before it was closed. */
  restart(message: string): Thenable<boolean>;
}

const defaultPrompts: SandboxPrompts = {
  restart: async (message) => (await vscode.window.showInformationMessage(message, 'Start Local Sandbox', 'Not Now')) === 'Start Local Sandbox',
};

/**
 * The bundled sandbox as a child process of VS Code, run by VS Code's own runtime (no system Node),
 * with its data in the extension's global storage. It belongs to the window that started it: this
 * window connects to it in memory (the user settings and other windows are left alone) and it ends
 * with the window. The window remembers (workspace state) that it used it, and offers to start it
 * again after a restart.
 */
export class LocalSandbox extends Disposable {
  private child: ChildProcess | undefined;
  private starting: Promise<void> | undefined;
  private stopping = false;
  private ready: ReadyMessage | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly connection: Connection,
    private readonly log: Log,
    private readonly answers: TestPrompts,
  ) {
    super();
  }

  get isRunning(): boolean {
    return this.child !== undefined && this.child.exitCode === null;
  }

  /** Starts the sandbox (once, even when asked twice) and connects to it. */
  start(): Promise<void> {
    if (this.isRunning && !this.starting) return this.reconnect();
    if (!this.starting) {
      void this.setContext(ContextKeys.sandboxStarting, true);
      const progress = vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Starting the local sandbox…' }, () => this.launch());
      this.starting = Promise.resolve(progress).finally(() => {
        this.starting = undefined;
        void this.setContext(ContextKeys.sandboxStarting, false);
      });
    }
    return this.starting;
  }

  private async launch(): Promise<void> {
    const storage = vscode.Uri.joinPath(this.context.globalStorageUri, 'sandbox').fsPath;
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(storage));
    const script = this.context.asAbsolutePath('dist/sandbox.js');
    this.log.info(`Starting the local sandbox (${script}, data in ${storage})`);
    const child = fork(script, ['--port', '0', '--data', storage, '--seed', 'demo'], {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.child = child;
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) if (line.trim()) this.log.debug(`[sandbox] ${line}`);
    });
    child.stdout?.resume(); // the ready line also arrives by IPC
    const ready = await waitForReady(child);
    this.ready = ready;
    this.log.addSecret(ready.token);
    child.on('exit', (code, signal) => this.onExit(child, code, signal));
    // The IPC channel closes with the window (a reload): without a listener Node would raise that as an uncaught error.
    child.on('error', (error) => this.log.info(`Local sandbox (pid ${child.pid}): ${error.message}`));
    await this.context.workspaceState.update(StateKeys.sandboxInWindow, true);
    await this.connection.useWindowConnection({ baseUrl: ready.baseUrl, organizationId: ready.organizationId, token: ready.token });
    await this.setContext(ContextKeys.sandboxRunning, true);
    this.log.info(`Local sandbox ready at ${ready.baseUrl} (pid ${child.pid})`);
  }

  private async reconnect(): Promise<void> {
    if (this.ready) await this.connection.useWindowConnection({ baseUrl: this.ready.baseUrl, organizationId: this.ready.organizationId, token: this.ready.token });
  }

  /**
   * At activation: when this window worked in the local sandbox before it was closed (the sandbox
   * ended with it), offers once to start it again. Declining forgets it.
   */
  async offerRestartAfterReload(): Promise<void> {
    if (this.isRunning || this.starting || !this.context.workspaceState.get<boolean>(StateKeys.sandboxInWindow)) return;
    const again = await (__TEST_HOOKS__ && this.answers.sandbox ? this.answers.sandbox : defaultPrompts).restart('This window was working in the local sandbox, which stopped when the window closed. Start it again?');
    if (again) await this.start();
    else await this.context.workspaceState.update(StateKeys.sandboxInWindow, undefined);
  }

  /**
   * Versions before 0.2 wrote the sandbox's random-port URL into the user settings: when the settings
   * still name it, the user's own settings are put back.
   */
  async repairLegacySettings(): Promise<void> {
    const legacy = this.context.globalState.get<{ baseUrl?: string }>(StateKeys.legacySandboxConnection);
    if (!legacy?.baseUrl) return;
    const previous = this.context.globalState.get<{ baseUrl?: string; organizationId?: string }>(StateKeys.legacySettingsBeforeSandbox);
    if (readConnectionSettings().baseUrl === legacy.baseUrl) {
      const config = vscode.workspace.getConfiguration(Settings.section);
      await config.update(Settings.baseUrl, previous?.baseUrl, vscode.ConfigurationTarget.Global);
      await config.update(Settings.organizationId, previous?.organizationId, vscode.ConfigurationTarget.Global);
      this.log.info('Put back the connection settings an earlier version had replaced with its local sandbox');
    }
    await this.context.globalState.update(StateKeys.legacySandboxConnection, undefined);
    await this.context.globalState.update(StateKeys.legacySettingsBeforeSandbox, undefined);
  }

  /** Stops the sandbox; this window goes back to the connection of the user settings. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.stopping = true;
    try {
      await terminate(child);
      this.log.info('Local sandbox stopped');
    } finally {
      this.child = undefined;
      this.ready = undefined;
      this.stopping = false;
      await this.setContext(ContextKeys.sandboxRunning, false);
      await this.context.workspaceState.update(StateKeys.sandboxInWindow, undefined);
      await this.connection.useWindowConnection(undefined);
    }
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child || this.stopping) return;
    this.child = undefined;
    this.ready = undefined;
    void this.setContext(ContextKeys.sandboxRunning, false);
    void this.connection.useWindowConnection(undefined);
    this.log.error(`The local sandbox exited unexpectedly (code ${code ?? 'none'}, signal ${signal ?? 'none'})`);
    void vscode.window.showWarningMessage('The local sandbox stopped unexpectedly.', 'Start Again', 'Show Log').then((choice) => {
      if (choice === 'Start Again') void this.start();
      if (choice === 'Show Log') this.log.show();
    });
  }

  private setContext(key: string, value: boolean): Thenable<unknown> {
    return vscode.commands.executeCommand('setContext', key, value);
  }

  override dispose(): void {
    // VS Code is closing: end the child now; the workspace state remembers it for the next start.
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null) child.kill('SIGTERM');
    super.dispose();
  }

  /** Stops the child on deactivation (the window closes), waiting for it to flush its data; the window's state still remembers it. */
  async shutdown(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    this.ready = undefined;
    if (child) await terminate(child);
    await this.connection.useWindowConnection(undefined);
    await this.setContext(ContextKeys.sandboxRunning, false);
  }
}

function waitForReady(child: ChildProcess): Promise<ReadyMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`The local sandbox did not start within ${START_TIMEOUT_MS / 1000} s.`)), START_TIMEOUT_MS);
    const onMessage = (message: unknown): void => {
      const m = message as Partial<ReadyMessage> | undefined;
      if (m?.type === 'ready' && typeof m.baseUrl === 'string' && typeof m.organizationId === 'string' && typeof m.token === 'string') {
        cleanup();
        resolve(m as ReadyMessage);
      }
    };
    const onExit = (code: number | null): void => fail(new Error(`The local sandbox exited before it was ready (code ${code ?? 'none'}). See the log for details.`));
    const onError = (error: Error): void => fail(new Error(`The local sandbox could not be started: ${error.message}`));
    function cleanup(): void {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      child.off('error', onError);
    }
    function fail(error: Error): void {
      cleanup();
      if (child.exitCode === null) child.kill('SIGKILL');
      reject(error);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

/** SIGTERM, then SIGKILL when the child has not exited within the grace time. */
function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
