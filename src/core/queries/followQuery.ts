/** Following a submitted database query until it is final (the service has no push; we poll). */
import type { QueryResultSet } from '../client';
import { isFinalQueryStatus } from '../serviceDecisions';
import { wait } from '../wait';

/** How a follower paces itself and reports; the delays grow by half each poll up to the ceiling. */
export interface FollowOptions {
  signal: AbortSignal;
  /** Called after each read that is not final yet. */
  onPending(set: QueryResultSet, elapsedMs: number): void;
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
export async function followQuery(read: (signal: AbortSignal) => Promise<QueryResultSet>, queryId: string, options: FollowOptions): Promise<QueryResultSet> {
  const { signal, maxWaitMs = 15 * 60_000, maxDelayMs = 3000 } = options;
  const started = Date.now();
  let delay = options.firstDelayMs ?? 300;
  for (;;) {
    const set = await read(signal);
    if (isFinalQueryStatus(set.status)) return set;
    const elapsed = Date.now() - started;
    options.onPending(set, elapsed);
    if (elapsed > maxWaitMs) throw new QueryStillRunningError(`The query ${queryId} is still ${set.status} after ${maxWaitMs / 60_000} minutes. Open it again later with "Open Query Result…".`);
    if (!(await wait(delay, signal))) throw signal.reason;
    delay = Math.min(delay * 1.5, maxDelayMs);
  }
}
