import type * as vscode from 'vscode';
import { StateKeys } from '../constants';

/** A service and organization the user signed in to; its token is in secret storage, keyed by origin. */
export interface SavedConnection {
  baseUrl: string;
  organizationId: string;
}

const MAX_SAVED = 20;

/**
 * The connections kept for switching (in `globalState`, so every window offers the same ones), most
 * recently used first. Never the local sandbox: it belongs to the window that started it.
 */
export class SavedConnections {
  constructor(private readonly state: vscode.Memento) {}

  list(): SavedConnection[] {
    const value = this.state.get<unknown>(StateKeys.connections);
    if (!Array.isArray(value)) return [];
    return value.filter((c): c is SavedConnection => typeof (c as SavedConnection)?.baseUrl === 'string' && typeof (c as SavedConnection)?.organizationId === 'string');
  }

  /** Puts a connection first (adding it when new). */
  async remember(connection: SavedConnection): Promise<void> {
    const rest = this.list().filter((c) => !same(c, connection));
    await this.state.update(StateKeys.connections, [{ baseUrl: connection.baseUrl, organizationId: connection.organizationId }, ...rest].slice(0, MAX_SAVED));
  }

  async forget(connection: SavedConnection): Promise<void> {
    await this.state.update(StateKeys.connections, this.list().filter((c) => !same(c, connection)));
  }
}

/** True when both name the same service and organization. */
export function same(a: SavedConnection, b: SavedConnection): boolean {
  return a.baseUrl === b.baseUrl && a.organizationId.toLowerCase() === b.organizationId.toLowerCase();
}
