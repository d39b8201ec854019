/**
 * Keeps the Jobs lists that are shown up to date with jobs started elsewhere (another window, the
 * command line, a colleague): while a list is visible and the window focused, its agent's newest page
 * is read once per refresh interval — one small request per shown list, one after another, never two
 * at once. Nothing is read while no list is shown. Pure: time comes in through a `Clock`.
 */
import type { Clock } from '../jobWatch/types';

/** How many of an agent's newest jobs one refresh reads: enough for what starts in an interval, small to send. */
export const NEWEST_PAGE_SIZE = 10;

/** Reads an agent's newest page into the store; never rejects. */
export type NewestRead = (agentId: string) => Promise<void>;

/** The timer that reads the newest page of each shown list once per interval. Dispose it to stop. */
export class NewestJobsPoller {
  private shown: readonly string[] = [];
  private timer: unknown;
  private running = false;
  private disposed = false;

  constructor(
    private readonly read: NewestRead,
    private intervalMs: number,
    private readonly clock: Clock,
  ) {}

  /** The agents whose Jobs lists are shown now (none while the view is hidden or the window unfocused). */
  show(agentIds: readonly string[]): void {
    this.shown = [...new Set(agentIds)];
    if (!this.shown.length) this.stop();
    else this.arm();
  }

  /** The refresh interval (the user's setting). */
  setIntervalMs(ms: number): void {
    this.intervalMs = ms;
    if (this.timer !== undefined) {
      this.stop();
      this.arm();
    }
  }

  dispose(): void {
    this.disposed = true;
    this.stop();
  }

  private arm(): void {
    if (this.disposed || this.running || this.timer !== undefined || !this.shown.length) return;
    this.timer = this.clock.setTimeout(() => void this.tick(), this.intervalMs);
  }

  private stop(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    this.running = true;
    try {
      // One list after another: a slow service never has two of these reads from us at once.
      for (const agentId of this.shown) {
        if (this.disposed) return;
        await this.read(agentId);
      }
    } finally {
      this.running = false;
      this.arm();
    }
  }
}
