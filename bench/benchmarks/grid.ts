// Grid: the 100,000 × 12 result in the real results panel (a webview of code-server, in Chromium).
// Time to first rows is the panel's own measure, from show() in the extension host to the page's
// report that it painted rows, beside an empty webview's time to say ready (VS Code's floor). While
// the page scrolls from the first row to the last, one step per frame, it times the intervals
// between frames, and a Chromium trace records the main thread's work on each frame.
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import type { GridOpen, GridScroll } from '../host/protocol';
import { mainThreadFrameTimes, traceDuring } from '../lib/chromiumTrace';
import { type Figure, ms } from '../lib/figures';
import type { HostSession } from '../lib/hostSession';
import type { Sandbox } from '../lib/services';
import { median, percentile, round } from '../lib/stats';
import { GRID_COLUMNS, GRID_ROWS, GRID_SQL } from './gridQuery';

const RUNS = 3;
const BUDGET_FIRST_MS = 1000;
const BUDGET_FRAME_MS = 16;
/** One frame at 60 Hz: a frame-to-frame interval when no frame is dropped. */
const VSYNC_MS = 1000 / 60;

/**
 * Date.now() when the results page first held a painted cell with data, seen from the browser: the
 * page's frame is found as soon as it exists and a MutationObserver is put in it. `late` is set when
 * the rows were already there when the observer arrived (the time is then an upper bound).
 */
async function firstRowsInBrowser(page: Page, timeoutMs: number): Promise<{ at: number; late: boolean }> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      const seen = await frame
        .evaluate(() => {
          const body = document.getElementById('body');
          if (!document.getElementById('viewport') || !body) return null;
          const state = window as unknown as { benchFirstRows?: { at: number; late: boolean } | null };
          const painted = (): boolean => body.querySelector('.cell:not(.loading)') !== null;
          if (state.benchFirstRows === undefined) {
            state.benchFirstRows = painted() ? { at: Date.now(), late: true } : null;
            if (!state.benchFirstRows) {
              const observer = new MutationObserver(() => {
                if (!painted()) return;
                state.benchFirstRows = { at: Date.now(), late: false };
                observer.disconnect();
              });
              observer.observe(body, { childList: true, subtree: true, attributes: true, characterData: true });
            }
          }
          return state.benchFirstRows;
        })
        .catch(() => null);
      if (seen) return seen;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('The results page never showed rows in the browser.');
}

interface Run {
  open: GridOpen;
  /** show() to the first painted cell, seen in the browser. */
  browserFirstMs: number;
  late: boolean;
  scroll: GridScroll;
  emptyWebviewMs: number;
  /** p95 of the main thread's work per frame while scrolling (trace). */
  workP95Ms: number;
  workMaxMs: number;
  frames: number;
}

async function measureRun(session: HostSession, tmpDir: string, run: number): Promise<Run> {
  const { host, page } = session;
  await host.call('closeEditors');
  const emptyWebviewMs = await host.call('emptyWebview', undefined, 2 * 60_000);
  const [open, first] = await Promise.all([host.call('gridOpen', undefined, 3 * 60_000), firstRowsInBrowser(page, 3 * 60_000)]);
  const traceFile = path.join(tmpDir, `grid-scroll-${run}.trace.json`);
  const { result: scroll, events } = await traceDuring(page, traceFile, () => host.call('gridScroll', { queryId: open.queryId }, 3 * 60_000));
  const work = mainThreadFrameTimes(events);
  return { open, browserFirstMs: first.at - open.shownAt, late: first.late, scroll, emptyWebviewMs, workP95Ms: percentile(work, 95), workMaxMs: Math.max(...work), frames: work.length };
}

/** Opens and scrolls the result RUNS times after a warm-up. */
export async function grid(session: HostSession, sandbox: Sandbox, tmpDir: string): Promise<Figure[]> {
  const { host } = session;
  await host.call('connect', { baseUrl: sandbox.baseUrl, organizationId: sandbox.organizationId, token: sandbox.token });
  const fetched = await host.call('gridFetch', { sql: GRID_SQL }, 5 * 60_000);
  if (fetched.rows !== GRID_ROWS || fetched.columns !== GRID_COLUMNS) throw new Error(`The query gave ${fetched.rows} × ${fetched.columns}, not ${GRID_ROWS} × ${GRID_COLUMNS}.`);
  const runs: Run[] = [];
  try {
    for (let run = 0; run <= RUNS; run++) {
      const sample = await measureRun(session, tmpDir, run);
      if (run > 0) runs.push(sample);
    }
  } finally {
    await host.call('closeEditors');
    await host.call('gridForget');
  }
  const timing = (key: string): number => median(runs.map((r) => r.open.timings[key] ?? Number.NaN));
  const first = median(runs.map((r) => r.browserFirstMs));
  const emptyWebview = median(runs.map((r) => r.emptyWebviewMs));
  const late = runs.filter((r) => r.late).length;
  const work = median(runs.map((r) => r.workP95Ms));
  const intervals = median(runs.map((r) => r.scroll.p95Ms));
  const source =
    `${GRID_ROWS.toLocaleString('en-US')} rows × ${GRID_COLUMNS} columns (numbers, text, dates, NULLs) from the sandbox's SQL engine (a recursive CTE), fetched ` +
    `once through the extension's client (${ms(fetched.fetchMs)}), then shown ${RUNS} times after a warm-up, each in a new results panel: the real webview ` +
    'of code-server in Chromium (window 1400 × 900).';
  return [
    {
      key: 'grid.firstRows',
      title: 'grid: time to first rows',
      ours: ms(first),
      reference: `empty webview ready: ${ms(emptyWebview)}`,
      ratio: null,
      budget: '≤ 1 s',
      within: first <= BUDGET_FIRST_MS,
      method:
        `${source} From ResultsPanels.show() in the extension host to the first painted cell with data in the page, seen in the browser (a ` +
        `MutationObserver put in the webview's frame as soon as it exists; both ends read Date.now())${late ? ` (in ${late} run(s) the rows were there before the observer: an upper bound)` : ''}; median. ` +
        `The panel's own timings, in the extension host: the page said ready after ${ms(timing('readyMs'))}, its report of the first painted rows arrived ` +
        `after ${ms(timing('firstRowsMs'))}, the last block of rows was handed to VS Code after ${ms(timing('sentAllMs'))}, the page had every row after ` +
        `${ms(timing('allRowsMs'))}. Reference: an empty webview panel (one inline script that says ready) opened the same way just before — the part of ` +
        "the time that is VS Code's own. " +
        (emptyWebview > BUDGET_FIRST_MS
          ? `That floor alone is over the budget here (code-server in headless Chromium), so the budget cannot be met in this setup; the extension's own share is ${ms(first - emptyWebview)}.`
          : `The extension's own share is ${ms(first - emptyWebview)}.`),
      values: { browserFirstMs: runs.map((r) => r.browserFirstMs), timings: runs.map((r) => r.open.timings), emptyWebviewMs: runs.map((r) => round(r.emptyWebviewMs)) },
    },
    {
      key: 'grid.frames',
      title: 'grid: 95th-percentile frame, scrolling to the end',
      ours: `${ms(work)} of work`,
      reference: `frame interval p95: ${ms(intervals)}`,
      ratio: null,
      budget: `≤ ${BUDGET_FRAME_MS} ms`,
      within: work <= BUDGET_FRAME_MS,
      method:
        `The page scrolls from the first row to the last in at most 300 steps, one per animation frame (about ${Math.round(GRID_ROWS / 300)} rows a frame: ` +
        `every frame paints rows it has never shown). Ours: the 95th percentile of the renderer main thread's work per frame (ProxyMain::BeginMainFrame in a ` +
        `Chromium trace: script, style, layout, paint, commit; worst ${ms(Math.max(...runs.map((r) => r.workMaxMs)))}), median over the runs. Reference: the ` +
        `page's own 95th percentile of the intervals between frames (requestAnimationFrame); at 60 Hz a frame on time is ${ms(VSYNC_MS)} apart, so that ` +
        `measure cannot go below 16.7 ms and a literal "≤ 16 ms" of intervals is out of reach by construction — work per frame is what the budget can mean. ` +
        `Intervals over 50 ms in all: ${runs.reduce((n, r) => n + r.scroll.longFrames, 0)}; the last row was painted in ${runs.filter((r) => r.scroll.reachedEnd).length} of ${RUNS} runs. ` +
        'Traces: bench/tmp/grid-scroll-*.trace.json (open in chrome://tracing or Perfetto).',
      values: { workP95Ms: runs.map((r) => round(r.workP95Ms, 2)), workMaxMs: runs.map((r) => round(r.workMaxMs, 2)), frames: runs.map((r) => r.frames), scrolls: runs.map((r) => r.scroll) },
    },
  ];
}
