// Grid: the 100,000 × 12 result in the real results panel (a webview of code-server, in Chromium).
// First rows: Run Query opens the panel before the query is sent, so the figure runs from the
// result's arrival to the first painted cell; beside it, the old way (a new panel opened with the
// result) and an empty webview's time to say ready (VS Code's floor). While
// the page scrolls from the first row to the last, one step per frame, it times the intervals
// between frames, and a Chromium trace records the main thread's work on each frame.
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import type { GridOpen, GridScroll } from '../host/protocol';
import { mainThreadFrameTimes, slowFrameBreakdown, traceDuring } from '../lib/chromiumTrace';
import { type Figure, ms, spread, times } from '../lib/figures';
import { FLOOR_RATIO_BUDGET, type FloorFrames, measureFloor, pageShape, scrollFloor } from '../lib/floor';
import type { HostSession } from '../lib/hostSession';
import type { Sandbox } from '../lib/services';
import { median, percentile, round } from '../lib/stats';
import { GRID_COLUMNS, GRID_ROWS, GRID_SQL } from './gridQuery';

const RUNS = 3;
/** Rows on screen this soon after the result arrived. */
const BUDGET_FIRST_MS = 150;
/** Scroll steps (one per frame), as the page's own scroll (src/webview/resultsGrid/scrollMeasure.ts). */
const SCROLL_FRAMES = 300;
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
  /** show() to the first painted cell, seen in the browser (a new panel opened with the result: the old way). */
  browserFirstMs: number;
  late: boolean;
  /** Run Query: the panel opened before the query was sent; the result's arrival to the first painted cell, seen in the browser. */
  run: GridOpen;
  arrivedFirstMs: number;
  arrivedLate: boolean;
  /** Phases of the frames at or above the p95 (mean ms per frame). */
  slowFrames: { frames: number; phases: Record<string, number> };
  scroll: GridScroll;
  emptyWebviewMs: number;
  /** p95 of the main thread's work per frame while scrolling (trace). */
  workP95Ms: number;
  workMaxMs: number;
  frames: number;
  /** The same scroll over a minimal page of the same shape, in the same webview host (bench/lib/floor.ts). */
  floor: FloorFrames;
  shape: { rows: number; cells: number; rowHeight: number };
}

/** The results page's frame (its viewport and body are there). */
async function gridFrame(page: Page): Promise<Frame> {
  for (const frame of page.frames()) {
    if (await frame.evaluate(() => document.getElementById('viewport') !== null && document.getElementById('body') !== null).catch(() => false)) return frame;
  }
  throw new Error('The results page is not in the browser.');
}

async function measureRun(session: HostSession, tmpDir: string, run: number): Promise<Run> {
  const { host, page } = session;
  await host.call('closeEditors');
  const emptyWebviewMs = await host.call('emptyWebview', undefined, 2 * 60_000);
  const [open, first] = await Promise.all([host.call('gridOpen', undefined, 3 * 60_000), firstRowsInBrowser(page, 3 * 60_000)]);
  await host.call('closeEditors');
  const [submitted, arrived] = await Promise.all([host.call('gridRun', { sql: GRID_SQL }, 5 * 60_000), firstRowsInBrowser(page, 5 * 60_000)]);
  const traceFile = path.join(tmpDir, `grid-scroll-${run}.trace.json`);
  const { result: scroll, events } = await traceDuring(page, traceFile, () => host.call('gridScroll', { queryId: submitted.queryId }, 3 * 60_000));
  const work = mainThreadFrameTimes(events);
  const workP95Ms = percentile(work, 95);
  const shape = await pageShape(await gridFrame(page), '#body .row:not([hidden])', '.cell:not([hidden])', GRID_ROWS);
  const floor = await measureFloor(session, shape, tmpDir, `grid-floor-${run}`, (frame) => scrollFloor(frame, SCROLL_FRAMES, true));
  return {
    floor,
    shape,
    open,
    browserFirstMs: first.at - open.shownAt,
    late: first.late,
    run: submitted,
    arrivedFirstMs: arrived.at - submitted.shownAt,
    arrivedLate: arrived.late,
    slowFrames: slowFrameBreakdown(events, workP95Ms),
    scroll,
    emptyWebviewMs,
    workP95Ms,
    workMaxMs: Math.max(...work),
    frames: work.length,
  };
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
  const timing = (key: string, of: 'open' | 'run' = 'open'): number => median(runs.map((r) => r[of].timings[key] ?? Number.NaN));
  const first = median(runs.map((r) => r.browserFirstMs));
  const arrived = median(runs.map((r) => r.arrivedFirstMs));
  const emptyWebview = median(runs.map((r) => r.emptyWebviewMs));
  const late = runs.filter((r) => r.late || r.arrivedLate).length;
  const work = median(runs.map((r) => r.workP95Ms));
  const floor = median(runs.map((r) => r.floor.p95Ms));
  const ratios = runs.map((r) => r.workP95Ms / r.floor.p95Ms);
  const intervals = median(runs.map((r) => r.scroll.p95Ms));
  const phases = meanPhases(runs.map((r) => r.slowFrames.phases));
  const source =
    `${GRID_ROWS.toLocaleString('en-US')} rows × ${GRID_COLUMNS} columns (numbers, text, dates, NULLs) from the sandbox's SQL engine (a recursive CTE; ` +
    `fetched once through the extension's client in ${ms(fetched.fetchMs)}), in the real webview of code-server in Chromium (window 1400 × 900), ` +
    `${RUNS} runs after a warm-up.`;
  return [
    {
      key: 'grid.firstRows',
      title: 'grid: result arrived → first rows drawn',
      ours: ms(arrived),
      spread: spread(runs.map((r) => r.arrivedFirstMs), ms),
      reference: `new panel opened with the result (before): ${ms(first)} (${spread(runs.map((r) => r.browserFirstMs), ms)?.text ?? '—'}); empty webview ready: ${ms(emptyWebview)}`,
      ratio: null,
      budget: `≤ ${ms(BUDGET_FIRST_MS)}`,
      within: arrived <= BUDGET_FIRST_MS,
      method:
        `${source} Each run executes the query with the Run Query command (the panel opens, pending with Cancel, before the query is sent, and the ` +
        'webview starts while the query runs); the figure runs from the result\'s arrival in the extension host (Date.now() when the panel is given the ' +
        'result) to the first painted cell with data, seen in the browser (a MutationObserver put in the webview\'s frame as soon as it exists; both ends ' +
        `read Date.now())${late ? ` (in ${late} run(s) the rows were there before the observer: an upper bound)` : ''}; median. The panel had been open ` +
        `${ms(-timing('panelOpenedMs', 'run'))} when the result arrived. The panel's own timings from the result's arrival: the page's report of its first ` +
        `painted rows arrived after ${ms(timing('firstRowsMs', 'run'))}, the last block of rows was handed to VS Code after ${ms(timing('sentAllMs', 'run'))}, ` +
        `the page had every row after ${ms(timing('allRowsMs', 'run'))}. Reference, the same run: the old way, a new panel opened with the result already ` +
        `there (from QueryResults.show() to the first painted cell; the page said ready after ${ms(timing('readyMs'))}), and an empty webview panel (one ` +
        "inline script that says ready) opened the same way — the part that is VS Code's own.",
      values: {
        arrivedFirstMs: runs.map((r) => r.arrivedFirstMs),
        runTimings: runs.map((r) => r.run.timings),
        browserFirstMs: runs.map((r) => r.browserFirstMs),
        timings: runs.map((r) => r.open.timings),
        emptyWebviewMs: runs.map((r) => round(r.emptyWebviewMs)),
      },
    },
    {
      key: 'grid.frames',
      title: 'grid: 95th-percentile frame, scrolling 100,000 rows',
      ours: `${ms(work)} of work`,
      spread: spread(runs.map((r) => r.workP95Ms), ms),
      reference: `floor page, same scroll: ${ms(floor)} (${spread(runs.map((r) => r.floor.p95Ms), ms)?.text ?? '—'}); frame interval p95: ${ms(intervals)}`,
      ratio: median(ratios),
      budget: `≤ ${times(FLOOR_RATIO_BUDGET)} the floor in every run`,
      within: ratios.every((r) => r <= FLOOR_RATIO_BUDGET),
      method:
        `The page scrolls from the first row to the last in at most 300 steps, one per animation frame (about ${Math.round(GRID_ROWS / 300)} rows a frame: ` +
        `every frame paints rows it has never shown). Ours: the 95th percentile of the renderer main thread's work per frame (ProxyMain::BeginMainFrame in a ` +
        `Chromium trace: script, style, layout, paint, commit; worst ${ms(Math.max(...runs.map((r) => r.workMaxMs)))}), median over the runs; the budget ` +
        `holds only if every run's ratio to its floor is within it (ratios ${ratios.map((r) => times(r)).join(', ')}). What the frames at or above the p95 spent their time on (mean ms per frame): ${describePhases(phases)}. ` +
        `Floor: after our scroll, in the same run and the same webview host, a minimal page of the same shape (${runs[0]?.shape.rows ?? '—'} rows × ` +
        `${runs[0]?.shape.cells ?? '—'} cells in view, rows ${runs[0]?.shape.rowHeight ?? '—'} px high, ${GRID_ROWS.toLocaleString('en-US')} rows; a pool of absolutely ` +
        'positioned fixed-height rows with contain: strict, cells written with textContent only, each frame\'s rows new) scrolled by the same script; its ' +
        `slow frames spent (mean ms per frame): ${describePhases(meanPhases(runs.map((r) => r.floor.slowPhases)))}. ` +
        `Reference: the page's own 95th percentile of the intervals between frames (requestAnimationFrame; at 60 Hz a frame on time is ${ms(VSYNC_MS)} ` +
        `apart). Intervals over 50 ms in all: ${runs.reduce((n, r) => n + r.scroll.longFrames, 0)}; the last row was painted in ` +
        `${runs.filter((r) => r.scroll.reachedEnd).length} of ${RUNS} runs. Traces: bench/tmp/grid-scroll-*.trace.json (open in chrome://tracing or Perfetto).`,
      values: {
        workP95Ms: runs.map((r) => round(r.workP95Ms, 2)),
        workMaxMs: runs.map((r) => round(r.workMaxMs, 2)),
        floorP95Ms: runs.map((r) => round(r.floor.p95Ms, 2)),
        ratios: ratios.map((r) => round(r, 3)),
        shape: runs.map((r) => r.shape),
        frames: runs.map((r) => r.frames),
        slowFrames: runs.map((r) => r.slowFrames),
        scrolls: runs.map((r) => r.scroll),
      },
    },
  ];
}

/** The mean of each phase over the runs. */
function meanPhases(runs: Record<string, number>[]): Record<string, number> {
  const names = [...new Set(runs.flatMap((r) => Object.keys(r)))];
  const means: [string, number][] = names.map((n) => [n, round(runs.reduce((sum, r) => sum + (r[n] ?? 0), 0) / Math.max(1, runs.length), 2)]);
  return Object.fromEntries(means.sort((a, b) => b[1] - a[1]));
}

function describePhases(phases: Record<string, number>): string {
  return Object.entries(phases).filter(([, v]) => v >= 0.05).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ') || 'none';
}
