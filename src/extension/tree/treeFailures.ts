import type { Log } from '../log';
import { isCancellation, messageOf } from '../util/errors';

/**
 * Where the failures every tree meets are written: a view that shows an error node also says why in
 * the log. One is made at activation and handed to each view, so no view can be drawn before it has one.
 */
export class TreeFailures {
  constructor(private readonly log: Pick<Log, 'error' | 'warn' | 'debug'>) {}

  /**
   * Writes a failure of a view to the log: where it happened and the error with its details. A read we
   * cancelled ourselves (its connection was switched or signed out while it ran) is no failure: its
   * view is redrawn from the new connection, so it is a debug line, not an error.
   */
  failed(where: string, error: unknown): void {
    if (isCancellation(error)) {
      this.log.debug(`${where}: ${messageOf(error)}`);
      return;
    }
    this.log.error(`${where}: ${messageOf(error)}`, error instanceof Error ? error : undefined);
  }

  /** Notes something a view corrected on its own (an item the service listed twice). */
  corrected(message: string): void {
    this.log.warn(message);
  }
}
