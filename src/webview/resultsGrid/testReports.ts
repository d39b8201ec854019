// Test builds only (`__TEST_HOOKS__`): the page tells the extension what it painted, and scrolls from
// the first row to the last on request, timing its frames. The build users get sends neither.
import type { GridRenderer } from './gridRenderer';
import { send } from './host';
import type { RowStore } from './rowStore';
import { scrollThrough } from './scrollMeasure';

const REPORT_DELAY_MS = 200;

/** What the reports read of the page. */
export interface ReportedPage {
  renderer: GridRenderer;
  viewport: HTMLElement;
  load(): number;
  active(): number;
  store(): RowStore | undefined;
}

/** Render reports and scroll measurement for one page. */
export class TestReports {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether the first painted rows with data, and the arrival of all rows, were reported (each is reported at once). */
  private reportedRows = false;
  private reportedComplete = false;

  constructor(private readonly page: ReportedPage) {}

  /** A new result arrived: its first rows and completion are reported again. */
  reset(): void {
    this.reportedRows = false;
    this.reportedComplete = false;
  }

  /** Reports what was painted: at once for the first rows and when all rows are in, else at most every 200 ms. */
  painted(): void {
    const store = this.page.store();
    if (!store) return;
    const firstRows = !this.reportedRows && store.loaded > 0 && this.page.renderer.painted().renderedRows > 0;
    const complete = !this.reportedComplete && store.complete;
    const urgent = firstRows || complete;
    this.reportedRows ||= firstRows;
    this.reportedComplete ||= complete;
    if (this.timer && !urgent) return;
    clearTimeout(this.timer);
    // After the next frame has started, the rows just painted are on screen.
    if (urgent) requestAnimationFrame(() => this.report());
    else this.timer = setTimeout(() => this.report(), REPORT_DELAY_MS);
  }

  async measure(id: number): Promise<void> {
    const times = await scrollThrough(this.page.viewport);
    const painted = this.page.renderer.painted();
    const store = this.page.store();
    const reachedEnd = store !== undefined && store.length > 0 && painted.firstRow + painted.renderedRows >= store.length;
    send({ type: 'scrollMeasured', id, ...times, reachedEnd });
  }

  private report(): void {
    this.timer = undefined;
    const current = this.page.store();
    if (!current) return;
    const { renderer } = this.page;
    const painted = renderer.painted();
    const foreignElements = renderer.el.body.querySelectorAll(':not(div)').length + renderer.el.headerRow.querySelectorAll(':not(div):not(span)').length;
    send({ type: 'rendered', load: this.page.load(), result: this.page.active(), loadedRows: current.loaded, viewRows: current.length, ...painted, sample: renderer.sample(5), foreignElements });
  }
}
