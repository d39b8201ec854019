/** Connection states and whether a new one is news. Pure (no VS Code): tested in plain Node. */

export interface ConnectionInfo {
  baseUrl: string;
  organizationId: string;
  host: string;
  isSandbox: boolean;
}

/**
 * `connecting`: the window is starting and does not know yet whether there is a session (its token is
 * being read, a provisioned connection applied). `expired`: signed out because the service stopped
 * accepting the token of that connection (401).
 */
export type ConnectionState =
  | { kind: 'connecting' }
  | { kind: 'signedOut'; problem?: string; expired?: ConnectionInfo }
  | { kind: 'connected'; info: ConnectionInfo };

/**
 * True when `next` says something `previous` did not: every re-read of the settings while signed out
 * (at start, on each settings or secrets event) is not a new sign-out to log and announce. A new client
 * for the same service is always news (its token changed).
 */
export function isNewState(previous: ConnectionState, next: ConnectionState): boolean {
  if (previous.kind === 'connecting' && next.kind === 'connecting') return false;
  if (previous.kind !== 'signedOut' || next.kind !== 'signedOut') return true;
  return previous.problem !== next.problem || JSON.stringify(previous.expired) !== JSON.stringify(next.expired);
}

/**
 * The state to show for what a look at the settings and secrets found. While the window is still
 * starting, finding no session is not knowing there is none: the saved token may not be readable yet,
 * and a provisioned connection (the demo's) signs in next. Only a token the service refused is known
 * at once.
 */
export function shownState(found: ConnectionState, starting: boolean): ConnectionState {
  return starting && found.kind === 'signedOut' && !found.expired ? { kind: 'connecting' } : found;
}

/** What the connection's status bar item says while not connected (connected, it names the service). */
export function notConnectedWords(state: Exclude<ConnectionState, { kind: 'connected' }>): { text: string; tooltip: string; label: string; warning: boolean } {
  if (state.kind === 'connecting') {
    return { text: '$(sync~spin) Agent Workbench: connecting…', tooltip: 'Connecting to the agent platform service…', label: 'Agent Workbench connecting', warning: false };
  }
  return {
    text: '$(debug-disconnect) Agent Workbench: signed out',
    tooltip: state.problem ? `Not connected: ${state.problem}` : 'Not connected. Click to sign in or start the local sandbox.',
    label: 'Agent Workbench signed out',
    warning: Boolean(state.problem),
  };
}
