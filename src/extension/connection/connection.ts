import * as vscode from 'vscode';
import type { ServiceClient } from '../../core/client';
import { hostOf, originOf } from '../../core/connectionSettings';
import { Commands, ContextKeys, tokenSecretKey } from '../constants';
import { affectsConnection, readConnectionSettings, requestTimeoutMs, writeConnectionSettings } from '../configuration';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import { Disposable } from '../util/disposable';
import { NotConnectedError } from '../util/errors';
import { SavedConnections } from './savedConnections';
import { isNewState, shownState, type ConnectionInfo, type ConnectionState } from './connectionState';

/** What the extension is connected to; the token itself stays in SecretStorage and in the client. */
export type { ConnectionInfo, ConnectionState } from './connectionState';

/** A connection of this window only (the local sandbox it started): never written to settings. */
export interface WindowConnection {
  baseUrl: string;
  organizationId: string;
  token: string;
}

/**
 * The one place that knows whether we are connected: reads the settings and the token (SecretStorage,
 * keyed by origin) — or the window's own sandbox connection, which wins while it runs — builds the
 * service client, and tells everyone when that changes: also when another window signs in or out, the
 * settings change, or the service answers 401 to the current token (then it signs out once, says so,
 * and stays signed out until the token or the settings change).
 */
export class Connection extends Disposable {
  private readonly changed = this.register(new vscode.EventEmitter<ConnectionState>());
  /** Fires whenever the state changes. */
  readonly onDidChange = this.changed.event;
  private current: ConnectionState = { kind: 'connecting' };
  /** True until `start` has tried every way of connecting: finding no session meanwhile still says "connecting…". */
  private starting = true;
  /** False until the first state is set (its context keys are set even when it is the initial one). */
  private stated = false;
  private client: ServiceClient | undefined;
  private generation = 0;
  private clientKey: string | undefined;
  /** The client key whose token the service refused: not used again until something changes. */
  private expiredKey: string | undefined;
  private windowConnection: WindowConnection | undefined;
  /** The connections signed in to, for switching. */
  readonly saved: SavedConnections;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Log,
  ) {
    super();
    this.saved = new SavedConnections(context.globalState);
    this.register(context.secrets.onDidChange((e) => {
      if (e.key.startsWith(tokenSecretKey(''))) void this.refresh();
    }));
    this.register(vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsConnection(e)) void this.refresh();
    }));
  }

  get state(): ConnectionState {
    return this.current;
  }

  /** The client of the current connection; throws a clear error when signed out. */
  requireClient(): ServiceClient {
    if (!this.client) throw new NotConnectedError();
    return this.client;
  }

  /** Re-reads settings and secret and rebuilds the client when anything changed. */
  async refresh(): Promise<void> {
    const generation = ++this.generation;
    const settings = readConnectionSettings();
    const own = this.windowConnection;
    const target = own ?? { baseUrl: settings.baseUrl, organizationId: settings.organizationId, token: settings.baseUrl ? await this.context.secrets.get(tokenSecretKey(originOf(settings.baseUrl))) : undefined };
    if (generation !== this.generation) return; // a newer refresh is under way
    const { baseUrl, organizationId, token } = target;
    if (!baseUrl || !organizationId || !token) {
      this.setState(shownState({ kind: 'signedOut', problem: own ? undefined : settings.problem }, this.starting), undefined);
      return;
    }
    this.log.addSecret(token);
    const info: ConnectionInfo = { baseUrl, organizationId, host: hostOf(baseUrl), isSandbox: own !== undefined };
    // Rebuild only when something the client depends on changed, so trees are not reloaded for nothing.
    const key = JSON.stringify([info, token, requestTimeoutMs()]);
    if (key === this.expiredKey) {
      if (this.client) this.expire(this.client);
      return;
    }
    if (this.client && key === this.clientKey) return;
    this.clientKey = key;
    this.expiredKey = undefined;
    this.setState({ kind: 'connected', info }, this.createClient(info, token, true));
  }

  /**
   * Connects at start: `steps` read the saved token and apply a provisioned connection. Until they are
   * done the window is "connecting…"; only then does finding no session make it signed out.
   */
  async start(steps: () => Promise<void>): Promise<void> {
    try {
      await steps();
    } finally {
      this.starting = false;
      if (this.current.kind === 'connecting') await this.refresh();
    }
  }

  /**
   * Resolves once the window knows whether it is connected: at once when it does, else when `start`
   * has read the token and applied a provisioned connection — or after `timeoutMs`, never forever.
   */
  whenSettled(timeoutMs = 5 * 60_000): Promise<void> {
    if (this.current.kind !== 'connecting') return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        sub.dispose();
        clearTimeout(timer);
        resolve();
      };
      const sub = this.onDidChange((state) => state.kind !== 'connecting' && done());
      const timer = setTimeout(done, timeoutMs);
    });
  }

  /** Connects this window alone to a service (the local sandbox it started), or ends that (undefined). */
  async useWindowConnection(connection: WindowConnection | undefined): Promise<void> {
    if (connection) this.log.addSecret(connection.token);
    this.windowConnection = connection;
    await this.refresh();
  }

  /** The current client's token was refused: signed out, once, with the views and the Accounts menu asking to sign in again. */
  private expire(client: ServiceClient): void {
    if (client !== this.client || this.current.kind !== 'connected') return; // an older client, or already done
    const info = this.current.info;
    this.expiredKey = this.clientKey;
    const problem = `The service at ${info.host} no longer accepts your token (401)`;
    this.setState({ kind: 'signedOut', problem, expired: info }, undefined);
    void vscode.window.showWarningMessage(`${problem}. Sign in again to go on.`, 'Sign In Again').then((choice) => {
      if (choice) void vscode.commands.executeCommand(Commands.signIn);
    });
  }

  /**
   * Builds a client for the given service; only the window's own client (`current`) signs out when the
   * service refuses its token — a sign-in check builds one without connecting this window to it.
   */
  createClient(info: { baseUrl: string; organizationId: string }, token: string, current = false): ServiceClient {
    const { ServiceClient } = loadCore();
    const client: ServiceClient = new ServiceClient({
      baseUrl: info.baseUrl,
      organizationId: info.organizationId,
      token,
      timeoutMs: requestTimeoutMs(),
      userAgent: `agent-workbench/${(this.context.extension.packageJSON as { version: string }).version} vscode/${vscode.version}`,
      // Every write states its ground (src/core/writeGate/); one refused is said in the log.
      writeGate: { log: (line) => this.log.warn(line) },
      onRequest: (e) => {
        const line = `${e.method} ${e.path} → ${e.status ?? e.error ?? 'no answer'} in ${Math.round(e.durationMs)} ms${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}`;
        if (e.error || (e.status ?? 0) >= 400) this.log.warn(line);
        else this.log.info(line);
        for (const note of e.leftOut ?? []) this.log.warn(`${e.operation} (${e.path.split('?')[0]}): ${note}; the rest of the answer is shown.`);
        if (current && e.status === 401) this.expire(client);
      },
    });
    return client;
  }

  /** Stores the token for this service and makes it the current connection. */
  async signIn(baseUrl: string, organizationId: string, token: string): Promise<void> {
    this.log.addSecret(token);
    await this.context.secrets.store(tokenSecretKey(originOf(baseUrl)), token);
    await this.saved.remember({ baseUrl, organizationId });
    await this.switchTo({ baseUrl, organizationId });
  }

  /** Makes a kept connection the current one (the user settings name it); its token comes from secret storage. */
  async switchTo(target: { baseUrl: string; organizationId: string }): Promise<void> {
    await writeConnectionSettings(target.baseUrl, target.organizationId);
    if (this.windowConnection) this.windowConnection = undefined; // choosing a service leaves the window's sandbox
    await this.refresh();
  }

  /** The token of the window's own connection (the local sandbox), for its account in the Accounts menu. */
  tokenOfWindow(): string | undefined {
    return this.windowConnection?.token;
  }

  /** True when secret storage holds a token for this service's origin. */
  async hasToken(baseUrl: string): Promise<boolean> {
    return (await this.context.secrets.get(tokenSecretKey(originOf(baseUrl)))) !== undefined;
  }

  /** Forgets the token of the current service (or of the given one). */
  async signOut(baseUrl = readConnectionSettings().baseUrl): Promise<void> {
    if (baseUrl) await this.context.secrets.delete(tokenSecretKey(originOf(baseUrl)));
    await this.refresh();
  }

  private setState(state: ConnectionState, client: ServiceClient | undefined): void {
    // Still signed out (settings re-read at start, or on an unrelated change): nothing to say or redraw.
    if (this.stated && !isNewState(this.current, state)) return;
    this.stated = true;
    const previous = this.current;
    const old = this.client;
    this.client = client;
    if (!client) this.clientKey = undefined;
    this.current = state;
    void old?.close();
    void vscode.commands.executeCommand('setContext', ContextKeys.connected, state.kind === 'connected');
    void vscode.commands.executeCommand('setContext', ContextKeys.connecting, state.kind === 'connecting');
    void vscode.commands.executeCommand('setContext', ContextKeys.signInExpired, state.kind === 'signedOut' && state.expired !== undefined);
    if (state.kind === 'connected') this.log.info(`Connected to ${state.info.baseUrl} (organization ${state.info.organizationId})`);
    else if (state.kind === 'signedOut' && isNewState(previous, state)) this.log.info(`Signed out${state.problem ? `: ${state.problem}` : ''}`);
    this.changed.fire(state);
  }

  override dispose(): void {
    void this.client?.close();
    this.client = undefined;
    super.dispose();
  }
}
