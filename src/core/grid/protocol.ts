/**
 * The messages between the results grid page and the extension. The extension owns the rows and the
 * order they show in; the page paints, selects and asks. Both sides check every message on arrival
 * (the page is another process: its messages are input, not trusted calls). No dependencies: the
 * page's bundle uses this file as is.
 */
import { type Checks, isBoolean, isIndex, isMessage, isNullableString, isRecord, isString, shaped } from '../messageShape';
import type { GridColumn } from './columnKinds';
import type { SortDirection } from './sortOrder';

export interface GridSort {
  column: number;
  direction: SortDirection;
}

/** One result set as the page shows it before its rows arrive. */
export interface ResultHeader {
  title: string;
  /** The statement of this result (shown as the tab's tooltip). */
  query: string;
  columns: GridColumn[];
  /** Rows the extension holds and will send. */
  rowCount: number;
  /** "100,000 rows · read … · 340 ms". */
  status: string;
  /** Set when the service cut the rows short. */
  truncation: string | null;
}

export type GridHostMessage =
  /** `cancellable`: the page offers Cancel (stop waiting for the query). */
  | { type: 'pending'; key: string; status: string; sql: string | null; cancellable: boolean }
  | { type: 'failure'; key: string; error: string; sql: string | null }
  | { type: 'success'; key: string; load: number; sql: string | null; results: ResultHeader[]; active: number }
  | { type: 'rows'; load: number; result: number; start: number; count: number; cells: string }
  /** The rows to show, as row indexes in order; null: every row in the service's order. */
  | { type: 'order'; load: number; result: number; version: number; order: number[] | null; sort: GridSort | null; filter: string }
  | { type: 'notice'; text: string; error: boolean }
  | { type: 'measureScroll'; id: number };

/** What the page says it painted (test builds only: tests and measurements). */
export interface RenderReport {
  load: number;
  result: number;
  /** Rows received so far and rows in the current order. */
  loadedRows: number;
  viewRows: number;
  /** First row painted and how many row elements the page holds. */
  firstRow: number;
  renderedRows: number;
  /** Text of the first painted rows (at most 5), exactly as on screen. */
  sample: string[][];
  /** Elements in the grid that the page did not make (markup from data would show up here). */
  foreignElements: number;
}

/** Frame times while the page scrolled from the first row to the last. */
export interface ScrollMeasurement {
  id: number;
  frames: number;
  meanMs: number;
  p95Ms: number;
  maxMs: number;
  /** Frames longer than 50 ms (a visible stutter). */
  longFrames: number;
  /** Whether the last row was painted at the end. */
  reachedEnd: boolean;
}

export type CopyRequest = { type: 'copy'; load: number; result: number; version: number; top: number; bottom: number; left: number; right: number; headers: boolean };

export type GridPageMessage =
  | { type: 'ready' }
  /** The first rows of load `load` are on screen (once per load): the extension then sends the rest. */
  | { type: 'shown'; load: number }
  /** Stop waiting for the pending query `key` (the same as Cancel on the progress notification). */
  | { type: 'cancel'; key: string }
  | ({ type: 'rendered' } & RenderReport)
  | { type: 'sort'; load: number; result: number; sort: GridSort | null }
  | { type: 'filter'; load: number; result: number; text: string }
  | CopyRequest
  | { type: 'export'; load: number; result: number; format: 'csv' | 'json' }
  | { type: 'activeResult'; load: number; result: number }
  | ({ type: 'scrollMeasured' } & ScrollMeasurement);

/** Messages of the test build only (render reports, scroll measurement); every other build refuses them. */
export type ProbePageMessage = Extract<GridPageMessage, { type: 'rendered' | 'scrollMeasured' }>;
export type UserPageMessage = Exclude<GridPageMessage, ProbePageMessage>;
export type UserHostMessage = Exclude<GridHostMessage, { type: 'measureScroll' }>;

/** The longest filter text the page may send. */
export const MAX_FILTER_CHARS = 1000;

const isNumber = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isSort = (v: unknown): boolean => v === null || (isRecord(v) && shaped(v, { column: isIndex, direction: (d) => d === 'asc' || d === 'desc' }));
const isSample = (v: unknown): boolean => Array.isArray(v) && v.length <= 5 && v.every((row) => Array.isArray(row) && row.length <= 1000 && row.every(isString));
const isColumn = (v: unknown): boolean => isRecord(v) && shaped(v, { name: isString, type: isString, kind: (k) => k === 'number' || k === 'date' || k === 'text' });
const isHeader = (v: unknown): boolean =>
  isRecord(v) &&
  shaped(v, { title: isString, query: isString, columns: (c) => Array.isArray(c) && c.every(isColumn), rowCount: isIndex, status: isString, truncation: isNullableString });

// Render reports and scroll measurement exist only in test builds: elsewhere they are unknown messages.
const PAGE_MESSAGES: Partial<Record<GridPageMessage['type'], Checks>> = {
  ready: {},
  cancel: { key: isString },
  shown: { load: isIndex },
  sort: { load: isIndex, result: isIndex, sort: isSort },
  filter: { load: isIndex, result: isIndex, text: (t) => typeof t === 'string' && t.length <= MAX_FILTER_CHARS },
  copy: { load: isIndex, result: isIndex, version: isIndex, top: isIndex, bottom: isIndex, left: isIndex, right: isIndex, headers: isBoolean },
  export: { load: isIndex, result: isIndex, format: (f) => f === 'csv' || f === 'json' },
  activeResult: { load: isIndex, result: isIndex },
  ...(__TEST_HOOKS__
    ? {
        rendered: { load: isIndex, result: isIndex, loadedRows: isIndex, viewRows: isIndex, firstRow: isIndex, renderedRows: isIndex, sample: isSample, foreignElements: isIndex },
        scrollMeasured: { id: isIndex, frames: isIndex, meanMs: isNumber, p95Ms: isNumber, maxMs: isNumber, longFrames: isIndex, reachedEnd: isBoolean },
      }
    : {}),
};

const HOST_MESSAGES: Partial<Record<GridHostMessage['type'], Checks>> = {
  pending: { key: isString, status: isString, sql: isNullableString, cancellable: isBoolean },
  failure: { key: isString, error: isString, sql: isNullableString },
  success: { key: isString, load: isIndex, sql: isNullableString, results: (r) => Array.isArray(r) && r.every(isHeader), active: isIndex },
  rows: { load: isIndex, result: isIndex, start: isIndex, count: isIndex, cells: isString },
  order: { load: isIndex, result: isIndex, version: isIndex, order: (o) => o === null || (Array.isArray(o) && o.every(isIndex)), sort: isSort, filter: isString },
  notice: { text: isString, error: isBoolean },
  ...(__TEST_HOOKS__ ? { measureScroll: { id: isIndex } } : {}),
};

/** A message from the page, or undefined when it is not one of ours (it is then ignored and logged). */
export function parseGridPageMessage(value: unknown): GridPageMessage | undefined {
  return isMessage<GridPageMessage>(PAGE_MESSAGES, value) ? value : undefined;
}

/** Whether a message has the shape the page expects (the extension checks before sending, the page on arrival). */
export function isGridHostMessage(value: unknown): value is GridHostMessage {
  return isMessage<GridHostMessage>(HOST_MESSAGES, value);
}
