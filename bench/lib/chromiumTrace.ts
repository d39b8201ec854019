// A Chromium performance trace of the benchmark's page (CDP Tracing through Playwright), and the
// figure read from it: how long the renderer's main thread worked on each frame.
import * as fs from 'node:fs';
import type { Page } from 'playwright-core';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; begin_frame_id?: number };
}

/** The categories the frame figure needs (frame production) plus DevTools' usual timeline. */
const CATEGORIES = ['cc', 'benchmark', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'toplevel', 'blink'];

/** Runs `fn` while Chromium records a trace; writes the trace to `file` (Chrome's JSON trace format). */
export async function traceDuring<T>(page: Page, file: string, fn: () => Promise<T>): Promise<{ result: T; events: TraceEvent[] }> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (data) => void events.push(...(data.value as unknown as TraceEvent[])));
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: CATEGORIES, recordMode: 'recordAsMuchAsPossible' }, transferMode: 'ReportEvents' });
  try {
    const result = await fn();
    return { result, events };
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
    fs.writeFileSync(file, JSON.stringify({ traceEvents: events }));
  }
}

/**
 * Main-thread time of each frame the page produced (ms): the `ProxyMain::BeginMainFrame` spans of the
 * renderer that produced the most frames (rAF callbacks, scroll handlers, style, layout, paint and
 * commit of every frame in that process: the workbench and its webviews share it), one per frame.
 */
export function mainThreadFrameTimes(events: readonly TraceEvent[]): number[] {
  const frames = events.filter((e) => e.name === 'ProxyMain::BeginMainFrame' && e.ph === 'X' && typeof e.dur === 'number');
  const perThread = new Map<string, Map<number, number>>();
  for (const e of frames) {
    const thread = `${e.pid}:${e.tid}`;
    const byFrame = perThread.get(thread) ?? new Map<number, number>();
    const id = e.args?.begin_frame_id ?? e.ts;
    byFrame.set(id, Math.max(byFrame.get(id) ?? 0, (e.dur as number) / 1000));
    perThread.set(thread, byFrame);
  }
  const busiest = [...perThread.values()].sort((a, b) => b.size - a.size)[0];
  return busiest ? [...busiest.values()] : [];
}

/** Main-thread work of a frame by phase, for the frames at or above a threshold. */
const PHASES: Record<string, string> = {
  FireAnimationFrame: 'script',
  EventDispatch: 'script',
  FunctionCall: 'script',
  'v8.callFunction': 'script',
  TimerFire: 'timers',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'pre-paint',
  Paint: 'paint',
  Layerize: 'layerize',
  'ProxyMain::BeginMainFrame::commit': 'commit',
  HitTest: 'hit test',
  MinorGC: 'garbage collection',
  MajorGC: 'garbage collection',
  'V8.GC_SCAVENGER': 'garbage collection',
  ParseHTML: 'parse',
};

/**
 * What the frames at or above `thresholdMs` spent their main-thread time on (mean ms per such frame,
 * by phase): the self time of each known event inside each slow `BeginMainFrame` (its time minus
 * that of the known events nested in it), so that style and layout forced inside a script count as
 * style and layout, and nothing is counted twice.
 */
export function slowFrameBreakdown(events: readonly TraceEvent[], thresholdMs: number): { frames: number; phases: Record<string, number> } {
  const frames = events.filter((e) => e.name === 'ProxyMain::BeginMainFrame' && e.ph === 'X' && typeof e.dur === 'number' && e.dur / 1000 >= thresholdMs);
  const totals: Record<string, number> = {};
  const add = (phase: string, us: number): void => void (totals[phase] = (totals[phase] ?? 0) + us / 1000);
  for (const frame of frames) {
    const end = frame.ts + (frame.dur as number);
    const inside = events
      .filter((e) => e.ph === 'X' && e.pid === frame.pid && e.tid === frame.tid && e.ts >= frame.ts && e.ts < end && e !== frame && PHASES[e.name] !== undefined && typeof e.dur === 'number')
      .sort((a, b) => a.ts - b.ts || (b.dur as number) - (a.dur as number));
    // A stack of open events: each one's self time is its duration minus its known children's.
    const stack: Array<{ end: number; phase: string; self: number }> = [{ end, phase: 'other (frame itself)', self: frame.dur as number }];
    const close = (until: number): void => {
      while (stack.length > 1 && (stack.at(-1) as { end: number }).end <= until) {
        const done = stack.pop() as { phase: string; self: number };
        add(done.phase, done.self);
      }
    };
    for (const e of inside) {
      close(e.ts);
      const parent = stack.at(-1) as { self: number };
      parent.self -= e.dur as number;
      stack.push({ end: e.ts + (e.dur as number), phase: PHASES[e.name] as string, self: e.dur as number });
    }
    close(Number.POSITIVE_INFINITY);
    add(stack[0]!.phase, Math.max(0, stack[0]!.self));
  }
  const perFrame: [string, number][] = Object.entries(totals).map(([k, v]) => [k, Math.round((v / Math.max(1, frames.length)) * 100) / 100]);
  const phases = Object.fromEntries(perFrame.sort((a, b) => b[1] - a[1]));
  return { frames: frames.length, phases };
}
