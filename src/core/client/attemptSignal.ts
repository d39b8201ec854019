/** The abort signal of one attempt: fires on the attempt's timeout or when the caller aborts. */
import { EventEmitter } from 'node:events';

/**
 * An EventEmitter rather than an AbortController (undici takes either): an AbortController costs more
 * than all the rest of a request's bookkeeping, and one of these is made for every request.
 */
export class AttemptSignal extends EventEmitter {
  aborted = false;
  timedOut = false;
  private readonly timer: NodeJS.Timeout;
  private readonly onCallerAbort: (() => void) | undefined;

  constructor(timeoutMs: number, private readonly caller: AbortSignal | undefined) {
    super();
    this.timer = setTimeout(onTimeout, timeoutMs, this);
    if (caller) {
      this.onCallerAbort = () => this.abort();
      caller.addEventListener('abort', this.onCallerAbort);
      if (caller.aborted) this.abort();
    }
  }

  /** Starts the timeout over: bytes are still moving. */
  touch(): void {
    this.timer.refresh();
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }

  /** Stops the timer and lets go of the caller's signal. */
  dispose(): void {
    clearTimeout(this.timer);
    if (this.caller && this.onCallerAbort) this.caller.removeEventListener('abort', this.onCallerAbort);
  }
}

// Module-level, so no closure is made per request for the timer.
function onTimeout(signal: AttemptSignal): void {
  signal.timedOut = true;
  signal.abort();
}
