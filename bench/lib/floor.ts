// A frame row's floor, measured in the same run and the same webview host as ours: the bench runner
// opens a minimal page of the same shape (bench/host/tasks/floorPage.ts), the same scroll or stream
// script runs in it under a Chromium trace, and its frames are read the same way as ours.
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import type { FloorShape } from '../host/protocol';
import { mainThreadFrameTimes, slowFrameBreakdown, traceDuring } from './chromiumTrace';
import type { HostSession } from './hostSession';
import { percentile } from './stats';

/** Ours ≤ this many times the floor's p95 frame (the budget of every frame row). */
export const FLOOR_RATIO_BUDGET = 1.25;

/** A floor's frames: the main thread's work per frame and what the frames at or above its p95 spent it on. */
export interface FloorFrames {
  work: number[];
  p95Ms: number;
  slowPhases: Record<string, number>;
}

/** The floor page's frame, once its script ran. */
async function floorFrame(page: Page, timeoutMs: number): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (await frame.evaluate(() => document.getElementById('floor') !== null && document.querySelector('#canvas .r') !== null).catch(() => false)) return frame;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('The floor page never appeared in the browser.');
}

/** Opens the floor page of `shape`, runs `script` in it under a trace (written to `traceFile`), closes it. */
export async function measureFloor(session: HostSession, shape: FloorShape, tmpDir: string, name: string, script: (frame: Frame) => Promise<unknown>): Promise<FloorFrames> {
  await session.host.call('floorOpen', shape, 2 * 60_000);
  try {
    const frame = await floorFrame(session.page, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { events } = await traceDuring(session.page, path.join(tmpDir, `${name}.trace.json`), () => script(frame));
    const work = mainThreadFrameTimes(events);
    const p95Ms = percentile(work, 95);
    return { work, p95Ms, slowPhases: slowFrameBreakdown(events, p95Ms).phases };
  } finally {
    await session.host.call('floorClose');
  }
}

/** The shape of a page in view: rows shown (`rowSelector`), cells of its first row (`cellSelector`), its row height and viewport width. */
export function pageShape(frame: Frame, rowSelector: string, cellSelector: string, totalRows: number): Promise<FloorShape> {
  return frame.evaluate(
    ({ rowSelector, cellSelector, totalRows }) => {
      const rows = [...document.querySelectorAll<HTMLElement>(rowSelector)];
      const viewport = document.getElementById('viewport') as HTMLElement;
      const rowHeight = rows[0]?.offsetHeight || 22;
      const cells = rows[0]?.querySelectorAll(cellSelector).length ?? 0;
      const inView = Math.ceil(viewport.clientHeight / rowHeight);
      return { rows: Math.min(rows.length, inView), cells, rowHeight, cellWidth: Math.max(40, Math.floor(viewport.clientWidth / Math.max(1, cells))), totalRows };
    },
    { rowSelector, cellSelector, totalRows },
  );
}

/** Scrolls `#viewport` from the top to the end in at most `maxFrames` steps of at least `minStep` px, one per frame (the pages' own scroll scripts do the same). */
export function scrollFloor(frame: Frame, maxFrames: number, minStepViewport: boolean): Promise<number[]> {
  return frame.evaluate(
    ({ maxFrames, minStepViewport }) =>
      new Promise<number[]>((resolve) => {
        const viewport = document.getElementById('viewport') as HTMLElement;
        viewport.scrollTop = 0;
        const max = viewport.scrollHeight - viewport.clientHeight;
        const step = Math.max(minStepViewport ? viewport.clientHeight : 24, max / maxFrames);
        const intervals: number[] = [];
        let last = 0;
        let settle = 2;
        const tick = (now: number): void => {
          if (last) intervals.push(now - last);
          last = now;
          if (viewport.scrollTop >= max - 1 && settle-- <= 0) return resolve(intervals);
          viewport.scrollTop = Math.min(max, viewport.scrollTop + step);
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    { maxFrames, minStepViewport },
  );
}
