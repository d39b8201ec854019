/**
 * Ctrl+C and SIGTERM for a command that makes things on the service: the first signal aborts the run's
 * signal so that it stops what it started and removes what it made; a second one leaves at once. Node's
 * default (exit with no word while jobs keep running and copies stay) never applies while a run is watched.
 */

/** The signals that stop a command. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/** The exit code after a stop: 128 plus the signal's number, as a shell reports a process the signal ended. */
export const STOP_EXIT_CODES: Readonly<Record<StopSignal, number>> = { SIGINT: 130, SIGTERM: 143 };

/** What the command line asks of its process: the stop signals, and leaving at once (a test passes its own). */
export interface CliProcess {
  /** Calls `listener` on each SIGINT and SIGTERM until the answered function is called. */
  onStop(listener: (signal: StopSignal) => void): () => void;
  /** Ends the process now with this code. */
  exit(code: number): void;
}

/** The real process's signals and exit. */
export function nodeProcess(): CliProcess {
  return {
    onStop(listener) {
      const onInt = (): void => listener('SIGINT');
      const onTerm = (): void => listener('SIGTERM');
      process.on('SIGINT', onInt);
      process.on('SIGTERM', onTerm);
      return () => {
        process.off('SIGINT', onInt);
        process.off('SIGTERM', onTerm);
      };
    },
    exit: (code) => process.exit(code),
  };
}

/** A run watched for stop signals. */
export interface StopWatch {
  /** Aborted by the first signal. */
  readonly signal: AbortSignal;
  /** The first signal received, if any. */
  stoppedBy(): StopSignal | undefined;
  /** Stops watching (signals then do what they did before). */
  dispose(): void;
}

/**
 * Watches `host` for stop signals: the first aborts the answered signal and calls `first` (to say what
 * the clean-up will do); the second calls `second` (to say what is left) and exits at once.
 */
export function watchStops(host: CliProcess | undefined, on: { first(signal: StopSignal): void; second(signal: StopSignal): void }): StopWatch {
  const controller = new AbortController();
  let stopped: StopSignal | undefined;
  const dispose =
    host?.onStop((signal) => {
      if (stopped) {
        on.second(signal);
        host.exit(STOP_EXIT_CODES[stopped]);
        return;
      }
      stopped = signal;
      on.first(signal);
      controller.abort(new Error(`Stopped by ${signal}.`));
    }) ?? (() => undefined);
  return { signal: controller.signal, stoppedBy: () => stopped, dispose };
}
