import type * as vscode from 'vscode';

interface Beat {
  everyMs: number;
  lastAt: number;
  fn: () => void;
}

/**
 * The one timer behind everything that shows time passing ("1 min ago", a running job's elapsed time):
 * each subscriber says how often it wants to be called; the timer runs only while someone listens.
 */
export class Ticker implements vscode.Disposable {
  private readonly beats = new Set<Beat>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly resolutionMs = 1000) {}

  /** Calls `fn` about every `everyMs` until the result is disposed. */
  every(everyMs: number, fn: () => void): vscode.Disposable {
    const beat: Beat = { everyMs, lastAt: Date.now(), fn };
    this.beats.add(beat);
    this.timer ??= setInterval(() => this.tick(), this.resolutionMs);
    this.timer.unref?.();
    return { dispose: () => this.drop(beat) };
  }

  private tick(): void {
    const now = Date.now();
    for (const beat of [...this.beats]) {
      if (now - beat.lastAt + this.resolutionMs / 2 < beat.everyMs) continue;
      beat.lastAt = now;
      try {
        beat.fn();
      } catch {
        // One listener's bug must not stop the others.
      }
    }
  }

  private drop(beat: Beat): void {
    this.beats.delete(beat);
    if (this.beats.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  dispose(): void {
    this.beats.clear();
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
