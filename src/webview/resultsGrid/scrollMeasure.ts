// The scroll benchmark the extension can ask for: scroll from the first row to the last, one step
// per frame, and time the frames (a frame longer than 50 ms is a stutter people see).

/** Scrolls through at most this many frames (longer results take bigger steps). */
const MAX_FRAMES = 300;
const LONG_FRAME_MS = 50;

export interface FrameTimes {
  frames: number;
  meanMs: number;
  p95Ms: number;
  maxMs: number;
  longFrames: number;
}

/** Scrolls `viewport` from top to bottom, a page or more per frame; resolves with the frame times. */
export function scrollThrough(viewport: HTMLElement): Promise<FrameTimes> {
  viewport.scrollTop = 0;
  const max = viewport.scrollHeight - viewport.clientHeight;
  const step = Math.max(viewport.clientHeight, max / MAX_FRAMES);
  const times: number[] = [];
  return new Promise((resolve) => {
    let last = 0;
    let settle = 2;
    const frame = (now: number): void => {
      if (last) times.push(now - last);
      last = now;
      if (viewport.scrollTop >= max - 1 && settle-- <= 0) return resolve(summarize(times));
      viewport.scrollTop = Math.min(max, viewport.scrollTop + step);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

function summarize(times: number[]): FrameTimes {
  const sorted = [...times].sort((a, b) => a - b);
  const round = (n: number): number => Math.round(n * 10) / 10;
  const mean = times.reduce((sum, t) => sum + t, 0) / Math.max(1, times.length);
  return {
    frames: times.length,
    meanMs: round(mean),
    p95Ms: round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0),
    maxMs: round(sorted[sorted.length - 1] ?? 0),
    longFrames: times.filter((t) => t > LONG_FRAME_MS).length,
  };
}
