/** Connection states and whether a new one is news. Pure (no VS Code): tested in plain Node. */

export interface ConnectionInfo {
  baseUrl: string;
  organizationId: string;
  host: string;
  isSandbox: boolean;
}

/** `expired`: signed out because the service stopped accepting the token of that connection (401). */
export type ConnectionState =
  | { kind: 'signedOut'; problem?: string; expired?: ConnectionInfo }
  | { kind: 'connected'; info: ConnectionInfo };

/**
 * True when `next` says something `previous` did not: every re-read of the settings while signed out
 * (at start, on each settings or secrets event) is not a new sign-out to log and announce. A new client
 * for the same service is always news (its token changed).
 */
export function isNewState(previous: ConnectionState, next: ConnectionState): boolean {
  if (previous.kind !== 'signedOut' || next.kind !== 'signedOut') return true;
  return previous.problem !== next.problem || JSON.stringify(previous.expired) !== JSON.stringify(next.expired);
}
