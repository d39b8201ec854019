/** Following a submitted query (database or table query) until it is final (the service has no push; we poll). */
import type { QueryResultSet } from '../client';
import { isFinalQueryStatus } from '../serviceDecisions';
import { wait } from '../wait';

/** How a follower paces itself and reports; the delays grow by half each poll up to the ceiling. */
export interface FollowOptions<T extends { status: string }> {
  signal: AbortSignal;
  /** Whether a read is final (default: the database query's final statuses). */
  isFinal?: (result: T) => boolean;
  /** Called after each read that is not final yet. */
  onPending: (result: T, elapsedMs: number) => void;
  maxWaitMs?: number;
  firstDelayMs?: number;
  maxDelayMs?: number;
}

/** Thrown when a query is still not final after the longest wait we allow. */
export class QueryStillRunningError extends Error {}

/**
 * Reads the result until the query is final and returns the final read. Aborting the signal stops
 * the waiting (not the query on the service) and rejects with the signal's reason.
 */
export async function followQuery<T extends { status: string } = QueryResultSet>(read: (signal: AbortSignal) => Promise<T>, queryId: string, options: FollowOptions<T>): Promise<T> {
  const { signal, maxWaitMs = 15 * 60_000, maxDelayMs = 3000 } = options;
  const isFinal = options.isFinal ?? ((result: T) => isFinalQueryStatus(result.status));
  const started = Date.now();
  let delay = options.firstDelayMs ?? 300;
  for (;;) {
    const result = await read(signal);
    if (isFinal(result)) return result;
    const elapsed = Date.now() - started;
    options.onPending(result, elapsed);
    if (elapsed > maxWaitMs) throw new QueryStillRunningError(`The query ${queryId} is still ${result.status} after ${maxWaitMs / 60_000} minutes. Open it again later with "Open Query Result…".`);
    if (!(await wait(delay, signal))) throw signal.reason;
    delay = Math.min(delay * 1.5, maxDelayMs);
  }
}
