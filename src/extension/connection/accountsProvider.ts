import * as vscode from 'vscode';
import { hostOf, originOf } from '../../core/connectionSettings';
import { AuthProvider, tokenSecretKey } from '../constants';
import type { Log } from '../log';
import type { LocalSandbox } from '../sandbox/localSandbox';
import { Disposable } from '../util/disposable';
import { CancelledError } from '../util/errors';
import type { Connection } from './connection';
import { signIn } from './signIn';

/**
 * Agent Workbench in VS Code's Accounts menu: one account per service signed in to (its origin, whose
 * token is in secret storage), plus the local sandbox while this window uses it. *Sign Out* there
 * removes that service's token (or stops the sandbox); signing in from there runs Sign In. When the
 * service stops accepting the current token, the Accounts menu shows a sign-in request for it.
 * Sessions are scoped by origin, so a request names the service it is for.
 */
export class AccountsProvider extends Disposable implements vscode.AuthenticationProvider {
  private readonly changed = this.register(new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>());
  readonly onDidChangeSessions = this.changed.event;
  private known = new Map<string, vscode.AuthenticationSession>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly connection: Connection,
    private readonly sandbox: LocalSandbox,
    private readonly log: Log,
  ) {
    super();
    this.register(vscode.authentication.registerAuthenticationProvider(AuthProvider.id, AuthProvider.label, this, { supportsMultipleAccounts: true }));
    this.register(context.secrets.onDidChange((e) => {
      if (e.key.startsWith(tokenSecretKey(''))) void this.announceChanges();
    }));
    this.register(connection.onDidChange((state) => {
      void this.announceChanges();
      if (state.kind === 'signedOut' && state.expired) void this.requestSignIn(state.expired.baseUrl);
    }));
  }

  /** The accounts: each kept service with a token in secret storage (not one whose token was just refused), and the window's sandbox. */
  async getSessions(scopes: readonly string[] | undefined): Promise<vscode.AuthenticationSession[]> {
    const sessions: vscode.AuthenticationSession[] = [];
    const state = this.connection.state;
    const refused = state.kind === 'signedOut' && state.expired ? originOf(state.expired.baseUrl) : undefined;
    const origins = new Set(this.connection.saved.list().map((c) => originOf(c.baseUrl)));
    for (const origin of origins) {
      if (origin === refused) continue;
      const token = await this.context.secrets.get(tokenSecretKey(origin));
      if (token) sessions.push(session(origin, hostOf(origin), token));
    }
    if (state.kind === 'connected' && state.info.isSandbox) {
      const origin = originOf(state.info.baseUrl);
      const token = this.connection.tokenOfWindow();
      if (token) sessions.push(session(origin, `Local sandbox (${state.info.host})`, token));
    }
    return scopes?.length ? sessions.filter((s) => scopes.every((scope) => s.scopes.includes(scope))) : sessions;
  }

  /** Sign in from the Accounts menu: the Sign In flow (for the service the scope names, when it does). */
  async createSession(scopes: readonly string[]): Promise<vscode.AuthenticationSession> {
    const origin = scopes[0];
    const kept = origin ? this.connection.saved.list().find((c) => originOf(c.baseUrl) === origin) : undefined;
    if (kept) await this.connection.switchTo(kept);
    await signIn(this.connection);
    const state = this.connection.state;
    if (state.kind !== 'connected') throw new CancelledError();
    const created = (await this.getSessions([originOf(state.info.baseUrl)]))[0];
    if (!created) throw new Error('Signed in, but the token is not in secret storage.');
    return created;
  }

  /** Sign Out from the Accounts menu: the service's token leaves secret storage; for the sandbox, it stops. */
  async removeSession(sessionId: string): Promise<void> {
    const state = this.connection.state;
    if (state.kind === 'connected' && state.info.isSandbox && originOf(state.info.baseUrl) === sessionId) {
      await this.sandbox.stop();
      return;
    }
    await this.context.secrets.delete(tokenSecretKey(sessionId));
    this.log.info(`Signed out of ${hostOf(sessionId)} from the Accounts menu`);
    await this.connection.refresh();
    await this.announceChanges();
  }

  /** Tells VS Code which accounts came and went since it last asked. */
  private async announceChanges(): Promise<void> {
    const now = new Map((await this.getSessions(undefined)).map((s) => [s.id, s]));
    const added = [...now.values()].filter((s) => !this.known.has(s.id));
    const removed = [...this.known.values()].filter((s) => !now.has(s.id));
    const changed = [...now.values()].filter((s) => this.known.has(s.id) && this.known.get(s.id)?.accessToken !== s.accessToken);
    this.known = now;
    if (added.length || removed.length || changed.length) this.changed.fire({ added, removed, changed });
  }

  /** A badge on the Accounts menu with "Sign in … to use Agent Workbench" for this service. */
  private async requestSignIn(baseUrl: string): Promise<void> {
    try {
      await vscode.authentication.getSession(AuthProvider.id, [originOf(baseUrl)], { createIfNone: false });
    } catch (error) {
      this.log.warn(`Could not add the sign-in request to the Accounts menu: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

function session(origin: string, label: string, accessToken: string): vscode.AuthenticationSession {
  return { id: origin, accessToken, account: { id: origin, label }, scopes: [origin] };
}
