/**
 * The one way to wait while a signal may abort the wait (retries, polling). The listener is removed
 * when the time is up, so a signal shared by many waits (one per poll) never collects listeners.
 */

/** Waits `ms`, or until the signal aborts; resolves false when aborted. */
export function wait(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
