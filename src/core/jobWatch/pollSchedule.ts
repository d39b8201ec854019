/**
 * When the next poll happens. Pure, so the timing rules are tested without timers.
 *
 * - The base delay is the interval, times `unfocusedFactor` while the window is not focused.
 * - After failed polls it doubles per failure (base × 2^failures), up to `maxBackoffMs` (or the base
 *   delay, when the user's interval is longer than that cap); one successful poll resets it. A
 *   `Retry-After` from the service is honoured when it asks for longer.
 * - Polls are spaced from the start of the previous one, so the rate is one per interval whatever the
 *   latency; but a poll that outlasted the interval is followed by a rest of half the delay, so a slow
 *   server is not hit back to back.
 * - A newly watched job with no status yet is polled "soon" (a short delay that also gathers several
 *   jobs watched together into one request).
 */
import type { JobWatcherOptions } from './types';

/** Shortest interval accepted, whatever the setting says. */
export const MIN_INTERVAL_MS = 1000;
/** How soon a job watched by ID alone gets its first status. */
export const SOON_MS = 100;
export const DEFAULT_UNFOCUSED_FACTOR = 4;
export const DEFAULT_MAX_BACKOFF_MS = 5 * 60_000;

/** Options with defaults filled in and bounds applied. */
export type PollTiming = Required<JobWatcherOptions>;

/** Fills defaults and keeps values sane (an interval below 1 s, a factor below 1, NaN). */
export function pollTiming(options: JobWatcherOptions): PollTiming {
  return {
    intervalMs: clampInterval(options.intervalMs),
    unfocusedFactor: positive(options.unfocusedFactor, DEFAULT_UNFOCUSED_FACTOR, 1),
    maxBackoffMs: positive(options.maxBackoffMs, DEFAULT_MAX_BACKOFF_MS, MIN_INTERVAL_MS),
  };
}

/** The interval setting, at least {@link MIN_INTERVAL_MS}. */
export function clampInterval(ms: number): number {
  return Number.isFinite(ms) ? Math.max(MIN_INTERVAL_MS, ms) : MIN_INTERVAL_MS;
}

function positive(value: number | undefined, fallback: number, min: number): number {
  return value !== undefined && Number.isFinite(value) ? Math.max(min, value) : fallback;
}

/** Delay between poll starts, given focus, failures in a row and any Retry-After (ms). */
export function pollDelay(timing: PollTiming, focused: boolean, failures: number, retryAfterMs = 0): number {
  const base = focused ? timing.intervalMs : timing.intervalMs * timing.unfocusedFactor;
  if (failures <= 0) return base;
  const cap = Math.max(timing.maxBackoffMs, base);
  // Exponent bounded so 2 ** failures never overflows to Infinity after days of outage.
  const backoff = Math.min(cap, base * 2 ** Math.min(failures, 30));
  return Math.max(backoff, Math.min(retryAfterMs, cap));
}

/** What the schedule needs to know about the previous poll. */
export interface LastPoll {
  startedAt: number;
  finishedAt: number;
}

/** Absolute time of the next poll (never before `now`). */
export function nextPollAt(now: number, delay: number, last: LastPoll | undefined, soon: boolean): number {
  if (!last) return now + SOON_MS;
  const due = Math.max(last.startedAt + delay, last.finishedAt + delay / 2);
  return Math.max(now, soon ? Math.min(due, now + SOON_MS) : due);
}
