// First page of a large tree: the Agents view of the large seed (10,000 agents, 100,000 jobs). In
// the browser, from the click that expands the view to the first agent row in the DOM (plus the
// frame that paints it), against one raw request for the same page, run by run. Beside it, the
// same click on a reference tree of the bench runner: rows it already holds (VS Code's own floor),
// and rows it fetches with one plain fetch() (the least an extension can do).
import type { Page } from 'playwright-core';
import { type Figure, ms } from '../lib/figures';
import type { HostSession } from '../lib/hostSession';
import { RawHttp, type Sandbox } from '../lib/services';
import { median, round } from '../lib/stats';

const RUNS = 6;
const BUDGET_RATIO = 1.5;
/** Each run shows a different first page (a view keeps its old rows until the new ones arrive). */
const ORDERINGS = ['name', '-name'];
/** VS Code's extension host passes tree refreshes on after a 200 ms debounce. */
const REFRESH_SETTLE_MS = 600;
const AGENTS = 'Agents';
const REFERENCE = 'Reference Tree';

interface UiTiming {
  paintedMs: number;
  clickedAt: number;
}

/** Expands the pane `title` by a click on its header and times the first row labelled `expected` (runs in the page). */
function expandAndTime(page: Page, title: string, expected: string): Promise<UiTiming> {
  return page.evaluate(
    ({ title, expected }) =>
      new Promise<UiTiming>((resolve, reject) => {
        const header = [...document.querySelectorAll<HTMLElement>('.part.sidebar .pane-header')].find((h) => h.querySelector('h3.title')?.textContent?.trim() === title);
        const pane = header?.closest('.pane');
        if (!header || !pane) return reject(new Error(`No "${title}" view in the side bar.`));
        if (header.classList.contains('expanded')) return reject(new Error(`The "${title}" view is already expanded.`));
        const shown = (): boolean => [...pane.querySelectorAll('.monaco-list-row .label-name')].some((el) => el.textContent === expected);
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`No row "${expected}" in "${title}" within 30 s.`));
        }, 30_000);
        const observer = new MutationObserver(() => {
          if (!shown()) return;
          observer.disconnect();
          clearTimeout(timer);
          requestAnimationFrame(() => resolve({ paintedMs: performance.now() - started, clickedAt }));
        });
        observer.observe(pane, { childList: true, subtree: true, characterData: true });
        const clickedAt = Date.now();
        const started = performance.now();
        header.click();
      }),
    { title, expected },
  );
}

/** Collapses the pane `title` (a click on the header element itself: its centre may hold title actions). */
async function collapse(page: Page, title: string): Promise<void> {
  await page.keyboard.press('Escape');
  const collapsed = await page.evaluate((title) => {
    const header = [...document.querySelectorAll<HTMLElement>('.part.sidebar .pane-header')].find((h) => h.querySelector('h3.title')?.textContent?.trim() === title);
    if (header?.classList.contains('expanded')) header.click();
    return header !== undefined;
  }, title);
  if (!collapsed) throw new Error(`No "${title}" view in the side bar.`);
  await page.waitForFunction((title) => {
    const header = [...document.querySelectorAll('.part.sidebar .pane-header')].find((h) => h.querySelector('h3.title')?.textContent?.trim() === title);
    return header !== undefined && !header.classList.contains('expanded');
  }, title);
}

interface Run {
  ours: number;
  raw: number;
  floor: number;
  minimal: number;
  hostRoot: number | null;
  rootAfterClick: number | null;
}

/** One run: the raw request, then the Agents view, then the reference tree both ways. */
async function measureRun(session: HostSession, sandbox: Sandbox, raw: RawHttp, ordering: string): Promise<Run> {
  const { host, page } = session;
  const reference = await raw.get<{ results: { name: string }[] }>(`/v1/agents/?page=1&page_size=50&ordering=${ordering}`);
  const labels = reference.body.results.map((a) => a.name);
  const expected = labels[0];
  if (!expected) throw new Error('The large seed listed no agents.');
  const time = async (title: string, first: string, invalidate: () => Promise<unknown>): Promise<UiTiming> => {
    await collapse(page, title);
    await invalidate();
    await page.waitForTimeout(REFRESH_SETTLE_MS);
    return expandAndTime(page, title, first);
  };
  const ours = await time(AGENTS, expected, () => host.call('treeOrdering', { ordering }));
  const root = await host.call('treeLastRoot');
  // Rows the reference tree holds are marked, so that they differ from the fetched rows shown before them.
  const held = labels.map((label) => `${label} (held)`);
  const floor = await time(REFERENCE, held[0] as string, () => host.call('referenceTree', { mode: 'instant', labels: held }));
  const connection = { baseUrl: sandbox.baseUrl, organizationId: sandbox.organizationId, token: sandbox.token };
  const minimal = await time(REFERENCE, expected, () => host.call('referenceTree', { mode: 'fetch', ...connection, ordering }));
  return {
    ours: ours.paintedMs,
    raw: reference.ms,
    floor: floor.paintedMs,
    minimal: minimal.paintedMs,
    hostRoot: root?.durationMs ?? null,
    // The root request must come after the click: one that came before means the view was not fetched by expanding it.
    rootAfterClick: root ? root.startedAt - ours.clickedAt : null,
  };
}

/** Measures the Agents view's first page against a raw request and the reference tree. */
export async function largeTree(session: HostSession, sandbox: Sandbox): Promise<Figure[]> {
  const { host, workbench } = session;
  await host.call('connect', { baseUrl: sandbox.baseUrl, organizationId: sandbox.organizationId, token: sandbox.token });
  await workbench.openActivity('Agent Workbench');
  await workbench.view(AGENTS).locator('.monaco-list-row').first().waitFor({ timeout: 60_000 });
  const raw = new RawHttp(sandbox);
  const runs: Run[] = [];
  try {
    for (let run = 0; run <= RUNS; run++) {
      const sample = await measureRun(session, sandbox, raw, ORDERINGS[run % ORDERINGS.length] as string);
      if (run > 0) runs.push(sample);
    }
  } finally {
    await raw.close();
  }
  const pick = (key: keyof Run): number[] => runs.map((r) => r[key]).filter((x): x is number => x !== null);
  const ratio = median(runs.map((r) => r.ours / r.raw));
  const vsMinimal = median(runs.map((r) => r.ours / r.minimal));
  const method =
    `Large seed (10,000 agents, 100,000 jobs). In Chromium, a view's pane is collapsed, its first page invalidated (the ordering alternates between ` +
    `${ORDERINGS.join(' and ')} so every run shows new rows; ${REFRESH_SETTLE_MS} ms for VS Code's 200 ms refresh debounce), then a click on its header ` +
    `expands it; the time runs from the click to the first agent row in the DOM (MutationObserver) plus the next animation frame. Median of ${RUNS} runs ` +
    `after a warm-up; ratios are medians of per-run ratios. Reference: one raw undici request for the same page (page_size=50) over a warm connection, ` +
    `just before. Beside it, the same click on a reference tree in the same side bar: rows it already holds ${ms(median(pick('floor')))} (VS Code's own ` +
    `cost: the expand, a round trip renderer → server → extension host, drawing 50 rows), rows it fetches with one plain fetch() ${ms(median(pick('minimal')))}. ` +
    `In the extension host, the Agents view's root request took ${ms(median(pick('hostRoot')))} (client, validation, tree items) and started ` +
    `${ms(median(pick('rootAfterClick')))} after the click.`;
  const floor = median(pick('floor'));
  const raws = median(pick('raw'));
  const budgetNote =
    `Why that budget cannot hold: the same click on a tree that already holds its rows takes ${ms(floor)}, ${(floor / raws).toFixed(1)}× the raw request ` +
    'before any request is made, so no extension can show a page within 1.5× a request this fast; the next row compares with a minimal extension instead ' +
    '(a proposed budget).';
  return [
    {
      key: 'tree.firstPage',
      title: 'first page of a large tree',
      ours: ms(median(pick('ours'))),
      reference: `raw request: ${ms(median(pick('raw')))}`,
      ratio: round(ratio, 2),
      budget: `≤ ${BUDGET_RATIO}× the raw request`,
      within: ratio <= BUDGET_RATIO,
      method: `${method} ${floor > BUDGET_RATIO * raws ? budgetNote : ''}`.trim(),
      values: { runs: runs.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : round(v as number, 1)]))) },
    },
    {
      key: 'tree.firstPageVsMinimal',
      title: 'first page of a large tree, vs a minimal extension (proposed budget)',
      ours: ms(median(pick('ours'))),
      reference: `plain fetch() tree: ${ms(median(pick('minimal')))}`,
      ratio: round(vsMinimal, 2),
      budget: `≤ ${BUDGET_RATIO}× the same click on a minimal tree`,
      within: vsMinimal <= BUDGET_RATIO,
      method: 'The same runs, against the reference tree that fetches the page with one plain fetch() in the extension host (see above).',
      values: {},
    },
  ];
}
