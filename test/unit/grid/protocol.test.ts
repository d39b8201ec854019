import * as assert from 'node:assert/strict';
import { isGridHostMessage, MAX_FILTER_CHARS, parseGridPageMessage } from '../../../src/core/grid/protocol';

describe('messages from the grid page', () => {
  it('accepts the messages the page sends', () => {
    const messages = [
      { type: 'ready' },
      { type: 'sort', load: 1, result: 0, sort: { column: 2, direction: 'desc' } },
      { type: 'sort', load: 1, result: 0, sort: null },
      { type: 'filter', load: 1, result: 0, text: 'alice' },
      { type: 'copy', load: 1, result: 0, version: 3, top: 0, bottom: 9, left: 0, right: 2, headers: true },
      { type: 'export', load: 1, result: 1, format: 'json' },
      { type: 'rendered', load: 1, result: 0, loadedRows: 10, viewRows: 10, firstRow: 0, renderedRows: 10, sample: [['a', 'b']], foreignElements: 0 },
      { type: 'scrollMeasured', id: 1, frames: 300, meanMs: 16.6, p95Ms: 18, maxMs: 40, longFrames: 0, reachedEnd: true },
    ];
    for (const message of messages) assert.deepEqual(parseGridPageMessage(message), message, JSON.stringify(message));
  });

  it('refuses anything else: unknown types, extra or missing fields, wrong values', () => {
    const bad = [
      null,
      'ready',
      [],
      { type: 'exec', command: 'rm' },
      { type: 'ready', extra: 1 },
      { type: 'export', load: 1, result: 0, format: 'xml' },
      { type: 'export', load: 1, result: -1, format: 'csv' },
      { type: 'copy', load: 1, result: 0, version: 1, top: 0, bottom: 1.5, left: 0, right: 0, headers: false },
      { type: 'filter', load: 1, result: 0, text: 'x'.repeat(MAX_FILTER_CHARS + 1) },
      { type: 'sort', load: 1, result: 0, sort: { column: 0, direction: 'up' } },
      { type: 'sort', load: 1, result: 0 },
      { type: 'toString' },
      { type: '__proto__' },
    ];
    for (const message of bad) assert.equal(parseGridPageMessage(message), undefined, JSON.stringify(message));
  });
});

describe('messages to the grid page', () => {
  it('are checked before they are sent', () => {
    assert.ok(isGridHostMessage({ type: 'order', load: 1, result: 0, version: 2, order: [3, 1, 2], sort: null, filter: 'x' }));
    assert.ok(isGridHostMessage({ type: 'rows', load: 1, result: 0, start: 0, count: 1, cells: 'a\u0000' }));
    assert.ok(!isGridHostMessage({ type: 'order', load: 1, result: 0, version: 2, order: [3, -1], sort: null, filter: 'x' }));
    assert.ok(!isGridHostMessage({ type: 'success', key: 'q', load: 1, sql: null, results: [{ title: 't' }], active: 0 }));
  });
});

describe('the result header sent to the page', () => {
  it('passes the check with its columns, whose `type` is the column type', () => {
    const column = { name: 'id', type: 'UInt64', kind: 'number' };
    const header = { title: 'Result 1', query: 'SELECT 1', columns: [column], rowCount: 1, status: '1 row', truncation: null };
    assert.ok(isGridHostMessage({ type: 'success', key: 'q', load: 1, sql: null, results: [header], active: 0 }));
    assert.ok(!isGridHostMessage({ type: 'success', key: 'q', load: 1, sql: null, results: [{ ...header, columns: [{ ...column, kind: 'blob' }] }], active: 0 }));
  });
});
