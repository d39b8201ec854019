import * as vscode from 'vscode';
import type { ServiceClient } from '../../core/client';
import { hostOf, originOf } from '../../core/connectionSettings';
import { ContextKeys, StateKeys, tokenSecretKey } from '../constants';
import { affectsConnection, readConnectionSettings, requestTimeoutMs, writeConnectionSettings } from '../configuration';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import { Disposable } from '../util/disposable';
import { NotConnectedError } from '../util/errors';

/** What the extension is connected to; the token itself stays in SecretStorage and in the client. */
export interface ConnectionInfo {
  baseUrl: string;
  organizationId: string;
  host: string;
  isSandbox: boolean;
}

export type ConnectionState =
  | { kind: 'signedOut'; problem?: string }
  | { kind: 'connected'; info: ConnectionInfo };

/**
 * The one place that knows whether we are connected: reads the settings and the token (SecretStorage,
 * keyed by origin), builds the service client, and tells everyone when that changes — also when another
 * window signs in or out, or the settings change.
 */
export class Connection extends Disposable {
  private readonly changed = this.register(new vscode.EventEmitter<ConnectionState>());
  /** Fires whenever the state changes. */
  readonly onDidChange = this.changed.event;
  private current: ConnectionState = { kind: 'signedOut' };
  private client: ServiceClient | undefined;
  private generation = 0;
  private clientKey: string | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Log,
  ) {
    super();
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
    const token = settings.baseUrl ? await this.context.secrets.get(tokenSecretKey(originOf(settings.baseUrl))) : undefined;
    if (generation !== this.generation) return; // a newer refresh is under way
    if (!settings.baseUrl || !settings.organizationId || !token) {
      this.setState({ kind: 'signedOut', problem: settings.problem }, undefined);
      return;
    }
    this.log.addSecret(token);
    const info: ConnectionInfo = {
      baseUrl: settings.baseUrl,
      organizationId: settings.organizationId,
      host: hostOf(settings.baseUrl),
      isSandbox: this.context.globalState.get<{ baseUrl?: string }>(StateKeys.sandboxConnection)?.baseUrl === settings.baseUrl,
    };
    // Rebuild only when something the client depends on changed, so trees are not reloaded for nothing.
    const key = JSON.stringify([info, token, requestTimeoutMs()]);
    if (this.client && key === this.clientKey) return;
    this.clientKey = key;
    this.setState({ kind: 'connected', info }, this.createClient(info, token));
  }

  /** Builds a client for the given service without connecting this window to it (sign-in checks use it). */
  createClient(info: { baseUrl: string; organizationId: string }, token: string): ServiceClient {
    const { ServiceClient } = loadCore();
    return new ServiceClient({
      baseUrl: info.baseUrl,
      organizationId: info.organizationId,
      token,
      timeoutMs: requestTimeoutMs(),
      userAgent: `agent-workbench/${(this.context.extension.packageJSON as { version: string }).version} vscode/${vscode.version}`,
      onRequest: (e) => {
        const line = `${e.method} ${e.path} → ${e.status ?? e.error ?? 'no answer'} in ${Math.round(e.durationMs)} ms${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}`;
        if (e.error || (e.status ?? 0) >= 400) this.log.warn(line);
        else this.log.info(line);
      },
    });
  }

  /** Stores the token for this service and makes it the current connection. */
  async signIn(baseUrl: string, organizationId: string, token: string): Promise<void> {
    this.log.addSecret(token);
    await this.context.secrets.store(tokenSecretKey(originOf(baseUrl)), token);
    await writeConnectionSettings(baseUrl, organizationId);
    await this.refresh();
  }

  /** Forgets the token of the current service. */
  async signOut(): Promise<void> {
    const settings = readConnectionSettings();
    if (settings.baseUrl) await this.context.secrets.delete(tokenSecretKey(originOf(settings.baseUrl)));
    await this.refresh();
  }

  private setState(state: ConnectionState, client: ServiceClient | undefined): void {
    const old = this.client;
    this.client = client;
    if (!client) this.clientKey = undefined;
    this.current = state;
    void old?.close();
    void vscode.commands.executeCommand('setContext', ContextKeys.connected, state.kind === 'connected');
    this.log.info(state.kind === 'connected' ? `Connected to ${state.info.baseUrl} (organization ${state.info.organizationId})` : `Signed out${state.problem ? `: ${state.problem}` : ''}`);
    this.changed.fire(state);
  }

  override dispose(): void {
    void this.client?.close();
    this.client = undefined;
    super.dispose();
  }
}
