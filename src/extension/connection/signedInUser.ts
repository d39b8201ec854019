import * as vscode from 'vscode';
import type { ServiceClient } from '../../core/client';
import { creatorName } from '../agents/agentNodes';
import type { Log } from '../log';
import { Disposable } from '../util/disposable';
import { messageOf } from '../util/errors';
import type { Connection } from './connection';

/**
 * Who is signed in, read once per connection (the current user endpoint) for the connection menu and
 * the status bar tooltip. A failure is quiet: it is logged, and the places that show the user just don't.
 */
export class SignedInUser extends Disposable {
  private name: string | undefined;
  private readFor: ServiceClient | undefined;
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  /** Fires when the name is known, or forgotten after signing out. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly connection: Connection,
    private readonly log: Log,
  ) {
    super();
    this.register(connection.onDidChange(() => this.update()));
    this.update();
  }

  /** "Ana Lima (ana@example.com)", or undefined while unknown. */
  get label(): string | undefined {
    return this.name;
  }

  private update(): void {
    const client = this.connection.state.kind === 'connected' ? this.connection.requireClient() : undefined;
    if (client === this.readFor) return;
    this.readFor = client;
    if (this.name !== undefined) {
      this.name = undefined;
      this.changed.fire();
    }
    if (client) void this.read(client);
  }

  private async read(client: ServiceClient): Promise<void> {
    try {
      const user = await client.users.current();
      if (client !== this.readFor) return;
      const name = creatorName(user);
      this.name = name && user.email && name !== user.email ? `${name} (${user.email})` : name;
      this.changed.fire();
    } catch (error) {
      this.log.warn(`Could not read who is signed in: ${messageOf(error)}`);
    }
  }
}
