/**
 * Test and benchmark builds only (`__TEST_HOOKS__`): what a results panel last sent and was told, its
 * timings, and a scroll from the first row to the last with its frame times. The build users get has
 * none of it: the page sends no render reports and cannot be asked to scroll.
 */
import type { GridHostMessage, GridPageMessage, RenderReport, ScrollMeasurement } from '../../core/grid/protocol';

const SCROLL_MEASURE_TIMEOUT_MS = 120_000;

/**
 * Milliseconds from `show()` of a result (when the result arrived): until the page said it was
 * ready, until the last block of rows was handed to VS Code, until the page painted its first rows,
 * and until it had all rows of the active result. `panelOpenedMs`: how long before that the panel
 * was opened (negative: the panel existed, booting, while the query ran).
 */
export interface PanelTimings {
  readyMs?: number;
  sentAllMs?: number;
  firstRowsMs?: number;
  allRowsMs?: number;
  panelOpenedMs?: number;
  /** Date.now() when the result arrived (the browser reads the same clock). */
  resultAtEpochMs?: number;
}

/** What a panel last sent and was told. Row blocks are left out of `lastPosted`. */
export interface PanelDebugState {
  lastPosted?: GridHostMessage;
  lastReport?: RenderReport;
  timings: PanelTimings;
}

/** One panel's probe: fed by the panel, read by tests through the test API. */
export class ResultsPanelProbe {
  private readonly openedAt = performance.now();
  private shownAt = this.openedAt;
  private debug: PanelDebugState = { timings: {} };
  private nextMeasure = 1;
  private readonly measures = new Map<number, (measurement: ScrollMeasurement) => void>();

  constructor(private readonly send: (message: GridHostMessage) => boolean) {}

  /** A result arrived: timings start over from now. */
  resultShown(): void {
    this.shownAt = performance.now();
    this.debug = { timings: { panelOpenedMs: Math.round(this.openedAt - this.shownAt), resultAtEpochMs: Date.now() } };
  }

  posted(message: GridHostMessage): void {
    if (message.type !== 'rows') this.debug.lastPosted = message;
  }

  ready(): void {
    this.debug.timings.readyMs ??= this.elapsed();
  }

  sentAll(): void {
    this.debug.timings.sentAllMs ??= this.elapsed();
  }

  /** Takes a render report or a scroll measurement; false for any other message. */
  take(message: GridPageMessage, active: number, activeRows: number | undefined): boolean {
    if (message.type === 'rendered') {
      const { type: _type, ...report } = message;
      this.rendered(report, active, activeRows);
      return true;
    }
    if (message.type !== 'scrollMeasured') return false;
    const { type: _type, ...measurement } = message;
    this.measures.get(measurement.id)?.(measurement);
    this.measures.delete(measurement.id);
    return true;
  }

  private rendered(report: RenderReport, active: number, activeRows: number | undefined): void {
    this.debug.lastReport = report;
    const timings = this.debug.timings;
    if (timings.firstRowsMs === undefined && report.renderedRows > 0 && report.loadedRows > 0) timings.firstRowsMs = this.elapsed();
    if (timings.allRowsMs === undefined && report.result === active && report.loadedRows === activeRows) timings.allRowsMs = this.elapsed();
  }

  state(): PanelDebugState {
    return { ...this.debug, timings: { ...this.debug.timings } };
  }

  /** Asks the page to scroll from the first row to the last and to time its frames. */
  measureScroll(): Promise<ScrollMeasurement> {
    const id = this.nextMeasure++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.measures.delete(id);
        reject(new Error('The results page did not finish scrolling in time (is the panel visible?).'));
      }, SCROLL_MEASURE_TIMEOUT_MS);
      this.measures.set(id, (measurement) => {
        clearTimeout(timer);
        resolve(measurement);
      });
      if (!this.send({ type: 'measureScroll', id })) {
        clearTimeout(timer);
        this.measures.delete(id);
        reject(new Error('The results page is not showing.'));
      }
    });
  }

  private elapsed(): number {
    return Math.round(performance.now() - this.shownAt);
  }
}

/** The panels as the test API shows them: the panels, plus each one's debug state and scroll measurement. */
export interface ResultsProbes {
  debugState(queryId: string): PanelDebugState | undefined;
  measureScroll(queryId: string): Promise<ScrollMeasurement>;
}

/** Adds the probes' reads to the results panels (test API only). */
export function withProbes<T extends object>(results: T, probeOf: (queryId: string) => ResultsPanelProbe | undefined): T & ResultsProbes {
  const probes: ResultsProbes = {
    debugState: (queryId) => probeOf(queryId)?.state(),
    measureScroll: (queryId) => probeOf(queryId)?.measureScroll() ?? Promise.reject(new Error(`No result panel is open for query ${queryId}.`)),
  };
  // The panels stay the prototype, so their own methods work on the same object.
  return Object.assign(Object.create(results) as T, probes);
}
