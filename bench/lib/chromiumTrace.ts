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
