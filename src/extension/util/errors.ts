/** A user dismissed a prompt or cancelled a command: not an error, nothing to show. */
export class CancelledError extends Error {
  constructor() {
    super('Cancelled');
    this.name = 'CancelledError';
  }
}

/** True for cancellation of any origin: our own, a `vscode.CancellationError`, or an aborted request. */
export function isCancellation(error: unknown): boolean {
  if (error instanceof CancelledError) return true;
  const e = error as { name?: unknown; kind?: unknown } | undefined;
  return e?.name === 'Canceled' || e?.name === 'AbortError' || e?.kind === 'aborted';
}

/** One sentence for the user from any thrown value; service errors already carry one. */
export function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}

/** An action needs the service, and no service is connected: the message offers the ways to connect. */
export class NotConnectedError extends Error {
  constructor() {
    super('Not connected to the agent platform service. Sign in, or start the local sandbox to try things with demo data.');
    this.name = 'NotConnectedError';
  }
}
